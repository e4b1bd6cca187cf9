/// Formats a `Double` as a JSON number: integers without a fraction, others in Swift's
/// shortest round-tripping form.
enum JSONNumber {
    /// The JSON text of a finite number.
    static func text(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}

/// A number with a HealthKit unit string (`count/min`, `kg`, `mg/dL`, …), as recorded:
/// healthlog does not convert units.
public struct Quantity: Hashable, Sendable, CustomStringConvertible {
    /// The number, in ``unit``.
    public var value: Double
    /// The HealthKit unit string.
    public var unit: String

    /// A quantity of `value` in `unit`.
    public init(_ value: Double, _ unit: String) {
        self.value = value
        self.unit = unit
    }

    /// `value unit`, e.g. `72 count/min`.
    public var description: String { "\(JSONText.number(value)) \(unit)" }
}

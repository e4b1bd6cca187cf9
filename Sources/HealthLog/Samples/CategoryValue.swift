/// A category sample's value as recorded: an integer, or the name of one of HealthKit's
/// constants (`HKCategoryValueSleepAnalysisAsleepCore`), which comes back as that name.
public enum CategoryValue: Hashable, Sendable, CustomStringConvertible {
    /// An integer value.
    case integer(Int)
    /// A constant's name, as Apple's export writes it.
    case name(String)

    /// The integer: the value itself, or the number of a constant healthlog knows;
    /// `nil` for an unknown name.
    public var integerValue: Int? {
        switch self {
        case .integer(let value): value
        case .name(let name): CategoryConstants.value(of: name)
        }
    }

    /// The integer or the name.
    public var description: String {
        switch self {
        case .integer(let value): String(value)
        case .name(let name): name
        }
    }

    /// Parses command-line text: an integer, else a name.
    public init(text: String) {
        if let value = Int(text) { self = .integer(value) } else { self = .name(text) }
    }

    /// Whether two values name the same category: equal integers or names, or a name whose
    /// constant is known to have the other's integer value.
    func matches(_ other: CategoryValue) -> Bool {
        if self == other { return true }
        guard let a = integerValue, let b = other.integerValue else { return false }
        if case .name = self, case .name = other { return false }
        return a == b
    }
}

/// A metadata value: a string, a number or a boolean (HealthKit's
/// `NSString` and `NSNumber` values).
public enum MetadataValue: Hashable, Sendable, CustomStringConvertible {
    /// A string.
    case string(String)
    /// A number.
    case number(Double)
    /// A boolean.
    case bool(Bool)

    /// The value as text: the string itself, the number's shortest decimal form, or
    /// `true`/`false`.
    public var description: String {
        switch self {
        case .string(let text): text
        case .number(let number): JSONText.number(number)
        case .bool(let flag): flag ? "true" : "false"
        }
    }

    /// The value as a JSON token.
    var json: String {
        switch self {
        case .string(let text): JSONText.string(text)
        case .number(let number): JSONText.number(number)
        case .bool(let flag): flag ? "true" : "false"
        }
    }
}

extension MetadataValue: ExpressibleByStringLiteral, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral {
    /// A string value.
    public init(stringLiteral value: String) { self = .string(value) }
    /// A number value.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A number value.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// A boolean value.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

/// How a date-range predicate matches, as HealthKit's `HKQueryOptions`: by default a
/// sample matches when it overlaps `[start, end)`.
public struct DateOptions: OptionSet, Hashable, Sendable {
    /// The raw bits.
    public let rawValue: Int

    /// Creates options from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The sample's start must lie in `[start, end)`.
    public static let strictStartDate = DateOptions(rawValue: 1)
    /// The sample's end must lie in `[start, end)`.
    public static let strictEndDate = DateOptions(rawValue: 2)
}

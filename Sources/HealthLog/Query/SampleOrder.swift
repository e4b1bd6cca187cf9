/// One key samples are sorted by, as HealthKit's sort descriptors on
/// `HKSampleSortIdentifierStartDate` and `HKSampleSortIdentifierEndDate`:
/// ``HealthStore/samples(types:predicate:sortedBy:limit:)`` takes a list of them.
public struct SampleOrder: Hashable, Sendable {
    /// The date a sample is sorted by.
    public enum Key: String, Hashable, Sendable, CaseIterable {
        /// The sample's start.
        case startDate
        /// The sample's end.
        case endDate
    }

    /// The date sorted by.
    public var key: Key
    /// `true`: earliest first; `false`: latest first.
    public var ascending: Bool

    /// An order by `key`, earliest first unless `ascending` is `false`.
    public init(_ key: Key, ascending: Bool = true) {
        self.key = key
        self.ascending = ascending
    }

    /// The sort key of a sample spanning `start…end` (µs), negated for a descending order,
    /// so that smaller always sorts first.
    func rank(start: Int64, end: Int64) -> Int64 {
        let date = key == .startDate ? start : end
        return ascending ? date : -date
    }

    /// The smallest ``rank(start:end:)`` a group whose samples span `[minStart, maxEnd]`
    /// can hold: a sample's start and end both lie in that span (its end is never before
    /// its start).
    func bestRank(minStart: Int64, maxEnd: Int64) -> Int64 {
        ascending ? minStart : -maxEnd
    }
}

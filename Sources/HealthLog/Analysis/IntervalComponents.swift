/// The length of a ``StatisticsQuery``'s intervals as calendar components, HealthKit's
/// `intervalComponents`: months, days and elapsed seconds, added in that order to the
/// query's ``StatisticsQuery/anchorDate`` on the query's clock.
///
/// ```swift
/// let twoHours = IntervalComponents(hours: 2)
/// let week = IntervalComponents(weeks: 1)
/// ```
public struct IntervalComponents: Hashable, Sendable {
    /// Calendar months (a year is 12): the day of the month is kept, or the month's last
    /// day when it has fewer days, as `Calendar` adds months.
    public var months: Int
    /// Calendar days on the query's clock (a week is 7), 23 or 25 hours long across a
    /// daylight-saving change.
    public var days: Int
    /// Elapsed seconds (hours, minutes and seconds).
    public var seconds: Int64

    /// Components adding up the given units.
    public init(months: Int = 0, weeks: Int = 0, days: Int = 0, hours: Int = 0, minutes: Int = 0, seconds: Int = 0) {
        self.months = months
        self.days = weeks * 7 + days
        self.seconds = Int64(hours) * 3_600 + Int64(minutes) * 60 + Int64(seconds)
    }

    /// Whether the components describe a length: none negative, not all zero.
    var isLength: Bool {
        months >= 0 && days >= 0 && seconds >= 0 && (months > 0 || days > 0 || seconds > 0)
    }

    /// About how long they last, in µs (a month as 30.4 days), for a first guess of which
    /// interval holds an instant.
    var typicalMicros: Int64 {
        (Int64(months) * 2_629_746 + Int64(days) * 86_400 + seconds) * 1_000_000
    }

    /// The components of a ``StatisticsInterval``.
    init(_ interval: StatisticsInterval) {
        switch interval {
        case .hour: self.init(hours: 1)
        case .day: self.init(days: 1)
        case .week: self.init(weeks: 1)
        case .month: self.init(months: 1)
        }
    }
}

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
        self.days = Self.sum([(weeks, 7), (days, 1)], cap: Int64(Int.max))
        self.seconds = Self.sum([(hours, 3_600), (minutes, 60), (seconds, 1)], cap: Int64.max)
    }

    /// `Σ value × unit`, held at `±cap` instead of overflowing (``isLength`` then refuses it).
    private static func sum<T: FixedWidthInteger>(_ terms: [(Int, Int64)], cap: Int64) -> T {
        var total: Int64 = 0
        for (value, unit) in terms {
            let (product, over) = Int64(value).multipliedReportingOverflow(by: unit)
            let (next, overSum) = total.addingReportingOverflow(product)
            if over || overSum || next.magnitude > cap.magnitude { return T(value < 0 ? -cap : cap) }
            total = next
        }
        return T(total)
    }

    /// The longest components a query takes: ten thousand years of months, days or seconds.
    private static let longest = (months: 120_000, days: 3_652_500, seconds: Int64(315_576_000_000))

    /// Whether the components describe a length: none negative, not all zero, none longer
    /// than ten thousand years.
    var isLength: Bool {
        months >= 0 && days >= 0 && seconds >= 0 && (months > 0 || days > 0 || seconds > 0)
            && months <= Self.longest.months && days <= Self.longest.days && seconds <= Self.longest.seconds
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

/// Per-interval statistics of one type's live samples: HealthKit's
/// `HKStatisticsCollectionQuery` as a value, run by ``HealthStore/statistics(_:)``.
///
/// A sample counts in the interval that holds its start (HealthKit splits a long
/// cumulative sample across intervals; healthlog does not). Deleted samples do not count.
///
/// ```swift
/// let daily = try store.statistics(StatisticsQuery(type: .quantity("StepCount"), interval: .day, options: .sum))
/// for day in daily { print(day.label, day.sum ?? 0) }
/// ```
public struct StatisticsQuery: Sendable, Hashable {
    /// The type.
    public var type: SampleType
    /// Which samples count.
    public var predicate: QueryPredicate
    /// The intervals' length.
    public var interval: StatisticsInterval
    /// Which figures to compute.
    public var options: StatisticsOptions
    /// Whose clock the intervals follow (UTC by default).
    public var timeZone: StatisticsTimeZone

    /// The fixed UTC offset, in minutes east, the intervals follow (0 unless ``timeZone`` is
    /// ``StatisticsTimeZone/fixed(offsetMinutes:)``); setting it sets a fixed offset.
    public var offsetMinutes: Int {
        get { if case .fixed(let minutes) = timeZone { minutes } else { 0 } }
        set { timeZone = .fixed(offsetMinutes: newValue) }
    }

    /// A query.
    public init(
        type: SampleType, predicate: QueryPredicate = .all, interval: StatisticsInterval, options: StatisticsOptions = .values,
        offsetMinutes: Int = 0, timeZone: StatisticsTimeZone? = nil
    ) {
        self.type = type
        self.predicate = predicate
        self.interval = interval
        self.options = options
        self.timeZone = timeZone ?? .fixed(offsetMinutes: offsetMinutes)
    }
}

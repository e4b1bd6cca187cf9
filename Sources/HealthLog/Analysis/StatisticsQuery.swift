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
    /// The UTC offset, in minutes east, whose clock the intervals follow (0: UTC).
    public var offsetMinutes: Int

    /// A query.
    public init(
        type: SampleType, predicate: QueryPredicate = .all, interval: StatisticsInterval, options: StatisticsOptions = .values,
        offsetMinutes: Int = 0
    ) {
        self.type = type
        self.predicate = predicate
        self.interval = interval
        self.options = options
        self.offsetMinutes = offsetMinutes
    }
}

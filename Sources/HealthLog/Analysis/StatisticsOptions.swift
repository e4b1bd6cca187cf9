/// Which figures a ``StatisticsQuery`` computes per interval (HealthKit's
/// `HKStatisticsOptions`). The count of samples is always there.
///
/// As in HealthKit, the options follow the type's ``AggregationStyle``: ``sum`` for
/// cumulative types, ``average``, ``minimum``, ``maximum`` and ``mostRecent`` for discrete
/// ones; ``StatisticsQuery/validate()`` refuses the others, with the reason. A quantity
/// type healthlog does not know takes any.
public struct StatisticsOptions: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: Int

    /// Creates options from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The sum of the values (`cumulativeSum`).
    public static let sum = StatisticsOptions(rawValue: 1)
    /// The mean of the values (`discreteAverage`).
    public static let average = StatisticsOptions(rawValue: 2)
    /// The smallest value (`discreteMin`).
    public static let minimum = StatisticsOptions(rawValue: 4)
    /// The largest value (`discreteMax`).
    public static let maximum = StatisticsOptions(rawValue: 8)
    /// The time the samples cover, in seconds, each second once (`duration`), for any
    /// kind of sample.
    public static let duration = StatisticsOptions(rawValue: 16)
    /// The value of the most recent sample (`mostRecent`).
    public static let mostRecent = StatisticsOptions(rawValue: 32)
    /// One row per source instead of the sources merged (`separateBySource`).
    public static let separateBySource = StatisticsOptions(rawValue: 64)

    /// Sum, average, minimum and maximum (a mix no type takes whole: use the part that
    /// fits, ``cumulative`` or ``discrete``).
    public static let values: StatisticsOptions = [.sum, .average, .minimum, .maximum]
    /// What cumulative types take: the sum.
    public static let cumulative: StatisticsOptions = [.sum]
    /// What discrete types take: average, minimum, maximum and the most recent value.
    public static let discrete: StatisticsOptions = [.average, .minimum, .maximum, .mostRecent]
}

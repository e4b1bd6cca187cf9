/// Which figures a ``StatisticsQuery`` computes per interval (HealthKit's
/// `HKStatisticsOptions`). The count of samples is always there.
///
/// Unlike HealthKit, healthlog does not know each type's aggregation style, so it does
/// not refuse to mix cumulative and discrete options: ask for what makes sense (a sum of
/// step counts, an average of heart rates).
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
    /// The total time the samples span, in seconds (`duration`), for any kind of sample.
    public static let duration = StatisticsOptions(rawValue: 16)

    /// Sum, average, minimum and maximum.
    public static let values: StatisticsOptions = [.sum, .average, .minimum, .maximum]
}

/// One figure of a ``Statistics`` row by the name `aggregate --stat` and `plot --stat`
/// use for it.
public enum StatisticsFigure: String, Sendable, CaseIterable {
    /// The number of samples.
    case count
    /// The sum of the values.
    case sum
    /// The mean of the values.
    case avg
    /// The smallest value.
    case min
    /// The largest value.
    case max
    /// The seconds the samples span.
    case duration

    /// The option that makes a ``StatisticsQuery`` compute the figure (none for the count,
    /// which is always there).
    public var option: StatisticsOptions {
        switch self {
        case .count: []
        case .sum: .sum
        case .avg: .average
        case .min: .minimum
        case .max: .maximum
        case .duration: .duration
        }
    }

    /// The figure in `row`, if it has it.
    public func value(of row: Statistics) -> Double? {
        switch self {
        case .count: Double(row.count)
        case .sum: row.sum
        case .avg: row.average
        case .min: row.minimum
        case .max: row.maximum
        case .duration: row.duration
        }
    }
}

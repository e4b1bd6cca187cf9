/// One figure of a ``Statistics`` row by the name `aggregate --stat` and `plot --stat`
/// use for it.
package enum StatisticsFigure: String, Sendable, CaseIterable {
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
    /// The seconds the samples cover.
    case duration
    /// The value of the most recent sample.
    case mostRecent = "most-recent"

    /// The option that makes a ``StatisticsQuery`` compute the figure (none for the count,
    /// which is always there).
    package var option: StatisticsOptions {
        switch self {
        case .count: []
        case .sum: .sum
        case .avg: .average
        case .min: .minimum
        case .max: .maximum
        case .duration: .duration
        case .mostRecent: .mostRecent
        }
    }

    /// The figure a command shows for `type` unless told otherwise: the sum of a
    /// cumulative type (or one healthlog does not know), the average of a discrete one,
    /// the count of samples of other kinds.
    package static func defaultFigure(for type: SampleType) -> StatisticsFigure {
        guard type.kind == .quantity else { return .count }
        return QuantityTypeInfo.of(type.identifier)?.style.isCumulative == false ? .avg : .sum
    }

    /// The figures `aggregate` shows for `type` unless told otherwise: count and sum for a
    /// cumulative type, count, average, minimum and maximum for a discrete one, count,
    /// sum, average, minimum and maximum for a quantity type healthlog does not know, and
    /// count and duration for other kinds.
    package static func defaultFigures(for type: SampleType) -> [StatisticsFigure] {
        guard type.kind == .quantity else { return [.count, .duration] }
        switch QuantityTypeInfo.of(type.identifier)?.style.isCumulative {
        case true?: return [.count, .sum]
        case false?: return [.count, .avg, .min, .max]
        case nil: return [.count, .sum, .avg, .min, .max]
        }
    }

    /// The figure in `row`, if it has it.
    package func value(of row: Statistics) -> Double? {
        switch self {
        case .count: Double(row.count)
        case .sum: row.sum
        case .avg: row.average
        case .min: row.minimum
        case .max: row.maximum
        case .duration: row.duration
        case .mostRecent: row.mostRecent
        }
    }

    /// `value`, a figure of this kind, as printed (see ``PrintedNumber``): a count whole; a
    /// sum, mean or duration to ``PrintedNumber/figureDigits`` significant digits; a
    /// sample's value (minimum, maximum, most recent) to ``PrintedNumber/conversionDigits``.
    package func text(_ value: Double) -> String {
        switch self {
        case .count: JSONText.number(value)
        case .sum, .avg, .duration: JSONText.number(PrintedNumber.figure(value))
        case .min, .max, .mostRecent: JSONText.number(PrintedNumber.converted(value))
        }
    }

    /// The unit a row's figures print in: the row's, or `s` for a row without one whose
    /// figures include the duration (seconds).
    package static func unit(of row: Statistics, printing figures: [StatisticsFigure]) -> String {
        row.unit.isEmpty && figures.contains(.duration) ? "s" : row.unit
    }
}

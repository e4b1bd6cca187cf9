#if !canImport(Darwin)
internal import HealthLog

/// Which figures a statistics query computes, as HealthKit's `HKStatisticsOptions`.
public struct HKStatisticsOptions: OptionSet, Sendable, Hashable {
    /// The bits.
    public let rawValue: UInt
    /// Options from their bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// Each source's figures too.
    public static let separateBySource = HKStatisticsOptions(rawValue: 1 << 0)
    /// The average.
    public static let discreteAverage = HKStatisticsOptions(rawValue: 1 << 1)
    /// The smallest value.
    public static let discreteMin = HKStatisticsOptions(rawValue: 1 << 2)
    /// The largest value.
    public static let discreteMax = HKStatisticsOptions(rawValue: 1 << 3)
    /// The sum, sources merged.
    public static let cumulativeSum = HKStatisticsOptions(rawValue: 1 << 4)
    /// The most recent value.
    public static let mostRecent = HKStatisticsOptions(rawValue: 1 << 5)
    /// The time samples cover.
    public static let duration = HKStatisticsOptions(rawValue: 1 << 6)
    /// The most recent value (HealthKit's older name).
    public static var discreteMostRecent: HKStatisticsOptions { .mostRecent }

    /// The store's options.
    var stored: StatisticsOptions {
        var options: StatisticsOptions = []
        let pairs: [(HKStatisticsOptions, StatisticsOptions)] = [
            (.discreteAverage, .average), (.discreteMin, .minimum), (.discreteMax, .maximum), (.cumulativeSum, .sum),
            (.mostRecent, .mostRecent), (.duration, .duration),
        ]
        for (mine, theirs) in pairs where contains(mine) { options.insert(theirs) }
        return options
    }
}

/// The figures of one interval, as HealthKit's `HKStatistics`; with `.separateBySource`,
/// each source's figures too.
public final class HKStatistics: NSObject, @unchecked Sendable {
    /// The type.
    public let quantityType: HKQuantityType
    /// The interval's start.
    public let startDate: Date
    /// The interval's end.
    public let endDate: Date
    /// The sources with figures of their own (with `.separateBySource`), else `nil`.
    public let sources: [HKSource]?
    private let merged: Statistics
    private let bySource: [String: Statistics]

    init(type: HKQuantityType, merged: Statistics, bySource: [Statistics]?) {
        quantityType = type
        startDate = Date(merged.start)
        endDate = Date(merged.end)
        self.merged = merged
        self.bySource = Dictionary((bySource ?? []).map { ($0.source ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        sources = bySource.map { $0.compactMap(\.source).map { HKSource(name: $0) } }
    }

    private func quantity(_ value: Double?) -> HKQuantity? {
        value.map { HKQuantity(unit: HKUnit(from: merged.unit), doubleValue: $0) }
    }

    /// The sum with the sources merged.
    public func sumQuantity() -> HKQuantity? { quantity(merged.count > 0 ? merged.sum : nil) }
    /// The average.
    public func averageQuantity() -> HKQuantity? { quantity(merged.average) }
    /// The smallest value.
    public func minimumQuantity() -> HKQuantity? { quantity(merged.minimum) }
    /// The largest value.
    public func maximumQuantity() -> HKQuantity? { quantity(merged.maximum) }
    /// The most recent value.
    public func mostRecentQuantity() -> HKQuantity? { quantity(merged.mostRecent) }
    /// When the most recent sample starts and ends.
    public func mostRecentQuantityDateInterval() -> DateInterval? { Self.interval(merged) }
    /// The time samples cover, in seconds.
    public func duration() -> HKQuantity? { merged.duration.map { HKQuantity(unit: .second(), doubleValue: $0) } }

    /// `source`'s sum.
    public func sumQuantity(for source: HKSource) -> HKQuantity? { quantity(bySource[source.name]?.sum) }
    /// `source`'s average.
    public func averageQuantity(for source: HKSource) -> HKQuantity? { quantity(bySource[source.name]?.average) }
    /// `source`'s smallest value.
    public func minimumQuantity(for source: HKSource) -> HKQuantity? { quantity(bySource[source.name]?.minimum) }
    /// `source`'s largest value.
    public func maximumQuantity(for source: HKSource) -> HKQuantity? { quantity(bySource[source.name]?.maximum) }
    /// `source`'s most recent value.
    public func mostRecentQuantity(for source: HKSource) -> HKQuantity? { quantity(bySource[source.name]?.mostRecent) }
    /// When `source`'s most recent sample starts and ends.
    public func mostRecentQuantityDateInterval(for source: HKSource) -> DateInterval? { bySource[source.name].flatMap(Self.interval) }
    /// `source`'s covered time.
    public func duration(for source: HKSource) -> HKQuantity? {
        bySource[source.name]?.duration.map { HKQuantity(unit: .second(), doubleValue: $0) }
    }

    private static func interval(_ row: Statistics) -> DateInterval? {
        guard let start = row.mostRecentStart, let end = row.mostRecentEnd else { return nil }
        return DateInterval(start: Date(start), end: Date(end))
    }

    /// The figures as the store computed them.
    var row: Statistics { merged }
}

/// Per-interval statistics, as HealthKit's `HKStatisticsCollection`.
public final class HKStatisticsCollection: NSObject, @unchecked Sendable {
    private let type: HKQuantityType
    private let query: StatisticsQuery
    private let rows: [Statistics]
    private let bySource: [Int64: [Statistics]]?

    init(type: HKQuantityType, query: StatisticsQuery, rows: [Statistics], bySource: [Statistics]?) {
        self.type = type
        self.query = query
        self.rows = rows
        self.bySource = bySource.map { Dictionary(grouping: $0, by: \.start.microseconds) }
    }

    private func statistics(_ row: Statistics) -> HKStatistics {
        HKStatistics(type: type, merged: row, bySource: bySource.map { $0[row.start.microseconds] ?? [] })
    }

    /// The intervals that hold samples, in order.
    public func statistics() -> [HKStatistics] { rows.map(statistics) }

    /// The interval holding `date` (with no figures when it holds no samples).
    public func statistics(for date: Date) -> HKStatistics? {
        let micros = date.timestamp
        return query.everyInterval(of: rows, from: micros, to: Timestamp(microseconds: micros.microseconds + 1)).first.map(statistics)
    }

    /// Calls `block` with every interval from the one holding `startDate` to the one
    /// holding `endDate`, empty ones included, in order, until it sets its argument to `true`.
    public func enumerateStatistics(from startDate: Date, to endDate: Date, with block: (HKStatistics, UnsafeMutablePointer<ObjCBool>) -> Void) {
        var stop = ObjCBool(false)
        let through = Timestamp(microseconds: endDate.timestamp.microseconds + 1)
        for row in query.everyInterval(of: rows, from: startDate.timestamp, to: through) {
            block(statistics(row), &stop)
            if stop.boolValue { return }
        }
    }

    /// The sources with figures of their own (with `.separateBySource`).
    public func sources() -> Set<HKSource> {
        Set((bySource.map { Array($0.values.joined()) } ?? []).compactMap(\.source).map { HKSource(name: $0) })
    }

    /// The rows as the store computed them.
    var storedRows: [Statistics] { rows }
}
#endif

/// Per-interval statistics of one type's live samples: HealthKit's
/// `HKStatisticsCollectionQuery` as a value, run by ``HealthStore/statistics(_:)``.
///
/// As in HealthKit, the sources are merged first: a cumulative type's sum counts each
/// stretch of time once, from the highest-priority source covering it
/// (``sourcePriority``), and prorates a sample over the intervals it spans
/// (<doc:ComputingStatistics#Sources-are-merged-first>); a discrete type's average, minimum, maximum and most recent
/// value take every source's samples, each in the interval holding its start.
/// ``StatisticsOptions/separateBySource`` gives one row per source instead. Values are in
/// ``unit`` (by default the type's, ``QuantityTypeInfo``). Intervals follow ``timeZone``
/// (a local calendar day is 23 or 25 hours across a daylight-saving change), and the
/// merge and its proration cut samples at those intervals' boundaries. Deleted samples do
/// not count.
///
/// ```swift
/// let daily = try store.statistics(StatisticsQuery(type: .quantity("StepCount"), interval: .day, options: .sum))
/// for day in daily { print(day.label, day.sum ?? 0) }
/// ```
///
/// Intervals can also start at any time, as HealthKit's `anchorDate` and
/// `intervalComponents` lay them (``anchorDate``, ``intervalComponents``): days from 06:00,
/// two hours, weeks from Monday 06:00. ``HealthStore/statistics(_:from:to:)`` lists every
/// interval of a range, the empty ones too.
///
/// ```swift
/// let mornings = StatisticsQuery(type: .quantity("StepCount"), anchorDate: Timestamp(commandLine: "2024-03-04T06:00")!,
///                                intervalComponents: IntervalComponents(weeks: 1), options: .sum)
/// ```
public struct StatisticsQuery: Sendable, Hashable {
    /// The type.
    public var type: SampleType
    /// Which samples count.
    public var predicate: QueryPredicate
    /// The intervals' length (unless ``intervalComponents`` is set).
    public var interval: StatisticsInterval
    /// Where intervals are laid from, HealthKit's `anchorDate`: the wall-clock time of this
    /// instant on the query's clock (``timeZone``; with ``StatisticsTimeZone/recorded``, its
    /// UTC fields) starts an interval, and the intervals run both ways from it. `nil`:
    /// local midnight of Monday 1 January 2001, so days start at midnight, weeks on Monday
    /// and months on the 1st.
    public var anchorDate: Timestamp?
    /// The intervals' length as calendar components, HealthKit's `intervalComponents`;
    /// `nil`: ``interval``'s.
    public var intervalComponents: IntervalComponents?
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

    /// The unit of the figures; `nil` for the type's own (or, for a quantity type healthlog
    /// does not know, the first sample's).
    public var unit: HealthUnit?
    /// The sources that win when sources are merged, highest priority first; the others
    /// follow by default: Apple Watch sources, then iPhone and iPad sources, then the rest,
    /// each group by name.
    public var sourcePriority: [String]

    /// A query.
    public init(
        type: SampleType, predicate: QueryPredicate = .all, interval: StatisticsInterval, options: StatisticsOptions = .values,
        offsetMinutes: Int = 0, timeZone: StatisticsTimeZone? = nil, unit: HealthUnit? = nil, sourcePriority: [String] = []
    ) {
        self.type = type
        self.predicate = predicate
        self.interval = interval
        self.options = options
        self.timeZone = timeZone ?? .fixed(offsetMinutes: offsetMinutes)
        self.unit = unit
        self.sourcePriority = sourcePriority
    }

    /// A query whose intervals are `intervalComponents` long, laid from `anchorDate`'s
    /// time on the query's clock: HealthKit's `HKStatisticsCollectionQuery`.
    public init(
        type: SampleType, predicate: QueryPredicate = .all, anchorDate: Timestamp, intervalComponents: IntervalComponents,
        options: StatisticsOptions = .values, timeZone: StatisticsTimeZone = .fixed(offsetMinutes: 0), unit: HealthUnit? = nil,
        sourcePriority: [String] = []
    ) {
        self.init(type: type, predicate: predicate, interval: .day, options: options, timeZone: timeZone, unit: unit, sourcePriority: sourcePriority)
        self.anchorDate = anchorDate
        self.intervalComponents = intervalComponents
    }

    /// Checks the options against the type's aggregation style and the unit against its
    /// dimension, as HealthKit does when a query starts.
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` with the reason.
    public func validate() throws {
        let id = type.identifier
        if let intervalComponents, !intervalComponents.isLength {
            throw HealthLogError(.badUsage, "interval components must not be negative, not all zero, and none longer than ten thousand years")
        }
        let valueOptions: StatisticsOptions = [.sum, .average, .minimum, .maximum, .mostRecent]
        guard type.kind == .quantity else {
            if !options.isDisjoint(with: valueOptions) {
                throw HealthLogError(.badUsage, "\(id) is a \(type.kind.rawValue) type: its statistics are count and duration (sum, avg, min, max and most-recent are for quantity types)")
            }
            if unit != nil { throw HealthLogError(.badUsage, "\(id) is a \(type.kind.rawValue) type: it has no unit") }
            return
        }
        guard let info = QuantityTypeInfo.of(id) else { return }
        if info.style.isCumulative, !options.isDisjoint(with: .discrete) {
            throw HealthLogError(
                .badUsage,
                "\(id) is a cumulative type: it takes sum (and count, duration), not avg, min, max or most-recent; HealthKit refuses discrete options on cumulative types too")
        }
        if !info.style.isCumulative, options.contains(.sum) {
            throw HealthLogError(
                .badUsage, "\(id) is a discrete type: it takes avg, min, max and most-recent (and count, duration), not sum; HealthKit refuses cumulativeSum on discrete types too")
        }
        if let unit, !unit.isCompatible(with: info.unit) {
            throw HealthLogError(.badUsage, "unit '\(unit)' (\(unit.dimension)) does not fit \(id), whose values are in \(info.unit) (\(info.unit.dimension)) or a unit that converts to it")
        }
    }
}

#if !canImport(Darwin)
internal import HealthLog

/// Statistics per interval, as HealthKit's `HKStatisticsCollectionQuery`: intervals of
/// `intervalComponents` on the current calendar, counted from `anchorDate` at its time of
/// day. With a ``statisticsUpdateHandler``, the query keeps running and hands over the
/// collection recomputed after each change to the type; the handler's `HKStatistics` is
/// `nil` (the whole collection is recomputed).
public final class HKStatisticsCollectionQuery: HKQuery, @unchecked Sendable {
    /// What the initial handler gets.
    public typealias InitialHandler = @Sendable (HKStatisticsCollectionQuery, HKStatisticsCollection?, (any Error)?) -> Void
    /// What the update handler gets.
    public typealias UpdateHandler = @Sendable (HKStatisticsCollectionQuery, HKStatistics?, HKStatisticsCollection?, (any Error)?) -> Void

    /// The first interval's start (or any interval's).
    public let anchorDate: Date
    /// The figures asked for.
    public let options: HKStatisticsOptions
    /// The intervals' length.
    public let intervalComponents: DateComponents
    private var initial: InitialHandler?
    private var update: UpdateHandler?
    private var running: StatisticsCollectionQuery?

    /// A query for `quantityType`.
    public init(
        quantityType: HKQuantityType, quantitySamplePredicate: NSPredicate?, options: HKStatisticsOptions = [], anchorDate: Date,
        intervalComponents: DateComponents
    ) {
        self.anchorDate = anchorDate
        self.options = options
        self.intervalComponents = intervalComponents
        super.init(objectType: quantityType, predicate: quantitySamplePredicate)
    }

    /// Called once with the first statistics.
    public var initialResultsHandler: InitialHandler? {
        get { lock.withLock { initial } }
        set { lock.withLock { initial = newValue } }
    }

    /// Called with the statistics after each change while the query runs.
    public var statisticsUpdateHandler: UpdateHandler? {
        get { lock.withLock { update } }
        set {
            lock.withLock {
                precondition(running == nil, "HKStatisticsCollectionQuery: statisticsUpdateHandler cannot be set after the query is executed")
                update = newValue
            }
        }
    }

    override func start(in healthStore: HKHealthStore) {
        let type = objectType as! HKQuantityType
        let (initial, update) = lock.withLock { (self.initial, self.update) }
        let query: StatisticsQuery
        do {
            query = try StatisticsRequest.query(
                type: type, predicate: predicate, options: options, anchorDate: anchorDate, intervalComponents: intervalComponents)
        } catch {
            healthStore.background { initial?(self, nil, HKError.from(error)) }
            return
        }
        let store = healthStore.store
        let collection: @Sendable ([Statistics]?) throws -> HKStatisticsCollection? = { rows in
            guard let rows else { return nil }
            return HKStatisticsCollection(type: type, query: query, rows: rows, bySource: try StatisticsRequest.bySource(query, self.options, store))
        }
        let running = StatisticsCollectionQuery(query) { [self] _, rows, error in
            if let error { return initial?(self, nil, HKError.from(error)) ?? () }
            do { initial?(self, try collection(rows), nil) } catch { initial?(self, nil, HKError.from(error)) }
        }
        if let update {
            running.statisticsUpdateHandler = { [self] _, rows, error in
                if let error { return update(self, nil, nil, HKError.from(error)) }
                do { update(self, nil, try collection(rows), nil) } catch { update(self, nil, nil, HKError.from(error)) }
            }
        }
        lock.withLock { self.running = running }
        do {
            try store.execute(running)
        } catch {
            healthStore.background { initial?(self, nil, HKError.from(error)) }
        }
    }

    override func end(in healthStore: HKHealthStore) {
        if let running = lock.withLock({ running }) { healthStore.store.stop(running) }
    }
}

/// Statistics queries as the store's.
enum StatisticsRequest {
    /// The store's query for a collection query's parameters, on the current calendar's
    /// time zone.
    static func query(
        type: HKQuantityType, predicate: NSPredicate?, options: HKStatisticsOptions, anchorDate: Date, intervalComponents: DateComponents
    ) throws -> StatisticsQuery {
        let components = intervalComponents
        let interval = IntervalComponents(
            months: (components.year ?? 0) * 12 + (components.month ?? 0), weeks: components.weekOfYear ?? components.weekOfMonth ?? 0,
            days: components.day ?? 0, hours: components.hour ?? 0, minutes: components.minute ?? 0, seconds: components.second ?? 0)
        var query = StatisticsQuery(
            type: type.sampleType, predicate: try PredicateTranslation.translate(predicate),
            anchorDate: Timestamp(microseconds: Int64((anchorDate.timeIntervalSince1970 * 1_000_000).rounded())), intervalComponents: interval,
            options: options.stored, timeZone: zone)
        query.options.remove(.separateBySource)
        return query
    }

    /// The time zone of the current calendar, as the store names it (a fixed offset when
    /// the store does not know the zone).
    static var zone: StatisticsTimeZone {
        let current = Calendar.current.timeZone
        if let rules = try? TimeZoneRules(named: current.identifier) { return .named(rules) }
        return .fixed(offsetMinutes: current.secondsFromGMT() / 60)
    }

    /// Each source's rows, when `options` asks for them.
    static func bySource(_ query: StatisticsQuery, _ options: HKStatisticsOptions, _ store: HealthStore) throws -> [Statistics]? {
        guard options.contains(.separateBySource) else { return nil }
        var separate = query
        separate.options.insert(.separateBySource)
        return try store.statistics(separate)
    }
}
#endif

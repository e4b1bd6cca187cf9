/// A statistics collection query that can keep running, shaped like HealthKit's
/// `HKStatisticsCollectionQuery`: ``initialResultsHandler`` gets the statistics of
/// ``query``; with a ``statisticsUpdateHandler``, the query then keeps running and hands
/// over the statistics again, recomputed, each time any process appends or deletes
/// samples of the type, until ``HealthStore/stop(_:)-(StatisticsCollectionQuery)``.
///
/// ```swift
/// let daily = StatisticsCollectionQuery(StatisticsQuery(type: .quantity("StepCount"), interval: .day, options: .sum)) {
///     query, statistics, error in show(statistics ?? [])
/// }
/// daily.statisticsUpdateHandler = { query, statistics, error in show(statistics ?? []) }
/// try store.execute(daily)
/// …
/// store.stop(daily)
/// ```
///
/// Handlers run on a thread of the query's own, one call at a time, in order. Where
/// HealthKit's update handler gets the changed interval's statistics and the whole
/// collection, healthlog's gets the whole collection.
public final class StatisticsCollectionQuery: Sendable {
    /// What the handlers receive: the query and the statistics (every interval), or an
    /// error and `nil`.
    public typealias ResultsHandler = @Sendable (StatisticsCollectionQuery, [Statistics]?, (any Error)?) -> Void

    /// The statistics asked for.
    public let query: StatisticsQuery
    /// Called once with the first statistics.
    public let initialResultsHandler: ResultsHandler
    private let run = QueryRun<ResultsHandler, Void>("StatisticsCollectionQuery", settings: ())

    /// A query for `query`'s statistics.
    public init(_ query: StatisticsQuery, initialResultsHandler: @escaping ResultsHandler) {
        self.query = query
        self.initialResultsHandler = initialResultsHandler
    }

    /// Called with the statistics each time samples of the type are appended or deleted,
    /// after the first results, as long as the query runs. Set it before
    /// ``HealthStore/execute(_:)-(StatisticsCollectionQuery)``: setting it after is a
    /// programming error (it traps).
    public var statisticsUpdateHandler: ResultsHandler? {
        get { run.updateHandler }
        set { run.setUpdateHandler(newValue, property: "statisticsUpdateHandler") }
    }

    /// Marks the query executed; returns its update handler and stop signal.
    func begin() throws -> (ResultsHandler?, StopSignal) {
        try run.begin()
    }

    /// Stops the query.
    func end() {
        run.end()
    }
}

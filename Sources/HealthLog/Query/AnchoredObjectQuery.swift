/// An anchored query, shaped like HealthKit's `HKAnchoredObjectQuery`: the samples and
/// deleted objects of some types recorded after an anchor, handed to `resultsHandler`;
/// with an ``updateHandler``, it then keeps running and hands over each later change as
/// any process appends it, until ``HealthStore/stop(_:)-(AnchoredObjectQuery)``.
///
/// ```swift
/// let query = AnchoredObjectQuery(type: .quantity("HeartRate"), predicate: nil, anchor: saved, limit: 0) {
///     query, samples, deleted, newAnchor, error in
///     // first results
/// }
/// query.updateHandler = { query, samples, deleted, newAnchor, error in
///     // each later change; persist newAnchor once the samples are safely stored
/// }
/// try store.execute(query)
/// …
/// store.stop(query)
/// ```
///
/// Handlers run on a thread of the query's own, one call at a time, in order.
public final class AnchoredObjectQuery: Sendable {
    /// What the handlers receive: the query, the samples added and the objects deleted
    /// (each in sequence order), the new anchor, or an error with `nil` for the rest.
    public typealias ResultsHandler = @Sendable (AnchoredObjectQuery, [any Sample]?, [DeletedObject]?, QueryAnchor?, (any Error)?) -> Void

    /// The types asked for; empty for all types.
    public let types: Set<SampleType>
    /// The predicate.
    public let predicate: QueryPredicate
    /// The anchor to start after; `nil` for the beginning.
    public let anchor: QueryAnchor?
    /// The most samples plus deleted objects to return; 0 for no limit.
    public let limit: Int
    let resultsHandler: ResultsHandler
    /// The update handler and whether every event is returned (``returnsEveryEvent``).
    private let run = QueryRun<ResultsHandler, Bool>("AnchoredObjectQuery", settings: false)

    /// A query for `type` (`nil`: all types), as HealthKit's initializer.
    public convenience init(
        type: SampleType?, predicate: QueryPredicate?, anchor: QueryAnchor?, limit: Int, resultsHandler: @escaping ResultsHandler
    ) {
        self.init(types: type.map { [$0] } ?? [], predicate: predicate, anchor: anchor, limit: limit, resultsHandler: resultsHandler)
    }

    /// A query for any of `types` (empty: all types).
    public init(
        types: Set<SampleType>, predicate: QueryPredicate?, anchor: QueryAnchor?, limit: Int, resultsHandler: @escaping ResultsHandler
    ) {
        self.types = types
        self.predicate = predicate ?? .all
        self.anchor = anchor
        self.limit = limit
        self.resultsHandler = resultsHandler
    }

    /// Called with each change after the first results, as long as the query runs. Set it
    /// before ``HealthStore/execute(_:)-(AnchoredObjectQuery)``, and only on a query without a limit: as in
    /// HealthKit, setting it after `execute` is a programming error (it traps), and a
    /// limit together with it makes `execute` throw.
    public var updateHandler: ResultsHandler? {
        get { run.updateHandler }
        set { run.setUpdateHandler(newValue, property: "updateHandler") }
    }

    /// `false` (the default): HealthKit's view, where a sample deleted later comes back
    /// only as its deleted object. `true`: every event as recorded. Set before `execute`.
    public var returnsEveryEvent: Bool {
        get { run.settings }
        set { run.change("returnsEveryEvent") { $0 = newValue } }
    }

    /// The request for the first results.
    var request: ReplayRequest {
        ReplayRequest(anchor: anchor ?? .beginning, types: Set(types.map(\.identifier)), predicate: predicate, limit: limit, raw: returnsEveryEvent)
    }

    /// Marks the query executed; returns its update handler and stop signal.
    func begin() throws -> (ResultsHandler?, StopSignal) {
        try run.begin { updateHandler in
            guard limit >= 0 else { throw HealthLogError(.badUsage, "limit must be 0 (no limit) or more, not \(limit)") }
            if updateHandler != nil, limit > 0 {
                throw HealthLogError(.badUsage, "a query with an update handler takes no limit (as in HealthKit)")
            }
        }
    }

    /// Stops the query.
    func end() {
        run.end()
    }
}

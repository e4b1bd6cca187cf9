#if !canImport(Darwin)
internal import HealthLog

/// The samples added and objects deleted after an anchor, as HealthKit's
/// `HKAnchoredObjectQuery`; with an ``updateHandler`` (set before or after `init`, before
/// `execute`), it keeps running and hands over each later change any process appends.
public final class HKAnchoredObjectQuery: HKQuery, @unchecked Sendable {
    /// What the handlers get: the query, the samples added, the objects deleted and the
    /// new anchor, or an error with `nil` for the rest.
    public typealias Handler = @Sendable (HKAnchoredObjectQuery, [HKSample]?, [HKDeletedObject]?, HKQueryAnchor?, (any Error)?) -> Void

    /// The anchor to start after.
    public let anchor: HKQueryAnchor?
    /// The most samples plus deleted objects to return; 0 for all.
    public let limit: Int
    private let resultsHandler: Handler
    private let selection: Result<StoreSelection, any Error>
    private var handler: Handler?
    private var running: AnchoredObjectQuery?

    /// A query for `type`.
    public init(type: HKSampleType, predicate: NSPredicate?, anchor: HKQueryAnchor?, limit: Int, resultsHandler handler: @escaping Handler) {
        self.anchor = anchor
        self.limit = limit
        resultsHandler = handler
        selection = Result { try StoreSelection(type: type, predicate: predicate) }
        super.init(objectType: type, predicate: predicate)
    }

    /// A query for any of `queryDescriptors`.
    public init(queryDescriptors: [HKQueryDescriptor], anchor: HKQueryAnchor?, limit: Int, resultsHandler handler: @escaping Handler) {
        self.anchor = anchor
        self.limit = limit
        resultsHandler = handler
        selection = Result { try StoreSelection(queryDescriptors.map { ($0.sampleType, $0.predicate) }) }
        super.init(objectType: queryDescriptors.count == 1 ? queryDescriptors[0].sampleType : nil, predicate: queryDescriptors.first?.predicate)
    }

    /// Called with each change after the first results while the query runs. As in
    /// HealthKit, set it before `execute`, on a query without a limit.
    public var updateHandler: Handler? {
        get { lock.withLock { handler } }
        set {
            lock.withLock {
                precondition(running == nil, "HKAnchoredObjectQuery: updateHandler cannot be set after the query is executed")
                handler = newValue
            }
        }
    }

    override func start(in healthStore: HKHealthStore) {
        let store = healthStore.store
        let selection: StoreSelection
        let start: QueryAnchor
        do {
            selection = try self.selection.get()
            start = try HKQueryAnchor.start(anchor, on: store)
        } catch {
            healthStore.background { self.resultsHandler(self, nil, nil, nil, HKError.from(error)) }
            return
        }
        let delivered = DeliveredAnchor(start)
        let deliver: @Sendable (@escaping Handler) -> AnchoredObjectQuery.ResultsHandler = { handler in
            { [self] _, samples, deleted, newAnchor, error in
                HandlerCalls.run {
                    if let error { return handler(self, nil, nil, nil, HKError.from(error)) }
                    do {
                        var batch = QueryResult(addedSamples: samples ?? [], deletedObjects: deleted ?? [], newAnchor: newAnchor ?? .beginning)
                        if selection.perType != nil {
                            batch = try selection.narrow(batch, after: delivered.advance(to: newAnchor), in: store)
                        }
                        let converted = try SampleConversion.samples(batch.addedSamples, store: store)
                        handler(self, converted, batch.deletedObjects.map(HKDeletedObject.init), newAnchor.map(HKQueryAnchor.init), nil)
                    } catch {
                        handler(self, nil, nil, nil, HKError.from(error))
                    }
                }
            }
        }
        let query = AnchoredObjectQuery(
            types: selection.types, predicate: selection.predicate, anchor: start, limit: limit, resultsHandler: deliver(resultsHandler))
        let update = lock.withLock {
            running = query
            return handler
        }
        if let update { query.updateHandler = deliver(update) }
        do {
            try store.execute(query)
        } catch {
            healthStore.background { self.resultsHandler(self, nil, nil, nil, HKError.from(error)) }
        }
    }

    override func end(in healthStore: HKHealthStore) {
        if let running = lock.withLock({ running }) { healthStore.store.stop(running) }
    }
}
#endif

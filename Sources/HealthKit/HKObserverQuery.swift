#if !canImport(Darwin)
internal import HealthLog

/// The completion handler an observer query's update handler gets; calling it does nothing
/// (there is no background delivery to acknowledge).
public typealias HKObserverQueryCompletionHandler = () -> Void

/// A long-running query that calls its handler once when it starts and again after each
/// append that saves or deletes matching samples, by any process, as HealthKit's
/// `HKObserverQuery`.
public final class HKObserverQuery: HKQuery, @unchecked Sendable {
    private let handler: @Sendable (HKObserverQuery, Set<HKSampleType>?, @escaping HKObserverQueryCompletionHandler, (any Error)?) -> Void
    private let selection: Result<StoreSelection, any Error>
    private var running: AnchoredObjectQuery?

    /// A query for `sampleType`.
    public init(
        sampleType: HKSampleType, predicate: NSPredicate?,
        updateHandler: @escaping @Sendable (HKObserverQuery, @escaping HKObserverQueryCompletionHandler, (any Error)?) -> Void
    ) {
        handler = { query, _, completion, error in updateHandler(query, completion, error) }
        selection = Result { try StoreSelection(type: sampleType, predicate: predicate) }
        super.init(objectType: sampleType, predicate: predicate)
    }

    /// A query for any of `queryDescriptors`; the handler gets the types that changed.
    public init(
        queryDescriptors: [HKQueryDescriptor],
        updateHandler: @escaping @Sendable (HKObserverQuery, Set<HKSampleType>?, @escaping HKObserverQueryCompletionHandler, (any Error)?) -> Void
    ) {
        handler = updateHandler
        selection = Result { try StoreSelection(queryDescriptors.map { ($0.sampleType, $0.predicate) }) }
        super.init(objectType: queryDescriptors.count == 1 ? queryDescriptors[0].sampleType : nil, predicate: queryDescriptors.first?.predicate)
    }

    override func start(in healthStore: HKHealthStore) {
        let store = healthStore.store
        do {
            let selection = try self.selection.get()
            let start = try store.headAnchor()
            let delivered = DeliveredAnchor(start)
            let query = AnchoredObjectQuery(
                types: selection.types, predicate: selection.predicate, anchor: start, limit: 0
            ) { [self] _, _, _, newAnchor, error in
                _ = delivered.advance(to: newAnchor)
                handler(self, error == nil ? [] : nil, {}, error.map(HKError.from))
            }
            query.updateHandler = { [self] _, samples, deleted, newAnchor, error in
                if let error { return handler(self, nil, {}, HKError.from(error)) }
                var batch = QueryResult(addedSamples: samples ?? [], deletedObjects: deleted ?? [], newAnchor: newAnchor ?? .beginning)
                if selection.perType != nil {
                    // The store ran the types' predicates as one OR: each type keeps only what its own matches.
                    do {
                        batch = try selection.narrow(batch, after: delivered.advance(to: newAnchor), in: store)
                    } catch {
                        return handler(self, nil, {}, HKError.from(error))
                    }
                }
                let types = batch.addedSamples.map(\.sampleType.identifier) + batch.deletedObjects.map(\.sampleType.identifier)
                guard !types.isEmpty else { return }
                handler(self, Set(types.map(HKObjectType.sampleType(identifier:))), {}, nil)
            }
            lock.withLock { running = query }
            try store.execute(query)
        } catch {
            healthStore.background { self.handler(self, nil, {}, HKError.from(error)) }
        }
    }

    override func end(in healthStore: HKHealthStore) {
        if let running = lock.withLock({ running }) { healthStore.store.stop(running) }
    }
}
#endif

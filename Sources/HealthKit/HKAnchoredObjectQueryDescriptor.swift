#if !canImport(Darwin)
internal import HealthLog

/// An anchored query for Swift concurrency, as HealthKit's `HKAnchoredObjectQueryDescriptor`:
/// ``result(for:)`` once, or ``results(for:)``, whose first element holds everything after
/// the anchor and whose later elements hold each change as it is appended.
public struct HKAnchoredObjectQueryDescriptor<Sample: HKSample>: @unchecked Sendable {
    /// What one run returns.
    public struct Result: @unchecked Sendable {
        /// The samples added, in the order they were.
        public let addedSamples: [Sample]
        /// The objects deleted.
        public let deletedObjects: [HKDeletedObject]
        /// The anchor to pass next time.
        public let newAnchor: HKQueryAnchor
    }

    /// The elements of ``results(for:)``.
    public typealias Results = AsyncThrowingStream<Result, any Error>

    /// The types and their predicates.
    public var predicates: [HKSamplePredicate<Sample>]
    /// The anchor to start after.
    public var anchor: HKQueryAnchor?
    /// The most samples plus deleted objects for ``result(for:)``; `nil` for all.
    public var limit: Int?

    /// A descriptor.
    public init(predicates: [HKSamplePredicate<Sample>], anchor: HKQueryAnchor?, limit: Int? = nil) {
        self.predicates = predicates
        self.anchor = anchor
        self.limit = limit
    }

    private func selection() throws -> StoreSelection {
        try StoreSelection(predicates.map { ($0.sampleType, $0.nsPredicate) })
    }

    /// Runs the query once.
    public func result(for healthStore: HKHealthStore) async throws -> Result {
        let descriptor = self
        return try await withCheckedThrowingContinuation { continuation in
            healthStore.background {
                continuation.resume(with: Swift.Result {
                    do {
                        let selection = try descriptor.selection()
                        let result = try selection.result(
                            in: healthStore.store, after: try HKQueryAnchor.start(descriptor.anchor, on: healthStore.store), limit: descriptor.limit ?? 0)
                        return Result(
                            addedSamples: try SampleConversion.samples(result.addedSamples, store: healthStore.store).compactMap { $0 as? Sample },
                            deletedObjects: result.deletedObjects.map(HKDeletedObject.init), newAnchor: HKQueryAnchor(result.newAnchor))
                    } catch {
                        throw HKError.from(error)
                    }
                })
            }
        }
    }

    /// The first results, then each later change, until the consuming task stops.
    public func results(for healthStore: HKHealthStore) -> Results {
        let descriptors = predicates.map { HKQueryDescriptor(sampleType: $0.sampleType, predicate: $0.nsPredicate) }
        let anchor = anchor
        return Results { continuation in
            let deliver: HKAnchoredObjectQuery.Handler = { _, samples, deleted, newAnchor, error in
                if let error { return continuation.finish(throwing: error) }
                guard let newAnchor else { return }
                continuation.yield(Result(addedSamples: (samples ?? []).compactMap { $0 as? Sample }, deletedObjects: deleted ?? [], newAnchor: newAnchor))
            }
            let query = HKAnchoredObjectQuery(queryDescriptors: descriptors, anchor: anchor, limit: HKObjectQueryNoLimit, resultsHandler: deliver)
            query.updateHandler = deliver
            continuation.onTermination = { _ in healthStore.stop(query) }
            healthStore.execute(query)
        }
    }
}

/// A sample query for Swift concurrency, as HealthKit's `HKSampleQueryDescriptor`.
public struct HKSampleQueryDescriptor<Sample: HKSample>: @unchecked Sendable {
    /// The types and their predicates.
    public var predicates: [HKSamplePredicate<Sample>]
    /// The order of the results.
    public var sortDescriptors: [SortDescriptor<Sample>]
    /// The most samples to return; `nil` for all.
    public var limit: Int?

    /// A descriptor.
    public init(predicates: [HKSamplePredicate<Sample>], sortDescriptors: [SortDescriptor<Sample>], limit: Int? = nil) {
        self.predicates = predicates
        self.sortDescriptors = sortDescriptors
        self.limit = limit
    }

    /// The store's order for the sort descriptors, when each sorts by start or end date.
    private var storeOrder: [SampleOrder]? {
        var order: [SampleOrder] = []
        for descriptor in sortDescriptors {
            let ascending = descriptor.order == .forward
            switch descriptor.keyPath {
            case \Sample.startDate: order.append(SampleOrder(.startDate, ascending: ascending))
            case \Sample.endDate: order.append(SampleOrder(.endDate, ascending: ascending))
            default: return nil
            }
        }
        return order
    }

    /// Runs the query: the store sorts by start and end dates and reads only what the
    /// limit keeps; other orders are applied to every matching sample.
    public func result(for healthStore: HKHealthStore) async throws -> [Sample] {
        let descriptor = self
        return try await withCheckedThrowingContinuation { continuation in
            healthStore.background {
                continuation.resume(with: Result {
                    do {
                        let selection = try StoreSelection(descriptor.predicates.map { ($0.sampleType, $0.nsPredicate) })
                        let order = descriptor.storeOrder
                        let found = try selection.samples(
                            in: healthStore.store, sortedBy: order ?? [], limit: order == nil ? 0 : descriptor.limit ?? 0)
                        var samples = try SampleConversion.samples(found, store: healthStore.store).compactMap { $0 as? Sample }
                        if order == nil {
                            samples.sort(using: descriptor.sortDescriptors)
                            if let limit = descriptor.limit, limit > 0 { samples = Array(samples.prefix(limit)) }
                        }
                        return samples
                    } catch {
                        throw HKError.from(error)
                    }
                })
            }
        }
    }
}
#endif

/// The async form of an anchored query, modelled on HealthKit's
/// `HKAnchoredObjectQueryDescriptor`: ``result(for:)`` runs it once;
/// ``results(for:)`` is an `AsyncSequence` whose first element holds everything after the
/// anchor and whose later elements hold each change as any process appends it, until the
/// consuming task is cancelled or stops iterating.
///
/// ```swift
/// let descriptor = AnchoredObjectQueryDescriptor(types: [.quantity("HeartRate")], anchor: saved)
/// for try await result in descriptor.results(for: store) {
///     try mirror.apply(result.addedSamples, result.deletedObjects)
///     try saveAnchor(result.newAnchor)
/// }
/// ```
public struct AnchoredObjectQueryDescriptor: Sendable {
    /// The types asked for; empty for all types.
    public var types: Set<SampleType>
    /// The predicate.
    public var predicate: QueryPredicate
    /// The anchor to start after; `nil` for the beginning.
    public var anchor: QueryAnchor?
    /// The most samples plus deleted objects for ``result(for:)``; `nil` for all.
    /// ``results(for:)`` takes none.
    public var limit: Int?
    /// `true` for every event as recorded instead of HealthKit's view.
    public var returnsEveryEvent = false

    /// A descriptor.
    public init(types: Set<SampleType> = [], predicate: QueryPredicate = .all, anchor: QueryAnchor? = nil, limit: Int? = nil) {
        self.types = types
        self.predicate = predicate
        self.anchor = anchor
        self.limit = limit
    }

    private var request: ReplayRequest {
        ReplayRequest(anchor: anchor ?? .beginning, types: Set(types.map(\.identifier)), predicate: predicate, limit: limit ?? 0, raw: returnsEveryEvent)
    }

    /// Runs the query once, on a thread of its own (reading the log blocks, which the
    /// caller's task should not).
    ///
    /// - Throws: ``HealthLogError/Code/anchorRefused`` for an anchor the store refuses
    ///   (<doc:SyncingWithAnchors#Anchors-that-are-refused>); ``HealthLogError/Code/noStore``
    ///   when there is no store; ``HealthLogError/Code/corrupt`` for damage, naming file and offset.
    public func result(for store: HealthStore) async throws -> QueryResult {
        let request = request
        return try await withCheckedThrowingContinuation { continuation in
            OSThread.detach {
                continuation.resume(with: Result { try store.result(request) })
            }
        }
    }

    /// The first results, then each later change, until cancelled. Each element's
    /// ``QueryResult/newAnchor`` is higher than the last; a limit ends the sequence with
    /// ``HealthLogError/Code/badUsage``.
    public func results(for store: HealthStore) -> AsyncThrowingStream<QueryResult, any Error> {
        let request = request
        return AsyncThrowingStream { continuation in
            let query = AnchoredObjectQuery(
                types: types, predicate: predicate, anchor: anchor, limit: limit ?? 0
            ) { _, samples, deleted, newAnchor, error in
                Self.yield(samples, deleted, newAnchor, error, to: continuation)
            }
            query.returnsEveryEvent = request.raw
            query.updateHandler = { _, samples, deleted, newAnchor, error in
                Self.yield(samples, deleted, newAnchor, error, to: continuation)
            }
            continuation.onTermination = { _ in store.stop(query) }
            do {
                try store.execute(query)
            } catch {
                continuation.finish(throwing: error)
            }
        }
    }

    private static func yield(
        _ samples: [any Sample]?, _ deleted: [DeletedObject]?, _ newAnchor: QueryAnchor?, _ error: (any Error)?,
        to continuation: AsyncThrowingStream<QueryResult, any Error>.Continuation
    ) {
        if let error {
            continuation.finish(throwing: error)
        } else if let newAnchor {
            continuation.yield(QueryResult(addedSamples: samples ?? [], deletedObjects: deleted ?? [], newAnchor: newAnchor))
        }
    }
}

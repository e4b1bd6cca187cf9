#if !canImport(Darwin)
internal import HealthLog

/// Queries whose types have predicates of their own: the store runs one query over all
/// the types with any of the predicates, and each type's own predicate then narrows what
/// it returned to the samples and deleted objects of that type it matches. The result's
/// anchor is the one query's anchor, so it stays one anchor over the whole store.
extension StoreSelection {
    /// The changes after `anchor`, at most `limit` (0: all), as one anchored query.
    func result(in store: HealthStore, after anchor: QueryAnchor, limit: Int) throws -> QueryResult {
        let identifiers = Set(types.map(\.identifier))
        guard perType != nil else {
            return try store.result(ReplayRequest(anchor: anchor, types: identifiers, predicate: predicate, limit: limit))
        }
        var result = QueryResult(newAnchor: anchor)
        while true {
            let wanted = limit == 0 ? 0 : limit - result.addedSamples.count - result.deletedObjects.count
            let batch = try store.result(ReplayRequest(anchor: result.newAnchor, types: identifiers, predicate: predicate, limit: wanted))
            let kept = try narrow(batch, after: result.newAnchor, in: store)
            result.addedSamples += kept.addedSamples
            result.deletedObjects += kept.deletedObjects
            let read = batch.addedSamples.count + batch.deletedObjects.count
            let moved = batch.newAnchor != result.newAnchor
            result.newAnchor = batch.newAnchor
            // A batch cut short by the limit may have lost items to the narrowing: read on
            // until the limit is filled or the store has no more.
            if limit == 0 || read < wanted || !moved || result.addedSamples.count + result.deletedObjects.count >= limit { return result }
        }
    }

    /// The items of `batch` (the changes after `anchor`) that their own type's predicate
    /// matches; `batch` itself when the types share one predicate.
    func narrow(_ batch: QueryResult, after anchor: QueryAnchor, in store: HealthStore) throws -> QueryResult {
        guard perType != nil else { return batch }
        let candidates = batch.addedSamples.map { ($0.sampleType, $0.uuid) } + batch.deletedObjects.map { ($0.sampleType, $0.uuid) }
        let kept = try matching(candidates) { type, predicate in
            let found = try store.result(ReplayRequest(anchor: anchor, types: [type.identifier], predicate: predicate))
            return found.addedSamples.map(\.uuid) + found.deletedObjects.map(\.uuid)
        }
        return QueryResult(
            addedSamples: batch.addedSamples.filter { kept.contains($0.uuid) },
            deletedObjects: batch.deletedObjects.filter { kept.contains($0.uuid) }, newAnchor: batch.newAnchor)
    }

    /// The live samples selected, in `order` (else the order they were added), at most
    /// `limit` (0: all).
    func samples(in store: HealthStore, sortedBy order: [SampleOrder], limit: Int) throws -> [any Sample] {
        guard perType != nil else { return try store.samples(types: types, predicate: predicate, sortedBy: order, limit: limit) }
        let found = try store.samples(types: types, predicate: predicate, sortedBy: order)
        let kept = try matching(found.map { ($0.sampleType, $0.uuid) }) { type, predicate in
            try store.samples(types: [type], predicate: predicate).map(\.uuid)
        }
        let samples = found.filter { kept.contains($0.uuid) }
        return limit > 0 ? Array(samples.prefix(limit)) : samples
    }

    /// The UUIDs among `candidates` that their type's own predicate matches, found with
    /// `query` (a type and a predicate that also names the candidates' UUIDs).
    private func matching(
        _ candidates: [(SampleType, SampleUUID)], query: (SampleType, QueryPredicate) throws -> [SampleUUID]
    ) throws -> Set<SampleUUID> {
        var kept = Set<SampleUUID>()
        for (type, predicate) in perType ?? [:] {
            let uuids = Set(candidates.filter { $0.0 == type }.map(\.1))
            guard !uuids.isEmpty else { continue }
            kept.formUnion(try query(type, .and([predicate, .uuids(uuids)])))
        }
        return kept
    }
}
#endif

import HealthLog

/// Brings a ``MirrorDatabase`` up to date with a store by anchored queries, one
/// transaction per result, and optionally keeps it there.
///
/// The whole protocol: read the anchor from the mirror; query what changed after it;
/// apply the result and its new anchor in one transaction; repeat. Nothing is remembered
/// between runs but what the mirror committed, so a run that was killed is resumed by
/// simply running again: it starts from the last committed anchor and re-applies at most
/// the one result whose transaction did not commit.
struct MirrorSync {
    /// The store mirrored.
    let store: HealthStore
    /// The mirror.
    let mirror: MirrorDatabase
    /// The types mirrored; empty for all.
    let types: Set<SampleType>
    /// The most samples plus deleted objects per page while catching up.
    let batchSize: Int
    /// Receives a line for each transaction committed, and for the milestones.
    let report: (String) -> Void

    /// Pages through everything after the mirror's anchor, committing each page, until a
    /// page comes back short; stops early, between pages, when the task is cancelled.
    /// Returns the anchor the mirror is then current to.
    ///
    /// Paging keeps a first sync of a large store in bounded memory. It ends on a *short*
    /// page, not on an empty array: Apple's sample code stops when either the samples or
    /// the deleted objects come back empty, so a page of only deletes (or only samples,
    /// after a burst of deletes) ends the sync too early.
    func catchUp() async throws -> QueryAnchor {
        var anchor = try mirror.anchor()
        while !Task.isCancelled {
            let descriptor = AnchoredObjectQueryDescriptor(types: types, anchor: anchor, limit: batchSize)
            let page = try await descriptor.result(for: store)
            let count = page.addedSamples.count + page.deletedObjects.count
            if count > 0 {
                try commit(page, after: anchor)
                anchor = page.newAnchor
            }
            if count < batchSize { break }
        }
        return anchor
    }

    /// Mirrors each change appended after `anchor`, by any process, as it comes, until the
    /// task is cancelled; the result in hand is committed before this returns.
    ///
    /// A long-running query hands its first result with everything after the anchor at
    /// once, unpaged: start it from the anchor ``catchUp()`` reached, so that result is
    /// small.
    func follow(after anchor: QueryAnchor) async throws {
        var anchor = anchor
        report("following \(store.directory) from anchor \(anchor.token) (SIGINT or SIGTERM stops)")
        let descriptor = AnchoredObjectQueryDescriptor(types: types, anchor: anchor)
        for try await result in descriptor.results(for: store) {
            guard !result.addedSamples.isEmpty || !result.deletedObjects.isEmpty else { continue }
            try commit(result, after: anchor)
            anchor = result.newAnchor
        }
        report("stopped at anchor \(anchor.token)")
    }

    private func commit(_ result: QueryResult, after anchor: QueryAnchor) throws {
        try mirror.apply(result, after: anchor)
        let samples = result.addedSamples.count
        let deletes = result.deletedObjects.count
        report("applied \(samples) sample\(samples == 1 ? "" : "s") and \(deletes) delete\(deletes == 1 ? "" : "s"); anchor \(result.newAnchor.token)")
    }
}

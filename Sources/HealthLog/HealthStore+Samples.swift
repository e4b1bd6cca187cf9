/// Samples sorted by date, as HealthKit's `HKSampleQuery` with sort descriptors and a limit.
extension HealthStore {
    /// The live samples of `types` (empty: every type) that `predicate` matches, sorted by
    /// `order` (its first key first; ties, and every sample without an order, in the order
    /// they were added), the first `limit` of them (0: all). Deleted samples are left out.
    ///
    /// With a limit, only the groups whose time span (in the batch headers) can hold one of
    /// the first samples are read, so the newest few of a type cost a few groups however
    /// long the log is. Routes and electrocardiograms, stored in parts, and a query for
    /// every type read all their samples.
    ///
    /// ```swift
    /// let newest = try store.samples(types: [.quantity("HeartRate")], sortedBy: [SampleOrder(.startDate, ascending: false)], limit: 10)
    /// ```
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` for a negative limit;
    ///   ``HealthLogError/Code/noStore`` when there is no store (unless
    ///   ``StoreOptions/missingStoreIsEmpty``); ``HealthLogError/Code/corrupt`` for damage.
    public func samples(types: Set<SampleType>, predicate: QueryPredicate = .all, sortedBy order: [SampleOrder] = [], limit: Int = 0) throws -> [any Sample] {
        try sortedSamples(types: types, predicate: predicate, order: order, limit: limit).samples
    }

    /// ``samples(types:predicate:sortedBy:limit:)`` and how many groups it decompressed
    /// (`nil` when it read every sample of the types).
    func sortedSamples(types: Set<SampleType>, predicate: QueryPredicate, order: [SampleOrder], limit: Int) throws -> (samples: [any Sample], groupsRead: Int?) {
        guard limit >= 0 else { throw HealthLogError(.badUsage, "limit must be 0 (no limit) or more, not \(limit)") }
        if readsAsEmpty {
            try predicate.validate()
            return ([], 0)
        }
        if !types.isEmpty, !types.contains(where: SeriesParts.isSeries) {
            var sorter = SortedSamples(snapshot: try LogSnapshot(layout), types: Set(types.map(\.identifier)), predicate: predicate, order: order, limit: limit)
            let samples = try sorter.run(location: { "\(self.directory): event \($0)" })
            return (samples, sorter.groupsRead)
        }
        let added = try result(ReplayRequest(types: Set(types.map(\.identifier)), predicate: predicate)).addedSamples
        let ranked = added.enumerated().map { place, sample in
            (ranks: order.map { $0.rank(start: sample.start.microseconds, end: sample.end.microseconds) }, place: place, sample: sample)
        }
        let sorted = ranked.sorted { a, b in
            for (x, y) in zip(a.ranks, b.ranks) where x != y { return x < y }
            return a.place < b.place
        }
        return (sorted.prefix(limit > 0 ? limit : sorted.count).map(\.sample), nil)
    }
}

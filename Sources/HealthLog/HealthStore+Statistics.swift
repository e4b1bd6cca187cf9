/// Statistics over the live samples of a type.
extension HealthStore {
    /// The per-interval statistics of `query`: HealthKit's statistics collection query.
    /// Reads only the groups of the type (and, with a date range, of the times) asked for;
    /// without a predicate, on two threads.
    ///
    /// ```swift
    /// let daily = try store.statistics(StatisticsQuery(type: .quantity("HeartRate"), interval: .day))
    /// ```
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` for options the type's aggregation style
    ///   does not take, a unit that does not fit it, or samples whose units do not convert
    ///   to the query's (never mixed); ``HealthLogError/Code/noStore`` when there is no
    ///   store; ``HealthLogError/Code/corrupt`` for damage; ``HealthLogError/Code/io`` when
    ///   the scratch file a large source merge sorts its samples in cannot be written.
    public func statistics(_ query: StatisticsQuery) throws -> [Statistics] {
        try statistics(query, residentDeletes: Replayer.defaultResidentDeletes)
    }

    /// ``statistics(_:)``, holding at most `residentDeletes` deletes of the type in memory
    /// before it checks the deleted-add index instead (tests make it small); a block of the
    /// index found damaged midway makes it scan again without the index.
    func statistics(_ query: StatisticsQuery, residentDeletes: Int) throws -> [Statistics] {
        try query.validate()
        if readsAsEmpty { return [] }
        let sealing = try scratchSealing()
        var accumulator = try StatisticsAccumulator(query, pieces: PieceRuns(sealing: sealing))
        let snapshot = try LogSnapshot(layout)
        if query.predicate.isAll {
            var scan = StatisticsScan(snapshot: snapshot, type: query.type.identifier, needsZones: accumulator.needsZones, directory: directory)
            scan.residentDeletes = residentDeletes
            do {
                try scan.run(into: &accumulator)
            } catch is StatisticsScan.IndexDamaged {
                accumulator = try StatisticsAccumulator(query, pieces: PieceRuns(sealing: sealing))
                scan.residentDeletes = .max
                try scan.run(into: &accumulator)
            }
            return try accumulator.results()
        }
        var scan = StoredLineView.SummaryReader()
        var texts = SampleTexts()
        let request = ReplayRequest(types: [query.type.identifier], predicate: query.predicate)
        _ = try Replayer(snapshot: snapshot, request: request).run { line in
            guard !line.isDelete else { return }
            guard let fields = scan.fields(line.bytes, timeZone: accumulator.needsZones) else {
                throw HealthLogError(.corrupt, "\(directory): event \(line.seq) is not shaped as a stored line")
            }
            texts.take(fields, from: scan)
            try accumulator.add(fields, texts)
        }
        return try accumulator.results()
    }
}

/// Statistics of every interval in a range, as HealthKit's `enumerateStatistics(from:to:)`.
extension HealthStore {
    /// The statistics of every interval of `query` that overlaps `[start, end)`, in order:
    /// an interval without samples as a row with a count of 0 and no figures
    /// (``StatisticsQuery/everyInterval(of:from:to:)``).
    ///
    /// ```swift
    /// let week = try store.statistics(StatisticsQuery(type: .quantity("StepCount"), interval: .day, options: .sum),
    ///                                  from: Timestamp(commandLine: "2024-03-04")!, to: Timestamp(commandLine: "2024-03-11")!)
    /// ```
    ///
    /// - Throws: as ``statistics(_:)``, and ``HealthLogError/Code/badUsage`` when `start`
    ///   is after `end`.
    public func statistics(_ query: StatisticsQuery, from start: Timestamp, to end: Timestamp) throws -> [Statistics] {
        guard start <= end else { throw HealthLogError(.badUsage, "the range's start is after its end") }
        return query.everyInterval(of: try statistics(query), from: start, to: end)
    }
}

/// Long-running statistics.
extension HealthStore {
    /// Starts `query` on a thread of its own, as HealthKit's `execute(_:)`: its initial
    /// results handler gets the statistics; its update handler, when set, the statistics
    /// recomputed after each later append or delete of samples of the type, by any process,
    /// until ``stop(_:)-(StatisticsCollectionQuery)``. Errors reach the handler that would
    /// have had the statistics.
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` for a query already executed or one
    ///   ``StatisticsQuery/validate()`` refuses.
    public func execute(_ query: StatisticsCollectionQuery) throws {
        try query.query.validate()
        let (update, stop) = try query.begin()
        let layout = self.layout
        OSThread.detach {
            var isFirst = true
            do {
                let anchor = self.exists ? try self.headAnchor() : QueryAnchor.beginning
                query.initialResultsHandler(query, try self.statistics(query.query), nil)
                isFirst = false
                guard let update else { return }
                var changed = false
                let request = ReplayRequest(anchor: anchor, types: [query.query.type.identifier])
                _ = try Follower(layout: layout, request: request, missingIsEmpty: self.options.missingStoreIsEmpty).run(
                    until: stop,
                    deliver: { _ in changed = true },
                    afterBatch: { _ in
                        guard changed else { return }
                        changed = false
                        update(query, try self.statistics(query.query), nil)
                    })
            } catch {
                (isFirst ? query.initialResultsHandler : update ?? query.initialResultsHandler)(query, nil, error)
            }
        }
    }

    /// Stops a running statistics query, as HealthKit's `stop(_:)`. Stopping a query that
    /// is not running does nothing.
    public func stop(_ query: StatisticsCollectionQuery) {
        query.end()
    }
}

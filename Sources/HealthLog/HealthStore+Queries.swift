/// The HealthKit-shaped part of the API: saving and deleting samples, and running
/// anchored queries once or for as long as they are wanted.
extension HealthStore {
    /// Saves `samples` in one all-or-nothing append, as HealthKit's `save(_:)`; a correlation's
    /// members must be saved in the same call. A route or electrocardiogram longer than one
    /// part is stored in linked parts. Returns the new head anchor.
    ///
    /// ```swift
    /// let anchor = try store.save([QuantitySample(type: .quantity("StepCount"), quantity: Quantity(120, "count"),
    ///                                             fields: SampleFields(start: .now()))])
    /// ```
    ///
    /// - Throws: ``HealthLogError/Code/badInput`` naming the sample (as `sample N`, its
    ///   position from 1) and field, for instance for a UUID already used in the store.
    @discardableResult
    public func save(_ samples: [any Sample]) throws -> QueryAnchor {
        try append(samples).anchor
    }

    /// ``save(_:)`` with the whole summary: what the command-line tool's `add` reports
    /// (the UUID added, or a sync-identifier replacement or skip, and any torn tail cut).
    package func append(_ samples: [any Sample]) throws -> AppendSummary {
        // A long route or electrocardiogram is stored in parts (SeriesParts): each head in
        // its sample's place, so errors name the samples as given, the later parts after all.
        let split = samples.map(SeriesParts.parts(of:))
        let text = (split.map { $0[0] } + split.flatMap { $0.dropFirst() }).map { SampleEncoder.addLine($0) + "\n" }.joined()
        return try append(ndjson: Array(text.utf8), item: "sample")
    }

    /// Deletes the live samples with `uuids` in one all-or-nothing append; each becomes a
    /// deleted object for anchored queries. A series stored in parts is
    /// deleted whole: its head's UUID deletes every live part. Returns the new head anchor.
    ///
    /// - Throws: ``HealthLogError/Code/badInput`` for an empty list, or naming a UUID that
    ///   is not live (as `UUID N`, its position from 1).
    @discardableResult
    public func delete(_ uuids: [SampleUUID]) throws -> QueryAnchor {
        try append(deleting: uuids).anchor
    }

    /// ``delete(_:)-([SampleUUID])`` with the whole summary, for the command-line tool.
    package func append(deleting uuids: [SampleUUID]) throws -> AppendSummary {
        guard !uuids.isEmpty else { throw HealthLogError(.badInput, "nothing to delete: the list of samples is empty") }
        let text = try withSeriesParts(uuids).map { SampleEncoder.deleteLine($0) + "\n" }.joined()
        return try append(ndjson: Array(text.utf8), item: "UUID")
    }

    /// `uuids`, then the live parts after the head of each series among them, so a delete
    /// takes a series whole; the given UUIDs keep their places, for the errors that name
    /// them. Parts are found by their derived UUIDs in the UUID index, or, when the index
    /// cannot answer, by reading the series types' lines.
    private func withSeriesParts(_ uuids: [SampleUUID]) throws -> [SampleUUID] {
        guard layout.exists else { return uuids }
        var seen = Set(uuids)
        var parts: [SampleUUID] = []
        func take(_ part: SampleUUID) {
            if seen.insert(part).inserted { parts.append(part) }
        }
        if let used = try usedUUIDs() {
            for uuid in uuids {
                var index = 1
                scan: while true {
                    let part = SeriesParts.partUUID(series: uuid, index: index)
                    switch used.state(of: part) {
                    case .live: take(part)
                    case .deleted: break
                    case .unused: break scan
                    case .unknown: return try withSeriesPartsRead(uuids)
                    }
                    index += 1
                }
            }
            return uuids + parts
        }
        return try withSeriesPartsRead(uuids)
    }

    /// ``withSeriesParts(_:)`` found by reading every live line of the series types.
    private func withSeriesPartsRead(_ uuids: [SampleUUID]) throws -> [SampleUUID] {
        let heads = Set(uuids)
        var seen = heads
        var parts: [SampleUUID] = []
        let types: Set<String> = [WorkoutRouteSample.type.identifier, ElectrocardiogramSample.type.identifier]
        _ = try export(ReplayRequest(types: types)) { line in
            let body = UnsafeRawBufferPointer(rebasing: line[0..<(line.last == 10 ? line.count - 1 : line.count)])
            let seq = StoredLinePrefix.sequenceNumber(body)?.seq ?? 0
            let record = try EventRecord(line: body, seq: seq, location: "\(self.directory): event \(seq)")
            if let series = SeriesParts.place(in: record.metadataDictionary)?.series, heads.contains(series), seen.insert(record.uuid).inserted {
                parts.append(record.uuid)
            }
        }
        return uuids + parts
    }

    /// Appends lines built from values, naming a bad one `ITEM N` in the error.
    private func append(ndjson: [UInt8], item: String) throws -> AppendSummary {
        try AppendSession(layout, options: options, item: item).run([LineReader(bytes: ndjson)])
    }

    /// Deletes `samples` (by UUID); see ``delete(_:)-([SampleUUID])``.
    @discardableResult
    public func delete(_ samples: [any Sample]) throws -> QueryAnchor {
        try delete(samples.map(\.uuid))
    }

    /// Runs an anchored query once and returns its samples and deleted objects, decoded.
    ///
    /// - Throws: as ``replay(_:deliver:)``.
    package func result(_ request: ReplayRequest) throws -> QueryResult {
        var result = QueryResult(newAnchor: request.anchor)
        if readsAsEmpty {
            guard request.limit >= 0 else { throw HealthLogError(.badUsage, "limit must be 0 (no limit) or more, not \(request.limit)") }
            try request.predicate.validate()
            return result
        }
        // A page's samples fill the array the limit sizes, without copies as it grows.
        if request.limit > 0 { result.addedSamples.reserveCapacity(min(request.limit, 1 << 16)) }
        var memo = RecordMemo()
        let outcome = try Replayer(snapshot: try LogSnapshot(layout), request: request).run { line in
            try result.collect(line, memo: &memo, location: "\(self.directory): event \(line.seq)")
        }
        result.newAnchor = outcome.newAnchor
        return result
    }

    /// Delivers the stored line of every sample live now that `request` selects (its
    /// anchor, limit and raw flag are ignored), in the order they were added: a snapshot
    /// of the store, not its history.
    ///
    /// - Returns: how many samples were delivered.
    package func export(_ request: ReplayRequest, deliver: (UnsafeRawBufferPointer) throws -> Void) throws -> Int {
        var live = request
        live.anchor = .beginning
        live.limit = 0
        live.raw = false
        var count = 0
        _ = try Replayer(snapshot: try LogSnapshot(layout), request: live).run { line in
            guard !line.isDelete else { return }
            count += 1
            try deliver(line.bytes)
        }
        return count
    }

    /// Runs a long-running anchored query: delivers every stored line
    /// after the request's anchor that matches it, then each later one as any process
    /// appends it, until `stop` is signalled. After the first pass, and after each later
    /// batch that delivered something, `afterBatch` gets the outcome (its anchor is the
    /// place to resume from once the delivered lines are safely stored).
    ///
    /// ```swift
    /// let stop = try StopSignal()
    /// let last = try store.follow(ReplayRequest(anchor: saved), until: stop,
    ///                             deliver: { line in write(line) },
    ///                             afterBatch: { outcome in persist(outcome.newAnchor) })
    /// ```
    ///
    /// - Returns: the anchor of the last item delivered, or the request's anchor.
    /// - Throws: ``HealthLogError/Code/badUsage`` for a request with a limit; otherwise as
    ///   ``replay(_:deliver:)``.
    package func follow(
        _ request: ReplayRequest, until stop: StopSignal, deliver: (UnsafeRawBufferPointer) throws -> Void,
        afterBatch: (ReplayOutcome) throws -> Void
    ) throws -> QueryAnchor {
        try Follower(layout: layout, request: request, missingIsEmpty: options.missingStoreIsEmpty).run(until: stop, deliver: { try deliver($0.bytes) }, afterBatch: afterBatch)
    }

    /// Starts `query` on a thread of its own, as HealthKit's `execute(_:)`: its results
    /// handler gets the first results; its update handler, when set, every later change
    /// until ``stop(_:)-(AnchoredObjectQuery)``. Errors reach the handler that would have had the results.
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` for a query already executed, a negative
    ///   limit, or a limit together with an update handler.
    public func execute(_ query: AnchoredObjectQuery) throws {
        let (update, stop) = try query.begin()
        let request = query.request
        let layout = self.layout
        let directory = self.directory
        let missingIsEmpty = options.missingStoreIsEmpty
        OSThread.detach {
            var isFirst = true
            do {
                guard let update else {
                    let result = try self.result(request)
                    query.resultsHandler(query, result.addedSamples, result.deletedObjects, result.newAnchor, nil)
                    return
                }
                var batch = QueryResult(newAnchor: request.anchor)
                var memo = RecordMemo()
                _ = try Follower(layout: layout, request: request, missingIsEmpty: missingIsEmpty).run(
                    until: stop,
                    deliver: { line in try batch.collect(line, memo: &memo, location: "\(directory): event \(line.seq)") },
                    afterBatch: { outcome in
                        let handler = isFirst ? query.resultsHandler : update
                        isFirst = false
                        handler(query, batch.addedSamples, batch.deletedObjects, outcome.newAnchor, nil)
                        batch = QueryResult(newAnchor: outcome.newAnchor)
                    })
            } catch {
                (isFirst ? query.resultsHandler : update ?? query.resultsHandler)(query, nil, nil, nil, error)
            }
        }
    }

    /// Stops a running query, as HealthKit's `stop(_:)`: it delivers no more changes once
    /// the batch in hand is delivered. Stopping a query that is not running does nothing.
    public func stop(_ query: AnchoredObjectQuery) {
        query.end()
    }
}

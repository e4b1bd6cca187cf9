/// What one compaction drops: every delete at or before the horizon and the add of the
/// sample each deleted, found through the UUID index, and the segments holding them.
struct CompactionPlan {
    /// The dropped events.
    private(set) var dropped = DroppedEvents()
    /// How many of them are deletes.
    private(set) var deleteCount = 0
    /// The indexes (in the snapshot's segments) of the segments holding a dropped event,
    /// ascending.
    private(set) var segments: [Int] = []

    /// Plans the compaction of `snapshot` (the writer's, under its lock) up to `horizonSeq`;
    /// `spans` are its batches' (``LogSnapshot/batchSpans()``). The dropped events past
    /// `residentKeys` go to sealed scratch files (``DroppedEvents``), and the deletes' adds
    /// are looked up `residentKeys / 2` deletes at a time.
    ///
    /// - Throws: ``HealthLogError/Code/corrupt`` when the UUID index names no add for a
    ///   deleted sample, or a frame is damaged; ``HealthLogError/Code/io`` when a scratch
    ///   file cannot be written or read.
    init(_ snapshot: LogSnapshot, horizonSeq: UInt64, spans: [LogSnapshot.BatchSpan], residentKeys: Int) throws {
        let runs = try UUIDRunSet(snapshot.layout, snapshot: snapshot, cipher: snapshot.cipher)
        let events = DroppedEvents.Builder(sealing: snapshot.cipher == nil ? nil : try ScratchCipher.forProcess(), residentKeys: residentKeys)
        var lines = BatchLines()
        // The deletes first, then their adds looked up together, so the lookups read the
        // log's batches in order (``UUIDRunSet/lookup(all:)``), a bounded number at a time.
        // The segments are read one at a time, each batch table let go once read.
        let lookupDeletes = max(1, residentKeys / 2)
        var deletes: [(uuid: SampleUUID, seq: UInt64)] = []
        deletes.reserveCapacity(lookupDeletes)
        var deleteCount = 0
        func lookUpAdds() throws {
            let found = try runs.lookup(all: deletes.map(\.uuid), known: deletes.map(\.seq))
            for (delete, found) in zip(deletes, found) {
                guard let found, found.addSeq != 0 else {
                    throw Self.unknownDelete(snapshot, spans.first { $0.lastSeq >= delete.seq } ?? spans[spans.count - 1], delete.seq)
                }
                try events.add(DroppedEvents.Event(seq: delete.seq, isDelete: true))
                try events.add(DroppedEvents.Event(seq: found.addSeq, isDelete: false))
                deleteCount += 1
            }
            deletes.removeAll(keepingCapacity: true)
        }
        for segment in snapshot.segments.indices {
            defer { snapshot.releaseBatches(inSegment: segment) }
            for batch in try snapshot.batches(inSegment: segment) where batch.header.firstSeq <= horizonSeq {
                let groups = batch.header.groups.indices.filter { batch.header.groups[$0].isDelete && batch.header.groups[$0].firstSeq <= horizonSeq }
                if groups.isEmpty { continue }
                try lines.load(snapshot, batch, groups: groups)
                try lines.withBytes { raw in
                    for line in lines.lines where line.seq <= horizonSeq {
                        guard let uuid = BatchLines.uuid(of: line, in: raw) else { throw Self.unknownDelete(snapshot, LogSnapshot.BatchSpan(batch), line.seq) }
                        deletes.append((uuid, line.seq))
                    }
                }
                if deletes.count >= lookupDeletes { try lookUpAdds() }
            }
        }
        try lookUpAdds()
        self.deleteCount = deleteCount
        (dropped, segments) = try events.finish(spans: spans)
    }

    /// The error for delete `seq` of `batch` whose sample the UUID index does not know.
    private static func unknownDelete(_ snapshot: LogSnapshot, _ batch: LogSnapshot.BatchSpan, _ seq: UInt64) -> HealthLogError {
        HealthLogError(
            .corrupt, "\(snapshot.segments[batch.segment].location(batch.offset)): delete \(seq) names no sample the UUID index knows: run 'healthlog reindex'")
    }
}

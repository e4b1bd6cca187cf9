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
    /// `spans` are its batches' (``LogSnapshot/batchSpans()``).
    ///
    /// - Throws: ``HealthLogError/Code/corrupt`` when the UUID index names no add for a
    ///   deleted sample, or a frame is damaged.
    init(_ snapshot: LogSnapshot, horizonSeq: UInt64, spans: [LogSnapshot.BatchSpan]) throws {
        let runs = try UUIDRunSet(snapshot.layout, snapshot: snapshot, cipher: snapshot.cipher)
        var lines = BatchLines()
        // The deletes first, then their adds looked up together, so the lookups read the
        // log's batches in order (``UUIDRunSet/lookup(all:)``). The segments are read one at
        // a time, each batch table let go once read.
        var deletes: [(uuid: SampleUUID, seq: UInt64)] = []
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
            }
        }
        let found = try runs.lookup(all: deletes.map(\.uuid))
        // Room for every dropped event at once: an array that grows holds its old buffer beside the new.
        var events: [BatchHeader.Dropped] = []
        events.reserveCapacity(2 * deletes.count)
        for (delete, found) in zip(deletes, found) {
            guard let found, found.addSeq != 0 else {
                throw Self.unknownDelete(snapshot, spans.first { $0.lastSeq >= delete.seq } ?? spans[spans.count - 1], delete.seq)
            }
            events.append(BatchHeader.Dropped(seq: delete.seq, isDelete: true, uuid: delete.uuid))
            events.append(BatchHeader.Dropped(seq: found.addSeq, isDelete: false, uuid: delete.uuid))
            deleteCount += 1
        }
        deletes = []
        dropped = DroppedEvents(sorting: &events)
        for span in spans where !dropped.within(span.firstSeq...span.lastSeq).isEmpty && segments.last != span.segment {
            segments.append(span.segment)
        }
    }

    /// The error for delete `seq` of `batch` whose sample the UUID index does not know.
    private static func unknownDelete(_ snapshot: LogSnapshot, _ batch: LogSnapshot.BatchSpan, _ seq: UInt64) -> HealthLogError {
        HealthLogError(
            .corrupt, "\(snapshot.segments[batch.segment].location(batch.offset)): delete \(seq) names no sample the UUID index knows: run 'healthlog reindex'")
    }
}

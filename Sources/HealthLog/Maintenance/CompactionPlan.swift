/// What one compaction drops: every delete at or before the horizon and the add of the
/// sample each deleted, found through the UUID index, and the segments holding them.
struct CompactionPlan {
    /// The dropped events by sequence number.
    private(set) var dropped: [UInt64: BatchHeader.Dropped] = [:]
    /// How many of them are deletes.
    private(set) var deleteCount = 0
    /// The indexes (in the snapshot's segments) of the segments holding a dropped event,
    /// ascending.
    private(set) var segments: [Int] = []

    /// Plans the compaction of `snapshot` (the writer's, under its lock) up to `horizonSeq`.
    ///
    /// - Throws: ``HealthLogError/Code/corrupt`` when the UUID index names no add for a
    ///   deleted sample, or a frame is damaged.
    init(_ snapshot: LogSnapshot, horizonSeq: UInt64) throws {
        let runs = try UUIDRunSet(snapshot.layout, snapshot: snapshot)
        var lines = BatchLines()
        let batches = try snapshot.allBatches()
        for batch in batches where batch.header.firstSeq <= horizonSeq {
            let groups = batch.header.groups.indices.filter { batch.header.groups[$0].isDelete && batch.header.groups[$0].firstSeq <= horizonSeq }
            if groups.isEmpty { continue }
            try lines.load(snapshot, batch, groups: groups)
            try lines.withBytes { raw in
                for line in lines.lines where line.seq <= horizonSeq {
                    guard let uuid = BatchLines.uuid(of: line, in: raw), let found = try runs.lookup(uuid), found.addSeq != 0 else {
                        throw HealthLogError(.corrupt, "\(snapshot.segments[batch.segment].location(batch.offset)): delete \(line.seq) names no sample the UUID index knows: run 'healthlog reindex'")
                    }
                    dropped[line.seq] = BatchHeader.Dropped(seq: line.seq, isDelete: true, uuid: uuid)
                    dropped[found.addSeq] = BatchHeader.Dropped(seq: found.addSeq, isDelete: false, uuid: uuid)
                    deleteCount += 1
                }
            }
        }
        guard !dropped.isEmpty else { return }
        let seqs = dropped.keys.sorted()
        var k = 0
        for batch in batches {
            while k < seqs.count, seqs[k] < batch.header.firstSeq { k += 1 }
            guard k < seqs.count else { break }
            if seqs[k] <= batch.header.lastSeq, segments.last != batch.segment { segments.append(batch.segment) }
        }
    }
}

/// Finds committed events by sequence number: the batch through the snapshot's batch
/// tables, whose add groups are read together and kept, since deletes of old samples often
/// come in runs from the same batch (an import's `--mirror` deletes thousands in a row).
/// A group's sequence range overlaps other groups' (lines are grouped by type), so reading
/// one group at a time could read several per lookup.
struct StoredEvents {
    let snapshot: LogSnapshot
    private var lines = BatchLines()
    /// The first sequence number of the batch whose add groups are loaded.
    private var loadedBatch: UInt64?

    init(_ snapshot: LogSnapshot) {
        self.snapshot = snapshot
    }

    /// The stored line (without newline) of the add event `seq`, or `nil` if there is none.
    mutating func addLine(seq: UInt64) throws -> [UInt8]? {
        guard let batch = try snapshot.batch(containing: seq) else { return nil }
        if loadedBatch != batch.header.firstSeq {
            let groups = batch.header.groups.indices.filter { !batch.header.groups[$0].isDelete }
            try lines.load(snapshot, batch, groups: groups)
            loadedBatch = batch.header.firstSeq
        }
        let all = lines.lines
        var lo = 0
        var hi = all.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if all[mid].seq < seq { lo = mid + 1 } else { hi = mid }
        }
        guard lo < all.count, all[lo].seq == seq, !all[lo].isDelete else { return nil }
        let line = all[lo]
        return lines.withBytes { Array($0[line.start..<line.end - 1]) }
    }
}

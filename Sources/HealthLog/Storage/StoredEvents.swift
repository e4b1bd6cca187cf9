/// Finds committed events by sequence number: the batch through the snapshot's batch
/// tables, then the group frame whose range holds it (the last group read is kept, as
/// deletes of old samples often come in runs).
struct StoredEvents {
    let snapshot: LogSnapshot
    private var lines = BatchLines()
    /// The group last read: its batch's first sequence number and its index.
    private var loaded: (batch: UInt64, group: Int)?

    init(_ snapshot: LogSnapshot) {
        self.snapshot = snapshot
    }

    /// The stored line (without newline) of the add event `seq`, or `nil` if there is none.
    mutating func addLine(seq: UInt64) throws -> [UInt8]? {
        guard let batch = try snapshot.batch(containing: seq) else { return nil }
        for (g, group) in batch.header.groups.enumerated() where !group.isDelete && group.firstSeq <= seq && seq <= group.lastSeq {
            if loaded == nil || loaded! != (batch.header.firstSeq, g) {
                try lines.load(snapshot, batch, groups: [g])
                loaded = (batch.header.firstSeq, g)
            }
            let all = lines.lines
            var lo = 0
            var hi = all.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if all[mid].seq < seq { lo = mid + 1 } else { hi = mid }
            }
            if lo < all.count, all[lo].seq == seq {
                let line = all[lo]
                return lines.withBytes { Array($0[line.start..<line.end - 1]) }
            }
        }
        return nil
    }
}

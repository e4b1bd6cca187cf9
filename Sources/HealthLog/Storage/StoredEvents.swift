/// Finds committed events by sequence number: the batch by binary search on the batch
/// table, then the one group frame whose range holds it (the last group read is kept, as
/// deletes of old samples often come in runs).
struct StoredEvents {
    let snapshot: LogSnapshot
    private var lines = BatchLines()
    private var loaded: (batch: Int, group: Int)?

    init(_ snapshot: LogSnapshot) {
        self.snapshot = snapshot
    }

    /// The stored line (without newline) of the add event `seq`, or `nil` if there is none.
    mutating func addLine(seq: UInt64) throws -> [UInt8]? {
        let batches = snapshot.batches
        var low = 0
        var high = batches.count
        while low < high {
            let mid = (low + high) / 2
            if batches[mid].header.lastSeq < seq { low = mid + 1 } else { high = mid }
        }
        guard low < batches.count, batches[low].header.firstSeq <= seq else { return nil }
        let batch = batches[low]
        for (g, group) in batch.header.groups.enumerated() where !group.isDelete && group.firstSeq <= seq && seq <= group.lastSeq {
            if loaded == nil || loaded! != (low, g) {
                try lines.load(snapshot, batch, groups: [g])
                loaded = (low, g)
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

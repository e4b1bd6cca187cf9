/// The entries of the 32-byte ``UUIDRun`` (the append's scratch runs): events folded into
/// entries, kept under ``UUIDRunSet`` where the append's code names them.
extension UUIDRunSet {
    /// Sorts `(uuid, seq, isDelete)` by UUID and folds each UUID's add and delete into one
    /// entry. Each event becomes an entry as it is spread (in order) into 2¹⁶ buckets by its
    /// UUID's top 16 bits, which random UUIDs fill evenly; each bucket is then sorted and
    /// its entries of one UUID folded, in place — a few passes instead of a comparison
    /// sort's log₂(n), and one array of the events' size beside them, not two. Small inputs
    /// are simply sorted. A UUID has at most one add and one delete, so folding keeps the
    /// nonzero number of each.
    static func combine(_ events: [(uuid: SampleUUID, seq: UInt64, isDelete: Bool)]) -> [UUIDRun.Entry] {
        func entry(_ event: (uuid: SampleUUID, seq: UInt64, isDelete: Bool)) -> UUIDRun.Entry {
            UUIDRun.Entry(uuid: event.uuid, addSeq: event.isDelete ? 0 : event.seq, deleteSeq: event.isDelete ? event.seq : 0)
        }
        var out: [UUIDRun.Entry]
        if events.count > 4096 {
            var starts = [Int](repeating: 0, count: (1 << 16) + 1)
            for event in events { starts[Int(event.uuid.high >> 48) + 1] += 1 }
            for bucket in 1..<starts.count { starts[bucket] += starts[bucket - 1] }
            var next = starts
            out = [UUIDRun.Entry](repeating: UUIDRun.Entry(uuid: SampleUUID(high: 0, low: 0), addSeq: 0, deleteSeq: 0), count: events.count)
            out.withUnsafeMutableBufferPointer { out in
                for event in events {
                    let bucket = Int(event.uuid.high >> 48)
                    out[next[bucket]] = entry(event)
                    next[bucket] += 1
                }
                for bucket in 0..<(1 << 16) where starts[bucket + 1] - starts[bucket] > 1 {
                    out[starts[bucket]..<starts[bucket + 1]].sort { $0.uuid < $1.uuid }
                }
            }
        } else {
            out = events.map(entry)
            out.sort { $0.uuid < $1.uuid }
        }
        var kept = 0
        for i in out.indices {
            if kept > 0, out[kept - 1].uuid == out[i].uuid {
                out[kept - 1].addSeq = max(out[kept - 1].addSeq, out[i].addSeq)
                out[kept - 1].deleteSeq = max(out[kept - 1].deleteSeq, out[i].deleteSeq)
            } else {
                out[kept] = out[i]
                kept += 1
            }
        }
        out.removeLast(out.count - kept)
        return out
    }
}

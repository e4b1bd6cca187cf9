/// The entries of the 32-byte ``UUIDRun`` (the append's scratch runs): events folded into
/// entries, kept under ``UUIDRunSet`` where the append's code names them.
extension UUIDRunSet {
    /// Sorts `(uuid, seq, isDelete)` by UUID (``BucketSort``, by the UUIDs' top bits, which
    /// random UUIDs spread evenly) into `out`, reusing its storage, and folds each UUID's add
    /// and delete into one entry, in place. A UUID has at most one add and one delete, so
    /// folding keeps the nonzero number of each.
    static func combine(_ events: [(uuid: SampleUUID, seq: UInt64, isDelete: Bool)], into out: inout [UUIDRun.Entry]) {
        events.withUnsafeBufferPointer { events in
            BucketSort.sort(
                events, into: &out, bucket: { event, bits in Int(event.uuid.high >> UInt64(64 - bits)) },
                transform: { UUIDRun.Entry(uuid: $0.uuid, addSeq: $0.isDelete ? 0 : $0.seq, deleteSeq: $0.isDelete ? $0.seq : 0) },
                by: { $0.uuid < $1.uuid })
        }
        var kept = 0
        out.withUnsafeMutableBufferPointer { out in
            for i in out.indices {
                if kept > 0, out[kept - 1].uuid == out[i].uuid {
                    out[kept - 1].addSeq = max(out[kept - 1].addSeq, out[i].addSeq)
                    out[kept - 1].deleteSeq = max(out[kept - 1].deleteSeq, out[i].deleteSeq)
                } else {
                    out[kept] = out[i]
                    kept += 1
                }
            }
        }
        out.removeLast(out.count - kept)
    }
}

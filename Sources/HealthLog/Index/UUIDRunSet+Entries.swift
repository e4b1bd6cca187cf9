/// The entries of the 32-byte ``UUIDRun`` (the append's scratch runs, and runs built to
/// be converted into the store's ``UUIDFingerprintRun``s): events folded into entries and
/// entry lists merged, kept under ``UUIDRunSet`` where the append's code names them.
extension UUIDRunSet {
    /// Sorts `(uuid, seq, isDelete)` by UUID and folds each UUID's add and delete into one entry.
    static func combine(_ events: [(uuid: SampleUUID, seq: UInt64, isDelete: Bool)]) -> [UUIDRun.Entry] {
        let sorted = sortedByUUID(events)
        var out: [UUIDRun.Entry] = []
        out.reserveCapacity(sorted.count)
        for event in sorted {
            if out.last?.uuid != event.uuid { out.append(UUIDRun.Entry(uuid: event.uuid, addSeq: 0, deleteSeq: 0)) }
            if event.isDelete { out[out.count - 1].deleteSeq = event.seq } else { out[out.count - 1].addSeq = event.seq }
        }
        return out
    }

    /// `events` sorted by UUID, those of one UUID in their order: spread (in order) into
    /// 2¹⁶ buckets by the UUID's top 16 bits, which random UUIDs fill evenly, then each
    /// bucket sorted — a few passes over the events instead of a comparison sort's
    /// log₂(n). Small inputs are simply sorted.
    private static func sortedByUUID(_ events: [(uuid: SampleUUID, seq: UInt64, isDelete: Bool)]) -> [(uuid: SampleUUID, seq: UInt64, isDelete: Bool)] {
        guard events.count > 4096 else { return events.sorted { $0.uuid < $1.uuid } }
        var starts = [Int](repeating: 0, count: (1 << 16) + 1)
        for event in events { starts[Int(event.uuid.high >> 48) + 1] += 1 }
        for bucket in 1..<starts.count { starts[bucket] += starts[bucket - 1] }
        var next = starts
        var out = events
        for event in events {
            let bucket = Int(event.uuid.high >> 48)
            out[next[bucket]] = event
            next[bucket] += 1
        }
        for bucket in 0..<(1 << 16) where starts[bucket + 1] - starts[bucket] > 1 {
            out[starts[bucket]..<starts[bucket + 1]].sort { $0.uuid < $1.uuid }
        }
        return out
    }

    /// Merges two sorted entry lists, folding a UUID present in both.
    static func merge(_ a: [UUIDRun.Entry], _ b: [UUIDRun.Entry]) -> [UUIDRun.Entry] {
        var out: [UUIDRun.Entry] = []
        out.reserveCapacity(a.count + b.count)
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            if j == b.count || (i < a.count && a[i].uuid < b[j].uuid) {
                out.append(a[i])
                i += 1
            } else if i == a.count || b[j].uuid < a[i].uuid {
                out.append(b[j])
                j += 1
            } else {
                out.append(UUIDRun.Entry(uuid: a[i].uuid, addSeq: max(a[i].addSeq, b[j].addSeq), deleteSeq: max(a[i].deleteSeq, b[j].deleteSeq)))
                i += 1
                j += 1
            }
        }
        return out
    }
}

/// The entries of the 32-byte ``UUIDRun`` (the append's scratch runs): events folded into
/// entries, kept under ``UUIDRunSet`` where the append's code names them.
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
}

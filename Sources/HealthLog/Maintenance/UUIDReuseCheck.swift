/// `verify`'s check that no UUID is added twice in the log (writers refuse a UUID that was
/// ever used, so two adds of one UUID mean the log was written past a wrong index).
///
/// The walk gives it every add, stored or dropped by compaction; it keeps the add's
/// ``UUIDFingerprint`` and its place (8 bytes) and its sequence number (8 bytes). At the
/// end the fingerprints are sorted, and only the adds that share one with another add are
/// read again from the log to compare full UUIDs (a few thousand at ten million adds), so
/// each UUID added twice is reported with both sequence numbers.
final class UUIDReuseCheck {
    /// Per add: its fingerprint << 32 | its place in ``seqs``.
    private var keys: [UInt64] = []
    /// Per add: its sequence number.
    private var seqs: [UInt64] = []

    /// Gives the add `seq` of `uuid` (in sequence order).
    func add(_ uuid: SampleUUID, seq: UInt64) {
        precondition(seqs.count < 1 << 32, "an add's place fits 32 bits")
        keys.append(UInt64(UUIDFingerprint.of(uuid)) << 32 | UInt64(seqs.count))
        seqs.append(seq)
    }

    /// Reports each add whose UUID an earlier add of `batches` (the log of `snapshot`) added
    /// already, at the later add's batch.
    func finish(_ snapshot: LogSnapshot, _ batches: [BatchRef], _ report: inout VerifyReport) throws {
        keys.sort()
        var candidates: [UInt64] = []
        var start = 0
        while start < keys.count {
            var end = start + 1
            while end < keys.count, keys[end] >> 32 == keys[start] >> 32 { end += 1 }
            if end - start > 1 { for k in start..<end { candidates.append(seqs[Int(keys[k] & 0xFFFF_FFFF)]) } }
            start = end
        }
        guard !candidates.isEmpty else { return }
        candidates.sort()
        var adds: [SampleUUID: [(seq: UInt64, batch: BatchRef)]] = [:]
        var lines = BatchLines()
        var next = 0
        for batch in batches where next < candidates.count {
            while next < candidates.count, candidates[next] < batch.header.firstSeq { next += 1 }
            guard next < candidates.count, candidates[next] <= batch.header.lastSeq else { continue }
            try lines.load(snapshot, batch, groups: Array(batch.header.groups.indices))
            try lines.withBytes { raw in
                for event in lines.uuidEvents(batch.header, in: raw) where !event.isDelete {
                    while next < candidates.count, candidates[next] < event.seq { next += 1 }
                    guard next < candidates.count, candidates[next] == event.seq else { continue }
                    guard let uuid = event.uuid else { throw snapshot.unreadableEvent(event.seq, in: batch) }
                    adds[uuid, default: []].append((event.seq, batch))
                }
            }
        }
        for (uuid, found) in adds.sorted(by: { $0.value[0].seq < $1.value[0].seq }) where found.count > 1 {
            for later in found.dropFirst() {
                report.problems.append(
                    "\(snapshot.segments[later.batch.segment].location(later.batch.offset)): event \(later.seq) adds UUID \(uuid), which event \(found[0].seq) added already")
            }
        }
    }
}

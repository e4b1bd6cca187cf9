/// The events of the log as the fingerprint UUID index confirms them: which events in a
/// stretch of sequence numbers add or delete a given UUID, read from the batches holding
/// the stretch (their lines and the events `compact` dropped from them,
/// ``BatchLines/uuidEvents(_:in:)``).
///
/// Each batch read is kept decoded, its UUIDs sorted, for the ``cachedBatches`` batches
/// read last, so lookups that come in log order (a re-import of an export, a run of
/// deletes from one import) read each batch once, not once a lookup. The batch table is
/// loaded at the first read. One thread at a time.
final class LoggedUUIDs {
    /// One batch's events sorted by UUID, then sequence number.
    private final class Decoded {
        /// The UUIDs, sorted.
        let uuids: [SampleUUID]
        /// Beside each UUID: its event's sequence number shifted left by one, 1 for a delete.
        let events: [UInt64]

        init(uuids: [SampleUUID], events: [UInt64]) {
            self.uuids = uuids
            self.events = events
        }
    }

    /// How many decoded batches are kept: with 2,048 events a batch, about 3 MB.
    static let cachedBatches = 64

    /// The log read.
    let snapshot: LogSnapshot
    /// The committed batches, loaded at the first read.
    private var batches: [BatchRef] = []
    /// Whether ``batches`` was loaded.
    private var isLoaded = false
    /// The batch decoded last and its index, looked at before the cache.
    private var last: (index: Int, batch: Decoded)?
    /// Decoded batches by their index in ``batches``.
    private var decoded: [Int: Decoded] = [:]
    /// The indexes of the decoded batches, the one read longest ago first.
    private var age: [Int] = []
    /// The buffer batches are read into.
    private var lines = BatchLines()

    /// Reads of `snapshot`'s log.
    init(_ snapshot: LogSnapshot) {
        self.snapshot = snapshot
    }

    /// The largest add and delete sequence numbers (0 when none) among the events in `seqs`
    /// whose UUID is `uuid`.
    ///
    /// - Throws: ``HealthLogError/Code/corrupt`` with the location when a batch is damaged
    ///   or holds a line whose UUID is unreadable.
    func events(of uuid: SampleUUID, in seqs: ClosedRange<UInt64>) throws -> (addSeq: UInt64, deleteSeq: UInt64) {
        var index = try batchOrder(of: seqs.lowerBound)
        var found: (addSeq: UInt64, deleteSeq: UInt64) = (0, 0)
        while index < batches.count, batches[index].header.firstSeq <= seqs.upperBound {
            let batch = try decode(index)
            var at = Self.firstIndex(of: uuid, in: batch.uuids)
            while at < batch.uuids.count, batch.uuids[at] == uuid {
                let seq = batch.events[at] >> 1
                if seqs.contains(seq) {
                    if batch.events[at] & 1 == 1 { found.deleteSeq = max(found.deleteSeq, seq) } else { found.addSeq = max(found.addSeq, seq) }
                }
                at += 1
            }
            index += 1
        }
        return found
    }

    /// The position in the log of the batch holding `seq` (or of the first after it):
    /// lookups sorted by it read the log in order.
    func batchOrder(of seq: UInt64) throws -> Int {
        if !isLoaded {
            batches = try snapshot.allBatches()
            isLoaded = true
        }
        var low = 0
        var high = batches.count
        while low < high {
            let mid = (low + high) / 2
            if batches[mid].header.lastSeq < seq { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The first position in `sorted` holding `uuid` or a larger UUID.
    private static func firstIndex(of uuid: SampleUUID, in sorted: [SampleUUID]) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] < uuid { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Batch `index` of ``batches`` decoded, from the cache or the log.
    private func decode(_ index: Int) throws -> Decoded {
        if let last, last.index == index { return last.batch }
        if let kept = decoded[index] {
            last = (index, kept)
            return kept
        }
        let batch = batches[index]
        try lines.load(snapshot, batch, groups: Array(batch.header.groups.indices))
        let events = try lines.withBytes { raw in
            try lines.uuidEvents(batch.header, in: raw).map { event -> (SampleUUID, UInt64) in
                guard let uuid = event.uuid else {
                    throw HealthLogError(.corrupt, "\(snapshot.segments[batch.segment].location(batch.offset)): event \(event.seq) has no readable uuid")
                }
                return (uuid, event.seq << 1 | (event.isDelete ? 1 : 0))
            }
        }
        let sorted = events.sorted { ($0.0, $0.1) < ($1.0, $1.1) }
        let entry = Decoded(uuids: sorted.map(\.0), events: sorted.map(\.1))
        if age.count == Self.cachedBatches { decoded[age.removeFirst()] = nil }
        decoded[index] = entry
        age.append(index)
        last = (index, entry)
        return entry
    }
}

/// `verify`'s check that no UUID is added twice in the log (writers refuse a UUID that was
/// ever used, so two adds of one UUID mean the log was written past a wrong index).
///
/// The walk gives it every add, stored or dropped by compaction; it keeps the add's
/// ``UUIDFingerprint`` and its ordinal among the adds as one key, a stretch of keys in
/// memory and the rest sorted in a scratch file (``FingerprintKeySpill``, sealed for an
/// encrypted store), and the sequence number of every ``markEvery``th add. At the end the
/// keys are merged in order, and only the adds that share a fingerprint with another add
/// (a few thousand at ten million adds) are found again in the log, from the mark before
/// each, to compare full UUIDs, so each UUID added twice is reported with both sequence
/// numbers. Memory holds a stretch, a page of each stretch left and a mark per
/// ``markEvery`` adds.
final class UUIDReuseCheck {
    /// Keys held before a stretch is written out.
    private let residentKeys: Int
    /// Adds between two marks.
    static let markEvery = 1024
    /// The keys not written out yet (fingerprint << 32 | ordinal), in add order.
    private var keys: [UInt64] = []
    /// The storage the keys are sorted into, a stretch before it is written out and the
    /// keys still in memory at the end, reused.
    private var stretch: [UInt64] = []
    /// The stretches written out.
    private let spill: FingerprintKeySpill
    /// The sequence number of adds `0`, ``markEvery``, `2 × markEvery`, ….
    private var marks: [UInt64] = []
    /// How many adds were given.
    private var count = 0

    /// An empty check, for a store whose derived files `cipher` seals (its scratch file is
    /// then sealed too), holding `residentKeys` keys before it writes a stretch out.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when the key of an encrypted store's scratch
    ///   files cannot be made.
    init(sealedLike cipher: StoreCipher?, residentKeys: Int = UUIDFingerprintRun.Events.defaultResidentKeys) throws {
        spill = FingerprintKeySpill(sealing: cipher == nil ? nil : try ScratchCipher.forProcess())
        self.residentKeys = residentKeys
    }

    /// Gives the add `seq` of `uuid` (in sequence order).
    ///
    /// - Throws: ``HealthLogError/Code/io`` when a stretch cannot be written out.
    func add(_ uuid: SampleUUID, seq: UInt64) throws {
        precondition(count < 1 << 32, "an add's ordinal fits 32 bits")
        if count % Self.markEvery == 0 { marks.append(seq) }
        keys.append(UInt64(UUIDFingerprint.of(uuid)) << 32 | UInt64(count))
        count += 1
        if keys.count >= residentKeys {
            UUIDFingerprintRun.sort(keys, into: &stretch)
            try stretch.withUnsafeBufferPointer { try spill.write($0) }
            keys.removeAll(keepingCapacity: true)
        }
    }

    /// Reports each add whose UUID an earlier add of `batches` (the log of `snapshot`) added
    /// already, at the later add's batch.
    func finish(_ snapshot: LogSnapshot, _ batches: [BatchRef], _ report: inout VerifyReport) throws {
        var candidates: [Int] = []
        var group: [Int] = []
        var fingerprint: UInt64?
        UUIDFingerprintRun.sort(keys, into: &stretch)
        try stretch.withUnsafeBufferPointer { resident in
            try spill.merge(with: resident) { key in
                if key >> 32 != fingerprint {
                    if group.count > 1 { candidates += group }
                    group.removeAll(keepingCapacity: true)
                    fingerprint = key >> 32
                }
                group.append(Int(key & 0xFFFF_FFFF))
            }
        }
        keys = []
        stretch = []
        if group.count > 1 { candidates += group }
        guard !candidates.isEmpty else { return }
        candidates.sort()
        var adds: [SampleUUID: [(seq: UInt64, batch: BatchRef)]] = [:]
        try findAdds(candidates, snapshot, batches) { uuid, seq, batch in adds[uuid, default: []].append((seq, batch)) }
        for (uuid, found) in adds.sorted(by: { $0.value[0].seq < $1.value[0].seq }) where found.count > 1 {
            for later in found.dropFirst() {
                report.problems.append(
                    "\(snapshot.segments[later.batch.segment].location(later.batch.offset)): event \(later.seq) adds UUID \(uuid), which event \(found[0].seq) added already")
            }
        }
    }

    /// Calls `body` with the UUID, sequence number and batch of each add whose ordinal is in
    /// `ordinals` (ascending), found by counting the adds of `batches` from the mark before it.
    private func findAdds(
        _ ordinals: [Int], _ snapshot: LogSnapshot, _ batches: [BatchRef], _ body: (SampleUUID, UInt64, BatchRef) throws -> Void
    ) throws {
        var lines = BatchLines()
        var loaded: (index: Int, events: [BatchLines.UUIDEvent])?
        var next = 0
        while next < ordinals.count {
            // Count from the mark before the next ordinal.
            let mark = ordinals[next] / Self.markEvery
            var ordinal = mark * Self.markEvery
            let from = marks[mark]
            var b = Self.batch(holding: from, in: batches)
            while next < ordinals.count, ordinals[next] / Self.markEvery == mark, b < batches.count {
                if loaded?.index != b {
                    try lines.load(snapshot, batches[b], groups: Array(batches[b].header.groups.indices))
                    let dropped = try snapshot.fullHeader(of: batches[b]).dropped
                    loaded = (b, lines.withBytes { lines.uuidEvents(dropped, in: $0) })
                }
                for event in loaded!.events where !event.isDelete && event.seq >= from {
                    if ordinal == ordinals[next] {
                        guard let uuid = event.uuid else { throw snapshot.unreadableEvent(event.seq, in: batches[b]) }
                        try body(uuid, event.seq, batches[b])
                        next += 1
                        guard next < ordinals.count, ordinals[next] / Self.markEvery == mark else { break }
                    }
                    ordinal += 1
                }
                b += 1
            }
            if next < ordinals.count, ordinals[next] / Self.markEvery == mark {
                throw HealthLogError(.corrupt, "the log holds fewer adds than its walk gave")
            }
        }
    }

    /// The index in `batches` (ascending, adjacent) of the batch holding `seq`.
    private static func batch(holding seq: UInt64, in batches: [BatchRef]) -> Int {
        var low = 0
        var high = batches.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if batches[middle].header.firstSeq <= seq { low = middle } else { high = middle - 1 }
        }
        return low
    }
}

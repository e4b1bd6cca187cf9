/// The events a compaction drops, ascending by sequence number, each once, in bounded
/// memory: each is kept as one 64-bit key (its number, and whether it is the delete), and
/// its UUID is read from its line when its batch is written again (``SegmentRewriter``).
///
/// Up to ``StoreOptions/compactionResidentKeys`` keys stay in memory (2¹⁷, 1 MiB). Past
/// that, every such stretch is sorted and written to a ``FingerprintKeySpill`` (sealed, as
/// ``ScratchCipher/Kind/compactionPlan``, for an encrypted store); ``Builder/finish(spans:)``
/// merges the stretches into a second spill in ascending order, and the rewrite reads that
/// a page at a time (``within(_:)``, asked for ascending ranges). So a compaction's plan
/// holds a stretch and a page per stretch, not 32 bytes a dropped event, whatever it drops.
final class DroppedEvents {
    /// One dropped event.
    struct Event: Equatable {
        /// Its sequence number.
        var seq: UInt64
        /// Whether it is the delete (else the add it deleted).
        var isDelete: Bool

        /// The event of `key` (``key``'s inverse).
        init(key: UInt64) {
            seq = key >> 1
            isDelete = key & 1 == 1
        }

        /// The event numbered `seq`.
        init(seq: UInt64, isDelete: Bool) {
            self.seq = seq
            self.isDelete = isDelete
        }

        /// The 64-bit key that sorts it by number.
        var key: UInt64 { seq << 1 | (isDelete ? 1 : 0) }
    }

    /// The keys, when they all fit in memory: ascending, each number once.
    private let resident: [UInt64]
    /// How many events are dropped.
    let count: Int

    /// Where the reading stands: the next key of ``resident``, or the reader of the keys
    /// that did not fit in memory (a spill of them ascending, each number once) and the
    /// key it read last and has not given yet.
    private var residentAt = 0
    private var reader: FingerprintKeySpill.WrittenKeys?
    private var pending: UInt64?

    /// None.
    convenience init() {
        self.init(resident: [], spilled: nil, count: 0)
    }

    private init(resident: [UInt64], spilled: FingerprintKeySpill?, count: Int) {
        self.resident = resident
        self.count = count
        reader = spilled.map(FingerprintKeySpill.WrittenKeys.init)
    }

    /// Whether there are none.
    var isEmpty: Bool { count == 0 }

    /// The events numbered within `seqs`, ascending. Each call reads on from the last:
    /// ranges are asked for in ascending order, each above the ones before, and every
    /// event lies in one of them.
    ///
    /// - Throws: ``HealthLogError/Code/corrupt`` for an event below `seqs` that no range
    ///   asked for held, as ``FingerprintKeySpill/WrittenKeys/next()``.
    func within(_ seqs: ClosedRange<UInt64>) throws -> [Event] {
        var found: [Event] = []
        while let key = try peek() {
            let event = Event(key: key)
            guard event.seq <= seqs.upperBound else { break }
            guard event.seq >= seqs.lowerBound else { throw Self.unheld(event) }
            found.append(event)
            advance()
        }
        return found
    }

    /// Checks that ``within(_:)`` gave every event.
    ///
    /// - Throws: ``HealthLogError/Code/corrupt`` naming the first event it did not give.
    func checkAllGiven() throws {
        if let key = try peek() { throw Self.unheld(Event(key: key)) }
    }

    /// The error for `event`, which no batch rewritten holds.
    private static func unheld(_ event: Event) -> HealthLogError {
        HealthLogError(.corrupt, "the compaction drops the \(event.isDelete ? "delete" : "add") numbered \(event.seq), which no batch it rewrote holds")
    }

    /// The next key not given yet, or `nil` past the last.
    private func peek() throws -> UInt64? {
        guard reader != nil else { return residentAt < resident.count ? resident[residentAt] : nil }
        if pending == nil { pending = try reader!.next() }
        return pending
    }

    /// Moves past the key ``peek()`` gave.
    private func advance() {
        if reader == nil { residentAt += 1 } else { pending = nil }
    }

    /// Gathers the dropped events in any order, then sorts them (``finish(spans:)``).
    final class Builder {
        /// The keys not written out yet.
        private var keys: [UInt64] = []
        /// Keys held before a stretch is written out.
        private let residentKeys: Int
        /// The sorted stretches written out.
        private let stretches: FingerprintKeySpill

        /// No events yet; stretches of `residentKeys` keys are sealed with `sealing` (an
        /// encrypted store's) or written in the clear.
        init(sealing: ScratchCipher?, residentKeys: Int) {
            precondition(residentKeys >= 2, "a stretch holds a delete and its add")
            self.residentKeys = residentKeys
            stretches = FingerprintKeySpill(sealing: sealing, kind: .compactionPlan)
        }

        /// Adds `event`; a number added twice is kept once.
        ///
        /// - Throws: ``HealthLogError/Code/io`` when a stretch cannot be written out.
        func add(_ event: Event) throws {
            keys.append(event.key)
            guard keys.count >= residentKeys else { return }
            keys.sort()
            try keys.withUnsafeBufferPointer { try stretches.write($0) }
            keys.removeAll(keepingCapacity: true)
        }

        /// The events added, sorted, and the segments (of `spans`, the log's batches in
        /// order) that hold one, ascending.
        ///
        /// - Throws: ``HealthLogError/Code/io`` or ``HealthLogError/Code/corrupt`` when a
        ///   stretch cannot be written or read back.
        func finish(spans: [LogSnapshot.BatchSpan]) throws -> (dropped: DroppedEvents, segments: [Int]) {
            keys.sort()
            var segments: [Int] = []
            var span = 0
            var count = 0
            var last: UInt64?
            // Each number once, and the segment of each span holding one.
            func take(_ key: UInt64, _ keep: (UInt64) throws -> Void) throws {
                let seq = key >> 1
                if let last, last >> 1 == seq { return }
                last = key
                count += 1
                try keep(key)
                while span < spans.count, spans[span].lastSeq < seq { span += 1 }
                if span < spans.count, spans[span].firstSeq <= seq, segments.last != spans[span].segment { segments.append(spans[span].segment) }
            }
            guard stretches.stretchCount > 0 else {
                var kept: [UInt64] = []
                kept.reserveCapacity(keys.count)
                for key in keys { try take(key) { kept.append($0) } }
                keys = []
                return (DroppedEvents(resident: kept, spilled: nil, count: count), segments)
            }
            let merged = FingerprintKeySpill(like: stretches, ordered: true)
            var out: [UInt64] = []
            out.reserveCapacity(residentKeys)
            try keys.withUnsafeBufferPointer { resident in
                try stretches.merge(with: resident) { key in
                    try take(key) { out.append($0) }
                    guard out.count == residentKeys else { return }
                    try out.withUnsafeBufferPointer { try merged.write($0) }
                    out.removeAll(keepingCapacity: true)
                }
            }
            if !out.isEmpty { try out.withUnsafeBufferPointer { try merged.write($0) } }
            keys = []
            return (DroppedEvents(resident: [], spilled: merged, count: count), segments)
        }
    }
}

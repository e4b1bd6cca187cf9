extension UUIDFingerprintRun {
    /// The events of a run in the making, given in sequence order (an append's, or a
    /// rebuild's or check's walk of the log): each event's key, its ``UUIDFingerprint`` and
    /// its ordinal among the events (`fingerprint << 32 | ordinal`), its sequence number
    /// implied by the ordinal (events are numbered one after the other; a jump is noted
    /// beside them). Every ``defaultResidentKeys`` keys are sorted and written out as a
    /// stretch of a ``FingerprintKeySpill`` (sealed for an encrypted store), so memory holds
    /// a stretch, not a key per event. Once the run's range is known the stretches are
    /// merged (``forEachKey(from:to:_:)``): ordinals and sequence numbers rise together, so
    /// keys ordered by ordinal are ordered by block too.
    struct Events {
        /// Keys held in memory before they are sorted and written out, by default: 2¹⁶
        /// (512 KB, and as much again while they are sorted); the merge at the end holds a
        /// page of 32 KB per stretch left (``FingerprintKeySpill/fanIn`` stretches of one
        /// size merge as they are written: 29 for ten million events).
        static let defaultResidentKeys = 1 << 16

        /// The keys not written out yet, in event order.
        private var keys: [UInt64] = []
        /// The storage the keys are sorted into, a stretch before it is written out and the
        /// keys still in memory at the end: reused, and shared by copies (an `Events` is used
        /// by one thread at a time).
        private let sorted = SortRoom()
        /// Where the sequence numbers jump: from event `index` on, event `k` is `seq + k - index`.
        private var jumps: [(index: Int, seq: UInt64)] = []
        /// The sequence number the next event has unless it jumps.
        private var nextSeq: UInt64 = 0
        /// How many events were added.
        private(set) var count = 0
        /// Keys held before a stretch is written out.
        private let residentKeys: Int
        /// The stretches written out.
        private let spill: FingerprintKeySpill

        /// No events yet; stretches are sealed with `sealing` (an encrypted store's) or in
        /// the clear, and written every `residentKeys` events.
        init(sealing: ScratchCipher? = nil, residentKeys: Int = defaultResidentKeys) {
            precondition(residentKeys >= 1, "a stretch holds a key")
            self.residentKeys = residentKeys
            spill = FingerprintKeySpill(sealing: sealing)
        }

        /// No events yet, for a store whose derived files `cipher` seals: its stretches are
        /// sealed too (``ScratchCipher``) when `cipher` is set.
        ///
        /// - Throws: ``HealthLogError/Code/io`` when the scratch key cannot be made.
        init(sealedLike cipher: StoreCipher?) throws {
            self.init(sealing: cipher == nil ? nil : try ScratchCipher.forProcess())
        }

        /// Adds the event `seq` (past every event added before) of `uuid`.
        ///
        /// - Throws: ``HealthLogError/Code/corrupt`` when `seq` does not follow the event
        ///   added before (a damaged log's walk), ``HealthLogError/Code/io`` when a stretch
        ///   cannot be written out.
        mutating func add(_ uuid: SampleUUID, seq: UInt64) throws {
            guard count == 0 || seq >= nextSeq else { throw HealthLogError(.corrupt, "event \(seq) comes after event \(nextSeq - 1)") }
            precondition(count < 1 << 32, "an event's ordinal fits 32 bits")
            if count == 0 || seq != nextSeq { jumps.append((count, seq)) }
            keys.append(UInt64(UUIDFingerprint.of(uuid)) << 32 | UInt64(count))
            count += 1
            nextSeq = seq &+ 1
            if keys.count >= residentKeys {
                UUIDFingerprintRun.sort(keys, into: &sorted.keys)
                try sorted.keys.withUnsafeBufferPointer { try spill.write($0) }
                keys.removeAll(keepingCapacity: true)
            }
        }

        /// Calls `body` with the key of every event in a run covering `from...to` (which
        /// holds every one of them), in ascending order: the keys still in memory are sorted
        /// (``UUIDFingerprintRun/sort(_:into:)``) and merged with the stretches written out,
        /// a page of each at a time, each ordinal turned into its event's block on the way.
        ///
        /// - Throws: as ``FingerprintKeySpill/merge(with:_:)``.
        func forEachKey(from: UInt64, to: UInt64, _ body: (UInt64) -> Void) throws {
            precondition(jumps.first.map { $0.seq >= from } ?? true && nextSeq <= to &+ 1, "the run covers every event")
            let shift = UInt64(UUIDFingerprint.blockShift(from: from, to: to))
            let base = from >> shift
            let jumps = jumps
            UUIDFingerprintRun.sort(keys, into: &sorted.keys)
            try sorted.keys.withUnsafeBufferPointer { resident in
                try spill.merge(with: resident) { key in
                    let ordinal = Int(key & 0xFFFF_FFFF)
                    // The last jump at or before the ordinal (most runs have one).
                    var low = 0
                    var high = jumps.count - 1
                    while low < high {
                        let middle = (low + high + 1) / 2
                        if jumps[middle].index <= ordinal { low = middle } else { high = middle - 1 }
                    }
                    let seq = jumps[low].seq + UInt64(ordinal - jumps[low].index)
                    body(key & 0xFFFF_FFFF_0000_0000 | ((seq >> shift) - base))
                }
            }
        }

        /// The file of the run of these events covering `from...to` (which holds every one
        /// of them), bound to `binding` and sealed with `cipher`, encoded in memory (about 3
        /// bytes an event, held twice while sealed).
        ///
        /// - Throws: as ``forEachKey(from:to:_:)``.
        func fileBytes(from: UInt64, to: UInt64, binding: LogBinding, cipher: StoreCipher?) throws -> [UInt8] {
            var encoder = Encoder(count: count, from: from, to: to)
            try forEachKey(from: from, to: to) { encoder.append($0) }
            return encoder.takeFileBytes(binding: binding, cipher: cipher)
        }

        /// Writes the run of these events covering `from...to`, bound to `binding` (the
        /// log's at `to`) and sealed with `cipher`, into `directory`, streamed
        /// (``write(from:to:binding:cipher:into:)``); returns it.
        func write(from: UInt64, to: UInt64, binding: LogBinding, cipher: StoreCipher?, directory: String) throws -> UUIDFingerprintRun {
            let path = directory + "/" + UUIDFingerprintRun.fileName(from: from, to: to)
            try DurableFile.replace(path, sync: false) { try write(from: from, to: to, binding: binding, cipher: cipher, into: $0) }
            return try open(path, cipher: cipher)
        }

        /// Writes the file of the run of these events covering `from...to`, bound to
        /// `binding` and sealed with `cipher`, into `fd` as it is encoded
        /// (``UUIDFingerprintRun/writeStreamed(count:from:to:binding:cipher:into:keys:)``,
        /// which reads the keys twice), the bytes ``fileBytes(from:to:binding:cipher:)`` gives.
        /// When stretches were written out, the keys are merged once: the first reading
        /// writes them out in order too, as stretches of a spill of their own (sealed as
        /// the first), which the second reads back in order, a page at a time.
        ///
        /// - Throws: as ``forEachKey(from:to:_:)``, or when a write fails.
        func write(from: UInt64, to: UInt64, binding: LogBinding, cipher: StoreCipher?, into fd: FileDescriptor) throws {
            guard spill.stretchCount > 0 else {
                return try UUIDFingerprintRun.writeStreamed(count: count, from: from, to: to, binding: binding, cipher: cipher, into: fd) { page in
                    try UUIDFingerprintRun.inPages({ try forEachKey(from: from, to: to, $0) }, page)
                }
            }
            let merged = MergedKeys(like: spill)
            try UUIDFingerprintRun.writeStreamed(count: count, from: from, to: to, binding: binding, cipher: cipher, into: fd) { page in
                guard merged.isWritten else {
                    try UUIDFingerprintRun.inPages({ try forEachKey(from: from, to: to, $0) }) { keys in
                        page(keys)
                        merged.add(keys)
                    }
                    return try merged.finish()
                }
                try merged.forEach(page)
            }
        }
    }

    /// Storage for sorted keys, kept from one sort to the next.
    private final class SortRoom {
        var keys: [UInt64] = []
    }

    /// The keys of a run in ascending order as a merge gives them, kept for a second reading
    /// (``Events/write(from:to:binding:cipher:into:)``): each page of them written out as a
    /// stretch of a spill of their own, read back one after the other, never merged.
    private final class MergedKeys {
        /// Where the pages go.
        private let spill: FingerprintKeySpill
        /// The first write that failed (a merge's body cannot throw).
        private var failure: (any Error)?
        /// Whether every key was given.
        private(set) var isWritten = false

        init(like spill: FingerprintKeySpill) {
            self.spill = FingerprintKeySpill(like: spill, ordered: true)
        }

        /// Keeps `keys` (ascending after those before).
        func add(_ keys: UnsafeBufferPointer<UInt64>) {
            guard failure == nil else { return }
            do {
                try spill.write(keys)
            } catch {
                failure = error
            }
        }

        /// Ends the first reading: throws the write that failed, if one did.
        func finish() throws {
            isWritten = true
            if let failure { throw failure }
        }

        /// Calls `body` with every key again, in ascending order, a page at a time.
        func forEach(_ body: (UnsafeBufferPointer<UInt64>) -> Void) throws {
            try spill.forEachWrittenPage(body)
        }
    }
}

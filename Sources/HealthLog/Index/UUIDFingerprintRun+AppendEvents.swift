extension UUIDFingerprintRun {
    /// The events of an append in the making, in sequence order, for the append's run of
    /// the fingerprint index: each event's ``UUIDFingerprint`` (4 bytes), its sequence
    /// number implied by its place (the writer numbers events one after the other; a jump
    /// is noted beside them). The run is encoded straight from them once the append's
    /// range is known (``fileBytes(from:to:binding:cipher:)``), so the append never writes, merges or
    /// reads back a 32-byte ``UUIDRun`` of its whole range to convert it.
    struct AppendEvents {
        /// The fingerprint of each event, in sequence order.
        private var fingerprints: [UInt32] = []
        /// Where the sequence numbers jump: from event `index` on, event `k` is `seq + k - index`.
        private var jumps: [(index: Int, seq: UInt64)] = []
        /// The sequence number the next event has unless it jumps.
        private var nextSeq: UInt64 = 0

        /// How many events were added.
        var count: Int { fingerprints.count }

        /// Adds the event `seq` (past every event added before) of `uuid`.
        mutating func add(_ uuid: SampleUUID, seq: UInt64) {
            precondition(fingerprints.isEmpty || seq >= nextSeq, "events are added in sequence order")
            if fingerprints.isEmpty || seq != nextSeq { jumps.append((fingerprints.count, seq)) }
            fingerprints.append(UUIDFingerprint.of(uuid))
            nextSeq = seq &+ 1
        }

        /// The file of the run of these events covering `from...to` (which holds every one
        /// of them), bound to `binding` and sealed with `cipher`: the same file
        /// ``UUIDFingerprintRun/write(keys:from:to:binding:cipher:directory:)`` writes for their keys. The keys are put in order by their top 16 bits in one
        /// counting pass and a scatter (fingerprints are uniform: a bucket of a million
        /// keys holds about 15), each bucket then by insertion, as ``sorted(_:)`` does,
        /// without an array of the keys in event order first.
        func fileBytes(from: UInt64, to: UInt64, binding: LogBinding, cipher: StoreCipher?) -> [UInt8] {
            precondition(jumps.first.map { $0.seq >= from } ?? true && nextSeq <= to &+ 1, "the run covers every event")
            let shift = UInt64(UUIDFingerprint.blockShift(from: from, to: to))
            let base = from >> shift
            var encoder = Encoder(count: fingerprints.count, from: from, to: to)
            var starts = [Int](repeating: 0, count: (1 << 16) + 1)
            var keys = [UInt64](repeating: 0, count: fingerprints.count)
            fingerprints.withUnsafeBufferPointer { fingerprints in
                for fingerprint in fingerprints { starts[Int(fingerprint >> 16) + 1] += 1 }
                for bucket in 1..<starts.count { starts[bucket] += starts[bucket - 1] }
                var next = starts
                keys.withUnsafeMutableBufferPointer { keys in
                    next.withUnsafeMutableBufferPointer { next in
                        var jump = 0
                        var seq: UInt64 = 0
                        for k in fingerprints.indices {
                            if jump < jumps.count, jumps[jump].index == k {
                                seq = jumps[jump].seq
                                jump += 1
                            }
                            let bucket = Int(fingerprints[k] >> 16)
                            keys[next[bucket]] = UInt64(fingerprints[k]) << 32 | ((seq >> shift) - base)
                            next[bucket] += 1
                            seq &+= 1
                        }
                    }
                    for bucket in 0..<(1 << 16) {
                        let start = starts[bucket]
                        let end = starts[bucket + 1]
                        guard end - start > 1 else { continue }
                        for i in (start + 1)..<end {
                            let key = keys[i]
                            var j = i
                            while j > start, keys[j - 1] > key {
                                keys[j] = keys[j - 1]
                                j -= 1
                            }
                            keys[j] = key
                        }
                    }
                }
            }
            for key in keys { encoder.append(key) }
            return encoder.fileBytes(binding: binding, cipher: cipher)
        }
    }
}

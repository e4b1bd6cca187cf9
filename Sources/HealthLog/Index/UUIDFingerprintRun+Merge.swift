extension UUIDFingerprintRun {
    /// A run's keys in order, one at a time, with their blocks renumbered for a run starting
    /// at `from` (at most the run's own first sequence number) with block shift `shift` (at
    /// least the run's); blocks are aligned to absolute sequence numbers, so an event keeps
    /// a block holding it.
    struct RebasedCursor {
        private var keys: KeyCursor
        private let base: UInt64
        private let newBase: UInt64
        private let widen: UInt64

        /// A cursor at the first key of `run`, renumbered for a run from `from` with block shift `shift`.
        init(_ run: UUIDFingerprintRun, from: UInt64, shift: Int) {
            keys = KeyCursor(run)
            base = run.fromSeq >> UInt64(run.blockShift)
            newBase = from >> UInt64(shift)
            widen = UInt64(shift - run.blockShift)
        }

        /// The next renumbered key, or `nil` past the last.
        mutating func next() -> UInt64? {
            guard let key = keys.next() else { return nil }
            return key & ~0xFFFF_FFFF | (((base + (key & 0xFFFF_FFFF)) >> widen) - newBase)
        }
    }

    /// Writes the merge of `runs` (at least one; adjacent, oldest first) as one run covering
    /// `runs[0].fromSeq...runs.last.toSeq`, bound as the newest run is (it ends where the
    /// merge does) and sealed with `cipher`, into `directory` (temporary file and rename,
    /// not synced: derived data); returns it. Each run's keys stay in order when
    /// renumbered, so the merge is one pass over the runs' cursors, holding no key list,
    /// made twice as the run is streamed to its file
    /// (``writeStreamed(count:from:to:binding:cipher:into:keys:)``).
    static func writeMerged(_ runs: [UUIDFingerprintRun], cipher: StoreCipher?, directory: String) throws -> UUIDFingerprintRun {
        precondition(!runs.isEmpty, "a merge has a run")
        let from = runs[0].fromSeq
        let to = runs[runs.count - 1].toSeq
        let shift = UUIDFingerprint.blockShift(from: from, to: to)
        let path = directory + "/" + fileName(from: from, to: to)
        try DurableFile.replace(path, sync: false) { fd in
            try writeStreamed(count: runs.reduce(0) { $0 + $1.count }, from: from, to: to, binding: runs[runs.count - 1].binding, cipher: cipher, into: fd) { key in
                var cursors = runs.map { RebasedCursor($0, from: from, shift: shift) }
                var heads = cursors.indices.map { cursors[$0].next() }
                while true {
                    var least: Int?
                    for k in heads.indices where heads[k] != nil {
                        if least.map({ heads[k]! < heads[$0]! }) ?? true { least = k }
                    }
                    guard let k = least else { break }
                    key(heads[k]!)
                    heads[k] = cursors[k].next()
                }
                for run in runs { try run.checkIntact() }
            }
        }
        return try open(path, cipher: cipher)
    }
}

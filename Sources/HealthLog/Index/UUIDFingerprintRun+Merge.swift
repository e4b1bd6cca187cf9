extension UUIDFingerprintRun {
    /// The keys of `run` with their blocks renumbered for a run starting at `from` (at most
    /// the run's own first sequence number) with block shift `shift` (at least the run's);
    /// blocks are aligned to absolute sequence numbers, so an event keeps a block holding it.
    static func rebasedKeys(_ run: UUIDFingerprintRun, from: UInt64, shift: Int) -> [UInt64] {
        let base = (run.fromSeq >> UInt64(run.blockShift))
        let newBase = from >> UInt64(shift)
        let widen = UInt64(shift - run.blockShift)
        var out: [UInt64] = []
        out.reserveCapacity(run.count)
        run.forEachKey { key in
            let block = ((base + (key & 0xFFFF_FFFF)) >> widen) - newBase
            out.append(key & ~0xFFFF_FFFF | block)
        }
        return out
    }

    /// Writes the merge of `runs` (at least one; adjacent, oldest first) as one run covering
    /// `runs[0].fromSeq...runs.last.toSeq`, bound as the newest run is (it ends where the
    /// merge does) and sealed with `cipher`, into `directory` (temporary file and rename,
    /// not synced: derived data); returns it. Each run's keys stay in order when
    /// renumbered, so the merge is one pass over sorted lists.
    static func writeMerged(_ runs: [UUIDFingerprintRun], cipher: StoreCipher?, directory: String) throws -> UUIDFingerprintRun {
        precondition(!runs.isEmpty, "a merge has a run")
        let from = runs[0].fromSeq
        let to = runs[runs.count - 1].toSeq
        var encoder = Encoder(count: runs.reduce(0) { $0 + $1.count }, from: from, to: to)
        let lists = runs.map { rebasedKeys($0, from: from, shift: encoder.blockShift) }
        var next = [Int](repeating: 0, count: lists.count)
        while true {
            var least: Int?
            for k in lists.indices where next[k] < lists[k].count {
                if least.map({ lists[k][next[k]] < lists[$0][next[$0]] }) ?? true { least = k }
            }
            guard let k = least else { break }
            encoder.append(lists[k][next[k]])
            next[k] += 1
        }
        return try open(encoder.write(directory: directory, binding: runs[runs.count - 1].binding, cipher: cipher), cipher: cipher)
    }
}

/// What a snapshot knows of the events `compact` dropped.
extension LogSnapshot {
    /// Whether event `seq` was dropped by a compaction (its batch lists it as dropped).
    func wasDropped(_ seq: UInt64) throws -> Bool {
        guard let batch = try batch(containing: seq) else { return false }
        return try fullHeader(of: batch).dropped.contains(seq: seq)
    }
}

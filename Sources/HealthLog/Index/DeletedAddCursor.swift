/// Answers, for the adds of a replay in rising sequence order, whether a delete the
/// ``DeletedAddIndex`` covers deleted them: a walk through the index's entries that reads
/// only the blocks those numbers fall in.
struct DeletedAddCursor {
    private let index: DeletedAddIndex
    private var block = -1
    private var entries: [UInt64] = []
    private var position = 0

    /// A cursor over `index`.
    init(_ index: DeletedAddIndex) {
        self.index = index
    }

    /// The last sequence number whose deletes the index reflects.
    var coveredSeq: UInt64 { index.coveredSeq }

    /// Whether the add `seq` was deleted by an event the index covers. Meant to be asked of
    /// rising numbers (a lower one than the last restarts the walk in its block); throws
    /// ``HealthLogError/Code/corrupt`` when a block it reads is damaged.
    mutating func isDeleted(_ seq: UInt64) throws -> Bool {
        guard seq <= index.coveredSeq, index.count > 0 else { return false }
        // Most numbers fall in the block the last one did; only a move searches the table.
        let target = block >= 0 && index.blockHolds(block, seq) ? block : index.blockIndex(for: seq)
        if target != block {
            entries = try index.block(target)
            block = target
            position = 0
        }
        if position > 0, entries[position - 1] >= seq { position = 0 }
        while position < entries.count, entries[position] < seq { position += 1 }
        return position < entries.count && entries[position] == seq
    }
}

/// What a restore did.
public struct RestoreReport: Sendable, Equatable {
    /// The last sequence number kept: the backup's head, or where a point-in-time restore
    /// cut its log.
    public var keptSeq: UInt64 = 0
    /// The backup's head (above ``keptSeq`` when a point-in-time restore cut the log).
    public var backupHeadSeq: UInt64 = 0
    /// The sequence number the new timeline's first event gets: above every number the
    /// backup or the replaced store ever issued.
    public var firstSeq: UInt64 = 1
    /// Files copied from the backup.
    public var filesCopied = 0
    /// Bytes copied from the backup.
    public var bytesCopied = 0
    /// Whether an existing store was replaced (`force`).
    public var replacedStore = false
    /// Leftovers of an earlier, interrupted restore beside the target that were removed.
    public var leftoversRemoved: [String] = []

    /// The numbers at the top of ``discarded`` that no store here issued: when the store
    /// the backup came from is not at the target (a lost disk), the new timeline starts far
    /// enough above the backup's head that none it may have issued after the backup is
    /// issued again.
    package var keptUnused: ClosedRange<UInt64>?

    /// The sequence numbers this restore discarded (issued before it, gone after it), if any.
    public var discarded: ClosedRange<UInt64>? { firstSeq > keptSeq + 1 ? (keptSeq + 1)...(firstSeq - 1) : nil }
}

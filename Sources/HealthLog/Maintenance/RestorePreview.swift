/// What a restore would keep and discard, worked out before anything is copied
/// (``HealthStore/previewRestore(from:to:)``), so `restore` can say it before it acts and
/// `restore --dry-run` can say it alone.
public struct RestorePreview: Sendable, Equatable {
    /// The backup's head sequence number.
    public var backupHeadSeq: UInt64
    /// The last sequence number the restore keeps (0: none).
    public var keptSeq: UInt64
    /// The backup's appends the restore keeps, newest first.
    public var kept: [AppendRecord]
    /// The backup's appends after the point, discarded, newest first.
    public var discarded: [AppendRecord]
    /// The head of the store at the target when it is the backed-up store and holds more
    /// than the backup: its sequence numbers past the backup's head are discarded too.
    public var storeHeadSeq: UInt64?
}

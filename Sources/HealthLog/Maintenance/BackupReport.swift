/// What a backup did.
public struct BackupReport: Sendable, Equatable {
    /// The head sequence number the backup holds: every append committed when it began.
    public var headSeq: UInt64 = 0
    /// The anchor of the backup's head (what `healthlog --store DEST anchor` gives, which
    /// an encrypted store's backup answers only with the key).
    public var headAnchor = QueryAnchor.beginning
    /// Files written (new or changed).
    public var filesWritten = 0
    /// Files already in the destination and unchanged, left alone.
    public var filesKept = 0
    /// Files removed from the destination because the store no longer has them.
    public var filesRemoved = 0
    /// Bytes written.
    public var bytesWritten = 0
}

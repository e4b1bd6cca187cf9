/// What `compact` did.
public struct CompactReport: Sendable, Equatable {
    /// The horizon it compacted up to: deletes at or before this sequence number are gone.
    public var horizonSeq: UInt64 = 0
    /// The compaction's generation (0 when it found nothing to drop and committed nothing).
    public var generation: UInt32 = 0
    /// Deletes dropped (each with the add of the sample it deleted).
    public var deletesDropped = 0
    /// Events dropped in all: the deletes and their samples' adds.
    public var eventsDropped = 0
    /// Segments rewritten, of those in the log.
    public var segmentsRewritten = 0
    /// Segments in the log.
    public var segments = 0
    /// Bytes of the segment files before.
    public var bytesBefore = 0
    /// Bytes of the segment files in use after.
    public var bytesAfter = 0
    /// Superseded segment files left in place because a reader still held a snapshot
    /// (the next writer that finds none removes them).
    public var filesWaitingForReaders = 0
    /// The key epochs `compact --rekey` removed from every key slot (none while a reader
    /// still held a superseded segment: a later rekey removes them).
    public var epochsDropped: [UInt32] = []
    /// A torn tail cut before compacting, if any.
    package var recoveredTail: TornTail?

    /// Bytes the segments shrank by.
    public var bytesReclaimed: Int { bytesBefore - bytesAfter }
}

/// One append of the log, as ``HealthStore/appendHistory()`` lists it: its sequence range,
/// when it was made and committed, what it holds now, and what made it.
public struct AppendRecord: Sendable, Hashable {
    /// The append's first sequence number.
    public var firstSeq: UInt64
    /// The append's last sequence number.
    public var lastSeq: UInt64
    /// When the append began (every batch of it records this time).
    public var appendedAt: Timestamp
    /// When it committed; `nil` for appends made before this was recorded, or by a
    /// handle with no ``StoreOptions/origin``.
    public var committedAt: Timestamp?
    /// The adds it holds now (compaction may have dropped some).
    public var added: Int
    /// The deletes it holds now.
    public var deleted: Int
    /// What made it, when that was recorded (``StoreOptions/origin``).
    public var origin: AppendOrigin?
    /// The anchor just past the append: `restore --to` with it keeps this append and every
    /// one before it, and a query from it starts with the next append.
    public var anchor: QueryAnchor
}

/// One restore in the store's history, as ``HealthStore/restoreHistory()`` lists it: what
/// it kept and the timeline it started.
public struct RestoreRecord: Sendable, Hashable {
    /// The last sequence number kept from before the restore.
    public var keptSeq: UInt64
    /// The first sequence number of the timeline it started.
    public var firstSeq: UInt64
    /// When the restore happened.
    public var restoredAt: Timestamp

    /// The numbers issued before the restore and gone after it, if any.
    public var discarded: ClosedRange<UInt64>? { firstSeq > keptSeq + 1 ? (keptSeq + 1)...(firstSeq - 1) : nil }
}

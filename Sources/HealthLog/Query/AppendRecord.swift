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

extension HealthStore {
    /// Every append of the log, newest first (`healthlog log`): an undo you can see, since
    /// each record's ``AppendRecord/anchor`` names a point `restore --to` can cut at.
    /// Empty when there is no store.
    ///
    /// - Throws: ``HealthLogError`` for damage, naming the file and offset.
    public func appendHistory() throws -> [AppendRecord] {
        guard layout.exists else { return [] }
        let snapshot = try LogSnapshot(layout)
        let tag = snapshot.meta.storeID.tag
        let generation = snapshot.compactions.generation
        var records: [AppendRecord] = []
        var open: AppendRecord?
        for batch in try snapshot.allBatches() {
            let header = batch.header
            var record = open ?? AppendRecord(
                firstSeq: header.firstSeq, lastSeq: header.lastSeq, appendedAt: Self.instant(header.appendedMillis), committedAt: nil,
                added: 0, deleted: 0, origin: nil, anchor: .beginning)
            for group in header.groups {
                if group.isDelete { record.deleted += Int(group.count) } else { record.added += Int(group.count) }
            }
            record.lastSeq = header.lastSeq
            guard header.isEndOfAppend else {
                open = record
                continue
            }
            record.committedAt = header.origin.map { Self.instant($0.committedMillis) }
            record.origin = header.origin?.origin
            record.anchor = QueryAnchor(seq: header.lastSeq, storeTag: tag, generation: generation)
            records.append(record)
            open = nil
        }
        return records.reversed()
    }

    fileprivate static func instant(_ millis: Int64) -> Timestamp {
        Timestamp(microseconds: millis * 1000, fractionDigits: 3)
    }
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

extension HealthStore {
    /// The restores that made the store's timelines, newest first; empty when there is no
    /// store or it was never restored.
    public func restoreHistory() throws -> [RestoreRecord] {
        guard layout.exists else { return [] }
        return try Timelines.read(layout).starts.reversed().map {
            RestoreRecord(keptSeq: $0.keptSeq, firstSeq: $0.firstSeq, restoredAt: Self.instant($0.createdMillis))
        }
    }
}

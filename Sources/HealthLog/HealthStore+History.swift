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

    private static func instant(_ millis: Int64) -> Timestamp {
        Timestamp(microseconds: millis * 1000, fractionDigits: 3)
    }
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

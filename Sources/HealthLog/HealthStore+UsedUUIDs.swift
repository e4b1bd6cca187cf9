/// The import's read-only look into the UUID index, beside ``HealthStore/appendImporting(ndjson:)``:
/// which UUIDs the store has used, so an import can leave out of its appends the records
/// an importing append would only count as already present, and vouch for the rest
/// (``HealthStore/appendImporting(ndjson:addsUnusedAsOfHead:)``). `package` access, like
/// the rest of the import's door.
extension HealthStore {
    /// A lookup of the UUIDs the store has used as of now (none for a store not created
    /// yet), or `nil` when its UUID index does not cover the whole log or a run of it fails
    /// its checksums (then the appends find out). Reads only; each call opens its own lookup,
    /// for one thread. With `sharing` (another thread's lookup), the index's runs that one
    /// opened are used when the log's head has not moved since, rather than opened and
    /// checked again: the same answers, the runs' memory held once.
    ///
    /// - Throws: ``HealthLogError/Code/corrupt`` or an I/O code when the log cannot be read.
    package func usedUUIDs(sharing: UsedUUIDs? = nil) throws -> UsedUUIDs? {
        guard layout.exists else { return UsedUUIDs(nil, headSeq: 0) }
        let snapshot = try LogSnapshot(layout)
        return UUIDRunReader(layout, snapshot: snapshot, sharing: sharing?.reader, checked: options.checkedRuns).map { UsedUUIDs($0, headSeq: snapshot.headSeq) }
    }
}

/// The UUIDs a store has used, as of when the lookup was opened (see
/// ``HealthStore/usedUUIDs(sharing:)``). A UUID once used stays used, so what it finds stays true;
/// a UUID used after it was opened is not found. One thread at a time: it may be handed to
/// another thread, hence `@unchecked Sendable`, but never used by two at once.
package final class UsedUUIDs: @unchecked Sendable {
    /// What the store holds under a UUID.
    package enum State {
        /// The store never used it.
        case unused
        /// A live sample has it.
        case live
        /// A deleted sample had it.
        case deleted
        /// Not known (no lookup: the append checks it).
        case unknown
    }

    /// The index's chain, or `nil` for a store not created yet.
    fileprivate let reader: UUIDRunReader?
    /// The store's head when the lookup was opened: what it answers as of.
    package let headSeq: UInt64

    init(_ reader: UUIDRunReader?, headSeq: UInt64) {
        self.reader = reader
        self.headSeq = headSeq
    }

    /// What the store held under `uuid` when the lookup was opened.
    package func state(of uuid: SampleUUID) -> State {
        guard let reader else { return .unused }
        // A batch that cannot be read leaves the UUID to the append, which reports the damage.
        let deleted: Bool?
        do {
            deleted = try reader.isDeleted(uuid)
        } catch {
            return .unknown
        }
        guard let deleted else { return .unused }
        return deleted ? .deleted : .live
    }
}

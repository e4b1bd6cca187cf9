/// The import's read-only look into the UUID index, beside ``HealthStore/appendImporting(ndjson:)``:
/// which UUIDs the store has used, so an import can leave out of its appends the records
/// an importing append would only count as already present. `package` access, like the
/// rest of the import's door.
extension HealthStore {
    /// A lookup of the UUIDs the store has used as of now, or `nil` when the store does not
    /// exist or its UUID index does not cover the whole log (then the appends find out).
    /// Reads only; each call opens its own lookup, for one thread.
    ///
    /// - Throws: ``HealthLogError/Code/corrupt`` or an I/O code when the log cannot be read.
    package func usedUUIDs() throws -> UsedUUIDs? {
        guard layout.exists else { return nil }
        let snapshot = try LogSnapshot(layout)
        return UUIDRunReader(layout, snapshot: snapshot).map(UsedUUIDs.init)
    }
}

/// The UUIDs a store has used, as of when the lookup was opened (see
/// ``HealthStore/usedUUIDs()``). A UUID once used stays used, so what it finds stays true;
/// a UUID used after it was opened is not found. One thread at a time: it may be handed to
/// another thread, hence `@unchecked Sendable`, but never used by two at once.
package final class UsedUUIDs: @unchecked Sendable {
    private let reader: UUIDRunReader

    init(_ reader: UUIDRunReader) { self.reader = reader }

    /// Whether the sample `uuid` is deleted, `false` when it is live, `nil` when the store
    /// never used the UUID or the index block holding it is damaged (the append checks it
    /// again).
    package func isDeleted(_ uuid: SampleUUID) -> Bool? {
        (try? reader.isDeleted(uuid)) ?? nil
    }
}

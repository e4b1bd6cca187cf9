/// The import's append of lines it prepared while mapping (``ImportPreparedLines``): the
/// writer stores the prepared events without parsing and checking each line again.
/// `package` access, like the rest of the import's door.
extension HealthStore {
    /// ``appendImporting(ndjson:addsUnusedAsOfHead:)`` (or, with `head` `nil`,
    /// ``appendImporting(ndjson:)``) of the lines `lines` holds, each stored as its
    /// preparation says: the same result, stored bytes, errors and durability as those
    /// appends of `lines`' bytes. With `head`, the caller vouches for the adds but those
    /// whose UUID is in `mayBeUsed` (an earlier append of the import was given them), which
    /// are looked up in the store's UUID index as usual.
    package func appendImporting(
        prepared lines: ImportPreparedLines, addsUnusedAsOfHead head: UInt64?, mayBeUsed: Set<SampleUUID> = []
    ) throws -> AppendSummary {
        let session = try AppendSession(layout, options: options, skipsUsedUUIDs: true, addsUnusedAsOfHead: head, mayBeUsed: mayBeUsed)
        return try session.run(prepared: lines)
    }
}

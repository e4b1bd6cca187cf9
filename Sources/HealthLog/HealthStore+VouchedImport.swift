/// The import's append for lines it has checked against the store's UUID index: the
/// writer then looks each add's UUID up among the append's own samples only, instead of
/// reading the index for every one. `package` access, like the rest of the import's door.
extension HealthStore {
    /// ``appendImporting(ndjson:)`` for lines whose adds the caller has found unused in the
    /// store as of head `head` (with ``usedUUIDs(sharing:)``, and none of them in an earlier append
    /// since): when the store's head is still `head` the index lookups of the adds are
    /// left out, otherwise (another writer appended) the append checks them as usual.
    /// Same result, errors and durability as ``appendImporting(ndjson:)``. The lines are
    /// prepared on this thread (``ImportPreparedLines``), as the import's own appends
    /// (``appendImporting(prepared:addsUnusedAsOfHead:mayBeUsed:)``) prepare those it was not given
    /// prepared.
    package func appendImporting(ndjson: [UInt8], addsUnusedAsOfHead head: UInt64) throws -> AppendSummary {
        var lines = ImportPreparedLines()
        ndjson.withUnsafeBytes { lines.add($0, prepared: nil) }
        return try appendImporting(prepared: lines, addsUnusedAsOfHead: head)
    }
}

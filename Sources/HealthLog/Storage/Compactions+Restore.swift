/// The compactions record of a restored store.
///
/// An anchor carries the generation its store had when it was issued, and expires when a
/// compaction of a later generation dropped deletes above it. A restore brings back the
/// backup's record, which may hold fewer compactions than the replaced store did (the
/// backup was taken before some of them) or other ones (the replaced store had itself been
/// restored since). Kept as it is, the restored store's next compaction would reuse a
/// generation number anchors of the replaced store already carry, and those anchors would
/// silently miss the deletes it drops; and an anchor issued in another history at a
/// generation the backup's record reaches would count as having seen the backup's
/// compactions.
extension Compactions {
    /// The record to restore when the backup's is `self` and the replaced store (the same
    /// store; an empty record when it is unknown) had `replaced`: the backup's entries, then
    /// empty entries (horizon 0: they expire and drop nothing) up to the replaced store's
    /// generation, so every later compaction is of a generation above any anchor issued
    /// before the restore; then, when the backup's record dropped anything, one more empty
    /// entry at its highest horizon, which expires every anchor issued before the restore
    /// that points below it (such a client may not have seen the backup's compactions; it
    /// resyncs from 0). `now` is when the restore ran (ms since 1970).
    func restored(replacing replaced: Compactions, now: Int64) -> Compactions {
        var out = self
        let filler = Entry(horizonSeq: 0, createdMillis: now, droppedEvents: 0)
        out.entries += Array(repeating: filler, count: max(0, replaced.entries.count - entries.count))
        if let horizon = entries.map(\.horizonSeq).max(), horizon > 0 {
            out.entries.append(Entry(horizonSeq: horizon, createdMillis: now, droppedEvents: 0))
        }
        return out
    }
}

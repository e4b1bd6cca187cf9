/// How anchors are judged against the timelines: an anchor at or before a
/// restore's kept head, or in a later timeline, names history the store still has; one
/// inside a restore's discarded range names events that are gone, whatever was appended
/// since, and is refused.
extension Timelines {
    /// Throws ``HealthLogError/Code/anchorRefused`` when `anchor` (of this store, tag `tag`,
    /// or a bare number) names discarded history, with the advice to resync. Anchors of
    /// another store are left to ``QueryAnchor/validate(storeTag:head:)``.
    func check(_ anchor: QueryAnchor, storeTag tag: UInt64) throws {
        guard anchor.storeTag == nil || anchor.storeTag == tag, let start = discarding(anchor.seq), let range = start.discarded else { return }
        let date = Timestamp(microseconds: start.createdMillis * 1000, fractionDigits: 0)
        throw HealthLogError(
            .anchorRefused,
            "anchor \(anchor.token) (sequence \(anchor.seq)) names history discarded by the restore of \(date) (sequence \(range.lowerBound)…\(range.upperBound)); resync from 0 or from an anchor at or before \(start.keptSeq)")
    }
}

/// How anchors are judged against the compactions: an anchor issued before
/// a compaction (of an older generation) that points below its horizon would miss deletes
/// the compaction dropped, so it is refused as expired, with the advice to resync from 0.
/// Anchors issued after a compaction stay valid wherever they point, 0 always works, and
/// without compaction no anchor expires.
extension Compactions {
    /// Throws ``HealthLogError/Code/anchorRefused`` when `anchor` (of this store, tag `tag`,
    /// or a bare number, which counts as generation 0) expired. Anchors of another store
    /// are left to ``QueryAnchor/validate(storeTag:head:)``.
    func check(_ anchor: QueryAnchor, storeTag tag: UInt64) throws {
        guard anchor.seq > 0, anchor.storeTag == nil || anchor.storeTag == tag else { return }
        let later = entries.enumerated().filter { UInt32($0.offset) + 1 > anchor.generation && anchor.seq < $0.element.horizonSeq }
        guard let (_, entry) = later.max(by: { $0.element.horizonSeq < $1.element.horizonSeq }) else { return }
        let date = Timestamp(microseconds: entry.createdMillis * 1000, fractionDigits: 0)
        throw HealthLogError(
            .anchorRefused,
            "anchor \(anchor.token) (sequence \(anchor.seq)) expired: compaction of \(date) dropped deleted history up to sequence \(entry.horizonSeq); resync from 0")
    }
}

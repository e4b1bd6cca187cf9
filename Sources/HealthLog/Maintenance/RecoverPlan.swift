/// What `recover` puts in the new store, decided from the sound batches the scan found:
/// which batches, in what order, which acknowledged sequence numbers are lost, and the
/// timeline starts that record each lost range as an accepted gap.
///
/// Rules. Batches are taken in sequence order; one whose numbers another batch already
/// holds is dropped (a duplicate). Sound batches after the last one that ends an append
/// belong to an append that never finished: they are kept when the checkpoint says they
/// were acknowledged (the last kept one is then marked as ending its append, since the
/// batch that did is lost), and left out as a torn tail otherwise, as any writer would cut
/// them. Every number from 1 to the acknowledged head that no kept batch holds, and that
/// no timeline start of the damaged store already records as discarded, is lost, except a
/// jump between two batches stored one right after the other in the same file: no bytes
/// lie between them, so nothing there was lost, and the jump is history an earlier
/// restore discarded (what its `timelines` would have said, were it readable). Each hole
/// between kept batches becomes a timeline start (``Timelines/Start``) from the last number
/// before it to the first after it, so the new store's continuity checks accept exactly
/// these gaps; a lost tail becomes a start past every number the damaged store may have
/// issued, so no number is ever issued twice.
struct RecoverPlan {
    /// The batches of the new store, in sequence order.
    private(set) var batches: [RecoverScan.SoundBatch] = []
    /// The new store's timelines.
    private(set) var timelines = Timelines()
    /// The acknowledged sequence numbers no sound batch holds.
    private(set) var lost: [ClosedRange<UInt64>] = []
    /// The jumps between adjacent batches that the damaged store's timelines do not record:
    /// history an earlier restore discarded, not lost.
    private(set) var discarded: [ClosedRange<UInt64>] = []
    /// The numbers of sound batches left out as a torn tail.
    private(set) var torn: ClosedRange<UInt64>?
    /// Batches left out because a batch before them holds their numbers.
    private(set) var duplicates = 0

    /// Decides the plan. `acknowledged` is the checkpoint's sequence number, when it could be
    /// read; `issued` the highest number anything in the damaged store names; `source` its
    /// timelines; `timelineID` the identity of the starts this recovery records.
    init(_ found: [RecoverScan.SoundBatch], acknowledged: UInt64?, issued: UInt64, source: Timelines, timelineID: StoreID, now: Int64) {
        var ordered: [RecoverScan.SoundBatch] = []
        for batch in found.enumerated().sorted(by: { ($0.element.firstSeq, $0.offset) < ($1.element.firstSeq, $1.offset) }).map(\.element) {
            if let last = ordered.last, batch.firstSeq <= last.lastSeq {
                duplicates += 1
            } else {
                ordered.append(batch)
            }
        }
        let committed = (ordered.lastIndex { $0.isEndOfAppend }).map { $0 + 1 } ?? 0
        var kept = Array(ordered[..<committed])
        for batch in ordered[committed...] {
            guard let acknowledged, batch.lastSeq <= acknowledged, torn == nil else {
                torn = (torn?.lowerBound ?? batch.firstSeq)...batch.lastSeq
                continue
            }
            kept.append(batch)
        }
        if let last = kept.last, !last.isEndOfAppend { kept[kept.count - 1] = Self.endingAppend(last) }
        batches = kept
        let head = kept.last?.lastSeq ?? 0
        let top = max(head, acknowledged ?? 0)
        var expected: UInt64 = 1
        var previous: RecoverScan.SoundBatch?
        for batch in kept {
            let first = batch.firstSeq
            if first != expected {
                let recorded = source.starts.first { $0.keptSeq == expected - 1 && $0.firstSeq == first }
                if recorded == nil, let previous, Self.isStoredRightAfter(batch, previous) {
                    discarded.append(expected...(first - 1))
                } else {
                    lost += Self.subtract(source, from: expected...(first - 1))
                }
                timelines.starts.append(recorded ?? Timelines.Start(id: timelineID, firstSeq: first, keptSeq: expected - 1, createdMillis: now))
            }
            expected = batch.lastSeq + 1
            previous = batch
        }
        if top > head {
            lost += Self.subtract(source, from: (head + 1)...top)
            let first = max(issued, top, source.nextSeq(head: head) - 1) + 1
            timelines.starts.append(Timelines.Start(id: timelineID, firstSeq: first, keptSeq: head, createdMillis: now))
        } else if let pending = source.starts.last, pending.keptSeq == head, pending.firstSeq > head + 1 {
            timelines.starts.append(pending)
        }
    }

    /// `batch` marked as ending an append (its frames unchanged, its header rewritten).
    static func endingAppend(_ batch: RecoverScan.SoundBatch) -> RecoverScan.SoundBatch {
        var marked = batch
        marked.isEndOfAppend = true
        marked.isHeaderRewritten = true
        return marked
    }

    /// Whether `batch` starts in the same file where `previous` ends, so no byte lies between them.
    static func isStoredRightAfter(_ batch: RecoverScan.SoundBatch, _ previous: RecoverScan.SoundBatch) -> Bool {
        batch.path == previous.path && batch.offset == previous.offset + previous.length
    }

    /// The parts of `range` that no start of `timelines` records as discarded.
    static func subtract(_ timelines: Timelines, from range: ClosedRange<UInt64>) -> [ClosedRange<UInt64>] {
        var pieces = [range]
        for discarded in timelines.starts.compactMap(\.discarded) {
            pieces = pieces.flatMap { piece -> [ClosedRange<UInt64>] in
                guard piece.overlaps(discarded) else { return [piece] }
                var rest: [ClosedRange<UInt64>] = []
                if piece.lowerBound < discarded.lowerBound { rest.append(piece.lowerBound...(discarded.lowerBound - 1)) }
                if piece.upperBound > discarded.upperBound { rest.append((discarded.upperBound + 1)...piece.upperBound) }
                return rest
            }
        }
        return pieces
    }
}

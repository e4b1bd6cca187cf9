#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `compact`: drops the samples deleted at or before a horizon together with their deletes
/// and expires the anchors that would miss them; under the writer lock, crash-safe and
/// safe against concurrent readers.
///
/// 1. Finds the deletes at or before the horizon and, through the UUID index, the add of
///    each deleted sample: those events are dropped.
/// 2. Rewrites each segment holding one as a file of the next generation
///    (`<base>.<g+1>.log.lz4`, `O_EXCL`, 0600), batch by batch: a batch without dropped
///    events is copied byte for byte; in the others, each group holding a dropped event is
///    recompressed without it (a group left empty goes), and the header lists the dropped
///    events (``BatchHeader/dropped``), so the batch keeps its sequence range and flags.
///    Each file is fdatasynced, its index written; then `segments/` is fsynced.
/// 3. Commits by replacing `compactions` (``Compactions``) with one more entry. Until then
///    readers and writers ignore the new files; from then on they use them.
/// 4. Rewrites the checkpoint when its segment was rewritten (the entry already tells
///    readers where it now points), releases the lock and removes the superseded files
///    unless a reader still holds a snapshot (``UnusedSegments``).
///
/// Sequence numbers are never reused and the head stays where it was. With ``rekey``, the
/// segments holding a batch sealed under an older key epoch are rewritten too (a rekey
/// alone commits an entry that drops nothing and expires no anchor), the derived files are
/// rebuilt, and then, unless a reader still holds a superseded segment, the older epochs'
/// keys are removed from every key slot.
struct Compactor {
    /// The store.
    let layout: StoreLayout
    /// The writer's options (lock timeout, test faults).
    let options: StoreOptions
    /// Where to stop; `nil` to drop nothing (a rekey only).
    let horizon: CompactionHorizon?
    /// Whether to also rewrite every segment holding a batch sealed under a key epoch
    /// older than the current one (`compact --rekey`), then rebuild the derived files.
    var rekey = false
    /// Called with (batches done, batches of the segments to rewrite).
    var progress: ((Int, Int) -> Void)?

    /// Compacts; returns what it did.
    ///
    /// - Throws: ``HealthLogError/Code/noStore`` without a store,
    ///   ``HealthLogError/Code/anchorRefused`` for an anchor horizon of another store or past
    ///   the head, and the writer's and the file system's errors. A failure before the commit
    ///   leaves the log as it was (the next writer removes the uncommitted files).
    func run() throws -> CompactReport {
        guard layout.exists else { throw HealthLogError(.noStore, "no healthlog store at \(layout.directory)") }
        let faults = FaultCounter(options.faults)
        var report = try compactHoldingLock(faults)
        do {
            let lock = try WriterLock.acquire(layout, timeout: options.lockTimeout)
            defer { lock.release() }
            report.filesWaitingForReaders = try UnusedSegments.remove(layout, faults: faults).waiting
        }
        guard rekey else { return report }
        // Also after a rekey killed before its reindex: the derived files are sealed anew
        // before any epoch they may still use is dropped.
        _ = try Reindexer(layout: layout, options: options, progress: nil).run()
        if report.filesWaitingForReaders == 0 { report.epochsDropped = try dropOlderEpochs() }
        return report
    }

    /// Removes from every key slot the key epochs below the current one (one above it, left
    /// by a rotation killed part-way, stays, so no later rotation reuses its number), once the
    /// rewrite left no segment in use sealed under them and no reader (a backup) holds a
    /// superseded one; under the writer lock. Returns the epochs removed.
    private func dropOlderEpochs() throws -> [UInt32] {
        let lock = try WriterLock.acquire(layout, timeout: options.lockTimeout)
        defer { lock.release() }
        let snapshot = try LogSnapshot(layout)
        guard let cipher = snapshot.cipher, FileDescriptor.exists(layout.keySlots), try staleSegments(snapshot).isEmpty else { return [] }
        // Every older epoch any slot still names, not only those this handle opened: a rekey
        // killed part-way through the drop leaves an older epoch in the slots it had not reached.
        let named = Set(cipher.epochs + (try KeySlots.read(layout).compactMap(\.slot).flatMap(\.epochs)))
        let older = named.filter { $0 < cipher.currentEpoch }.sorted()
        for epoch in older { try KeySlots.dropEpoch(epoch, layout: layout) }
        return older
    }

    /// The segments of `snapshot` holding a batch sealed under a key epoch other than the
    /// current one (none in a plaintext store).
    private func staleSegments(_ snapshot: LogSnapshot) throws -> [Int] {
        guard rekey else { return [] }
        guard let cipher = snapshot.cipher else {
            throw HealthLogError(.badUsage, "\(layout.directory) is not encrypted: there is no key to rotate")
        }
        guard let point = snapshot.appendPoint else { return [] }
        return try (0...point.segment).filter { index in
            defer { snapshot.releaseBatches(inSegment: index) }
            var payloads = StoredHeaderPayloads(layout, snapshot.segments[index].name)
            return try snapshot.batches(inSegment: index).contains { batch in
                let payload = try payloads.payload(of: batch)
                let epoch = payload.withUnsafeBytes { StoreCipher.epoch(of: UnsafeRawBufferPointer(rebasing: $0[BatchHeader.FixedFields.length...])) }
                return epoch != cipher.currentEpoch
            }
        }
    }

    /// Steps 1 to 4 up to the checkpoint, holding the writer lock.
    private func compactHoldingLock(_ faults: FaultCounter) throws -> CompactReport {
        let writer = try LogWriter(layout, options: options)
        var report = CompactReport(recoveredTail: writer.recoveredTail)
        guard let snapshot = writer.snapshot else { return report }
        report.segments = snapshot.appendPoint.map { $0.segment + 1 } ?? 0
        report.bytesBefore = try segmentBytes(snapshot)
        report.bytesAfter = report.bytesBefore
        let horizonSeq = try resolve(snapshot)
        report.horizonSeq = horizonSeq
        let compactions = snapshot.compactions
        let stale = try staleSegments(snapshot)
        // Where the batches lie, read once for the plan and the progress total.
        let spans = horizonSeq > (compactions.entries.map(\.horizonSeq).max() ?? 0) ? try snapshot.batchSpans() : nil
        let plan = try spans.map { try CompactionPlan(snapshot, horizonSeq: horizonSeq, spans: $0, residentKeys: options.compactionResidentKeys) }
        let dropped = plan?.dropped ?? DroppedEvents()
        guard !dropped.isEmpty || !stale.isEmpty else { return report }
        report.deletesDropped = plan?.deleteCount ?? 0
        report.eventsDropped = dropped.count
        let generation = compactions.generation + 1
        let rewriting = Set((plan?.segments ?? []) + stale)
        let segmentsToRewrite = rewriting.sorted()
        var checkpointMove: (before: Checkpoint, newOffset: UInt64)?
        var newBytes: [Int: Int] = [:]
        let total = try (spans ?? snapshot.batchSpans()).reduce(0) { $0 + (rewriting.contains($1.segment) ? 1 : 0) }
        var done = 0
        for index in segmentsToRewrite {
            let rewriter = SegmentRewriter(layout: layout, snapshot: snapshot, generation: generation, faults: faults)
            let rewritten = try rewriter.rewrite(segment: index, dropping: dropped) {
                progress?(done, total)
                done += 1
            }
            snapshot.releaseBatches(inSegment: index)
            newBytes[index] = rewritten.size
            if let checkpoint = snapshot.checkpoint, checkpoint.segmentBase == snapshot.segments[index].name.baseSeq,
                let moved = rewritten.endOffsets[Int(clamping: checkpoint.endOffset)]
            {
                checkpointMove = (checkpoint, UInt64(moved))
            }
            faults.reach(.compactSegmentWritten)
        }
        progress?(total, total)
        try dropped.checkAllGiven()
        try DurableFile.syncDirectory(layout.segments)
        faults.reach(.compactSynced)
        var next = compactions
        next.entries.append(
            Compactions.Entry(
                horizonSeq: dropped.isEmpty ? 0 : horizonSeq, createdMillis: Clock.nowMillis(), droppedEvents: UInt64(dropped.count),
                checkpointBefore: checkpointMove?.before, checkpointNewOffset: checkpointMove?.newOffset ?? 0))
        try next.write(layout)
        faults.reach(.compactCommitted)
        if let checkpointMove {
            var moved = checkpointMove.before
            moved.endOffset = checkpointMove.newOffset
            try moved.write(layout, sync: true)
            try DurableFile.syncDirectory(layout.directory)
            faults.reach(.compactCheckpointWritten)
        }
        report.generation = generation
        report.segmentsRewritten = segmentsToRewrite.count
        report.bytesAfter = report.bytesBefore - segmentsToRewrite.reduce(0) { $0 + snapshotSize(snapshot, $1) - (newBytes[$1] ?? 0) }
        return report
    }

    /// The horizon as a sequence number of `snapshot`'s log.
    private func resolve(_ snapshot: LogSnapshot) throws -> UInt64 {
        guard let horizon else { return 0 }
        switch horizon {
        case .anchor(let anchor):
            try anchor.validate(storeTag: snapshot.meta.storeID.tag, head: snapshot.headSeq)
            return anchor.seq
        case .date(let date):
            let millis = date.microseconds / 1000
            var seq: UInt64 = 0
            // A segment at a time, each batch table let go once read, as the plan reads them.
            for segment in snapshot.segments.indices {
                defer { snapshot.releaseBatches(inSegment: segment) }
                for batch in try snapshot.batches(inSegment: segment) {
                    guard batch.header.appendedMillis < millis else { return seq }
                    seq = batch.header.lastSeq
                }
            }
            return seq
        }
    }

    /// The committed bytes of the snapshot's segments.
    private func segmentBytes(_ snapshot: LogSnapshot) throws -> Int {
        guard let point = snapshot.appendPoint else { return 0 }
        return (0...point.segment).reduce(0) { $0 + snapshotSize(snapshot, $1) }
    }

    /// The committed length of segment `index` (up to the append point for the last one).
    private func snapshotSize(_ snapshot: LogSnapshot, _ index: Int) -> Int {
        if let point = snapshot.appendPoint, point.segment == index { return point.offset }
        return snapshot.segments[index].size
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a point-in-time restore (``RestorePoint``) ends the restored log, and the cut made
/// there in the backup's copy beside the target.
///
/// The cut is the end of the last whole append the point keeps, found from the batch
/// headers: for an anchor, the last batch flagged end-of-append whose last sequence number
/// is at or below the anchor's (an append the anchor falls inside of ends past it and is
/// dropped whole); for a date, the last end-of-append batch before the first batch
/// appended after the date (every batch of an append records the same append time), or
/// ending an append that committed after it (where the batch records its commit). So
/// the restored log is always a prefix of the backup's, ending at a batch boundary that
/// ends an append: never part of one.
struct RestoreCut {
    /// The last sequence number kept (0 when the point keeps nothing).
    let keptSeq: UInt64
    /// The segment holding the last kept batch and the offset just past it (`nil` when
    /// nothing is kept), and whether that is the segment's end.
    let end: (name: SegmentName, offset: Int, isSegmentEnd: Bool)?
    /// Whether the cut keeps the backup's whole log (nothing to cut).
    let isWholeLog: Bool

    /// Refuses, with ``HealthLogError/Code/anchorRefused``, a point the backup cannot name:
    /// an anchor of another store, past the backup's head, or inside history the backup had
    /// itself discarded (an earlier restore's gap, from its timelines), and a date after the
    /// backup was taken (it cannot know what was committed later). Called before anything
    /// is written.
    static func check(_ point: RestorePoint, against source: BackupSource) throws {
        let manifest = source.manifest
        let backup = source.directory
        switch point {
        case .anchor(let anchor):
            if let tag = anchor.storeTag, tag != manifest.storeID.tag {
                throw HealthLogError(.anchorRefused, "anchor \(anchor.token) belongs to another store, not the one backed up in \(backup); nothing was restored")
            }
            guard anchor.seq <= manifest.headSeq else {
                throw HealthLogError(
                    .anchorRefused, "anchor \(anchor.token) (sequence \(anchor.seq)) is past the head of the backup in \(backup), sequence \(manifest.headSeq); nothing was restored")
            }
            if let start = try source.timelines().discarding(anchor.seq), let range = start.discarded {
                let date = Timestamp(microseconds: start.createdMillis * 1000, fractionDigits: 0)
                throw HealthLogError(
                    .anchorRefused,
                    "anchor \(anchor.token) (sequence \(anchor.seq)) names history the backup in \(backup) had itself discarded, in the restore of \(date) (sequence \(range.lowerBound)…\(range.upperBound)); restore to a point at or before \(start.keptSeq) or at or after \(start.firstSeq). Nothing was restored")
            }
        case .date(let date):
            let taken = Timestamp(microseconds: manifest.createdMillis * 1000, fractionDigits: 3)
            guard date.microseconds <= manifest.createdMillis * 1000 else {
                throw HealthLogError(
                    .anchorRefused,
                    "\(date) is after the backup in \(backup) was taken (\(taken)): it cannot know what was committed since; restore without --to to bring back all of it. Nothing was restored")
            }
        }
    }

    /// Finds the cut `point` (already passed by ``check(_:against:)``) makes in the backup
    /// copied (whole, digests checked) at `layout`.
    static func find(_ point: RestorePoint, in layout: StoreLayout) throws -> RestoreCut {
        let snapshot = try LogSnapshot(layout)
        var last: BatchRef?
        scan: for index in snapshot.segments.indices {
            for batch in try snapshot.batches(inSegment: index) {
                if isPast(batch.header, point) { break scan }
                if batch.header.isEndOfAppend { last = batch }
            }
        }
        guard let last else { return RestoreCut(keptSeq: 0, end: nil, isWholeLog: snapshot.headSeq == 0) }
        let file = snapshot.segments[last.segment]
        return RestoreCut(
            keptSeq: last.header.lastSeq, end: (file.name, last.end, last.end == file.size), isWholeLog: last.header.lastSeq == snapshot.headSeq)
    }

    /// Refuses, with ``HealthLogError/Code/anchorRefused``, a cut that keeps no event of a
    /// backup that holds some, unless `point` is the anchor `0`, which asks for that.
    func refuseKeepingNothing(_ point: RestorePoint, backup: String) throws {
        guard keptSeq == 0, !isWholeLog else { return }
        if case .anchor(let anchor) = point, anchor.seq == 0 { return }
        throw HealthLogError(
            .anchorRefused,
            "restoring \(backup) to \(point) would keep no event: the backup's first append ends after it ('healthlog --store \(backup) log' lists its appends); to empty the store on purpose, give --to 0. Nothing was restored")
    }

    /// Whether `header`'s batch lies past `point`: it holds a number above the anchor's, or
    /// was appended after the date, or ends an append that committed after it.
    private static func isPast(_ header: BatchHeader, _ point: RestorePoint) -> Bool {
        switch point {
        case .anchor(let anchor):
            return header.lastSeq > anchor.seq
        case .date(let date):
            let millis = date.microseconds >= 0 ? date.microseconds / 1000 : (date.microseconds - 999) / 1000
            return header.appendedMillis > millis || (header.origin?.committedMillis ?? 0) > millis
        }
    }

    /// Cuts the copy at `layout` here: the segments after the last kept one removed with
    /// their indexes, the last kept one truncated just past the cut and fsynced (its index
    /// removed when it no longer covers the file; the next writer rebuilds it), and the
    /// checkpoint rewritten durably to name the cut (removed when nothing is kept). The
    /// caller fsyncs the directories.
    func apply(to layout: StoreLayout) throws {
        guard !isWholeLog else { return }
        let names = try layout.listSegments()
        let keptCount = end.flatMap { end in names.firstIndex(of: end.name).map { $0 + 1 } } ?? 0
        for name in names[keptCount...] {
            try Self.remove(layout.segment(baseSeq: name.baseSeq, generation: name.generation))
            try Self.remove(SegmentIndex.path(layout, name))
        }
        guard let end else {
            try Self.remove(layout.checkpoint)
            return
        }
        if !end.isSegmentEnd {
            let fd = try FileDescriptor.open(layout.segment(baseSeq: end.name.baseSeq, generation: end.name.generation), flags: O_RDWR)
            defer { fd.close() }
            try fd.truncate(to: end.offset)
            try fd.sync()
            try Self.remove(SegmentIndex.path(layout, end.name))
        }
        try Checkpoint(seq: keptSeq, segmentBase: end.name.baseSeq, endOffset: UInt64(end.offset)).write(layout, sync: true)
    }

    /// Removes the file at `path` if there is one.
    private static func remove(_ path: String) throws {
        guard unlink(path) != 0 else { return }
        let err = errno
        guard err == ENOENT else { throw HealthLogError(.io, "cannot remove \(path): \(describeErrno(err))", errno: err) }
    }
}

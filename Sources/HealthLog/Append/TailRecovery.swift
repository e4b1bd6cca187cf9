#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a writer does to the log it opens, before it appends: cuts the torn tail the
/// snapshot found and rewrites the segment indexes the snapshot could not use.
enum TailRecovery {
    /// Cuts `snapshot`'s torn tail: removes every segment after the one holding the append
    /// point, last first (with their indexes), then truncates that one there and fsyncs it.
    /// Without an append point (no segment can take an append: its prologue is broken)
    /// every segment goes. Killed at any step, the writer leaves a prefix of the log ending
    /// in a torn tail: removing the first segment first would leave a log that starts past
    /// sequence 1 (or jumps a gap), which is damage, not a torn tail.
    static func cut(_ snapshot: LogSnapshot, _ layout: StoreLayout, faults: FaultCounter) throws {
        let point = snapshot.appendPoint
        for (index, file) in snapshot.segments.enumerated().reversed() {
            let path = layout.segment(baseSeq: file.name.baseSeq, generation: file.name.generation)
            if let point, index < point.segment { continue }
            if let point, index == point.segment {
                let fd = try FileDescriptor.open(path, flags: O_RDWR)
                defer { fd.close() }
                try fd.truncate(to: point.offset)
                try fd.sync()
            } else {
                try retryingOnInterrupt("cannot remove", path: path) { unlink(path) }
                unlink(SegmentIndex.path(layout, file.name))
                faults.reach(.unfinishedSegmentRemoved)
            }
        }
        try DurableFile.syncDirectory(layout.segments)
    }

    /// Rewrites the index of every segment that needs one: those the scan found missing,
    /// stale or unusable, and sealed segments whose index body is damaged or disagrees with
    /// the segment. Indexes are
    /// derived, so a failure here is left for the next writer or `reindex`.
    static func repairIndexes(_ snapshot: LogSnapshot, _ layout: StoreLayout) {
        let damagedPrefix = (0..<snapshot.prefixSegmentCount).filter { !SegmentIndex.vouches(layout, for: snapshot.segments[$0]) }
        for index in snapshot.segmentsNeedingIndex + damagedPrefix where index < snapshot.segments.count {
            let name = snapshot.segments[index].name
            guard FileDescriptor.exists(layout.segment(baseSeq: name.baseSeq, generation: name.generation)) else { continue }
            try? SegmentIndex.write(layout, name: name, batches: snapshot.batches(inSegment: index), cipher: snapshot.cipher)
        }
    }
}

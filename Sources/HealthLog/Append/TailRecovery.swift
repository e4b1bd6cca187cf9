#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a writer does to the log it opens, before it appends: cuts the torn tail the
/// snapshot found and rewrites the segment indexes the snapshot could not use.
enum TailRecovery {
    /// Cuts `snapshot`'s torn tail: truncates the segment holding the append point there
    /// (and fsyncs it) and removes every later segment with its index. Without an append
    /// point (no segment can take an append: its prologue is broken) every segment goes.
    static func cut(_ snapshot: LogSnapshot, _ layout: StoreLayout) throws {
        let point = snapshot.appendPoint
        for (index, file) in snapshot.segments.enumerated() {
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
            }
        }
        try DurableFile.syncDirectory(layout.segments)
    }

    /// Rewrites the index of every segment that needs one: those the scan found missing,
    /// stale or unusable, and sealed segments whose index body is damaged. Indexes are
    /// derived, so a failure here is left for the next writer or `reindex`.
    static func repairIndexes(_ snapshot: LogSnapshot, _ layout: StoreLayout) {
        let damagedPrefix = (0..<snapshot.prefixSegmentCount).filter { !SegmentIndex.isSound(layout, snapshot.segments[$0].name) }
        for index in snapshot.segmentsNeedingIndex + damagedPrefix where index < snapshot.segments.count {
            let name = snapshot.segments[index].name
            guard FileDescriptor.exists(layout.segment(baseSeq: name.baseSeq, generation: name.generation)) else { continue }
            try? SegmentIndex(name: name, batches: snapshot.batches(inSegment: index)).write(layout)
        }
    }
}

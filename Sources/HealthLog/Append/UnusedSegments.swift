#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The segment files `compact` leaves behind (see ``Compactions``): those of an unfinished
/// compaction (a generation above the committed one), which no reader ever lists, and
/// those a committed compaction superseded, which a reader whose snapshot began before
/// the commit may still open.
///
/// Writer-only. The first kind is removed whenever a writer opens (when the file it would
/// have replaced is still there); the second only while
/// the writer holds the readers' lock exclusively (``ReaderLock/tryExclusive(_:)``), that
/// is when no snapshot is open anywhere; otherwise they wait for a later writer.
enum UnusedSegments {
    /// What a removal did.
    struct Removal: Equatable {
        /// Files removed (segments and their indexes).
        var files = 0
        /// Their bytes.
        var bytes = 0
        /// Superseded segments left in place because a reader holds a snapshot.
        var waiting = 0
    }

    /// Removes the unused segment files of `layout` and their indexes. Call holding the
    /// writer lock and no snapshot of this process (a snapshot holds the readers' lock
    /// shared, which would keep the superseded ones).
    ///
    /// - Throws: when `segments/` cannot be listed, the compactions file does not decode,
    ///   or a file cannot be removed.
    static func remove(_ layout: StoreLayout, faults: FaultCounter) throws -> Removal {
        let names = try layout.listSegments()
        guard names.contains(where: { $0.generation > 0 }) else { return Removal() }
        let compactions = try Compactions.read(layout)
        let unused = compactions.unused(names)
        guard !unused.isEmpty else { return Removal() }
        // A file of an uncommitted generation is removed only while the file it would
        // have replaced is still there: without one, the `compactions` file that commits
        // it is what is missing, and removing it would lose events (readers report the gap).
        let inUseBases = Set(compactions.current(names).map(\.baseSeq))
        let unfinished = unused.filter { $0.generation > compactions.generation && inUseBases.contains($0.baseSeq) }
        let superseded = unused.filter { $0.generation <= compactions.generation }
        var removal = Removal()
        try unlinkAll(unfinished, layout, faults: faults, &removal)
        if !superseded.isEmpty {
            if let lock = try ReaderLock.tryExclusive(layout) {
                try withExtendedLifetime(lock) { try unlinkAll(superseded, layout, faults: faults, &removal) }
            } else {
                removal.waiting = superseded.count
            }
        }
        if removal.files > 0 { try DurableFile.syncDirectory(layout.segments) }
        return removal
    }

    /// Unlinks each segment of `names` and its index, counting them in `removal`.
    private static func unlinkAll(_ names: [SegmentName], _ layout: StoreLayout, faults: FaultCounter, _ removal: inout Removal) throws {
        for name in names {
            for path in [SegmentIndex.path(layout, name), layout.segment(baseSeq: name.baseSeq, generation: name.generation)] {
                let size = (try FileStatus.of(path: path))?.size ?? 0
                if unlink(path) != 0 {
                    let err = errno
                    guard err == ENOENT else { throw HealthLogError(.io, "cannot remove \(path): \(describeErrno(err))", errno: err) }
                    continue
                }
                removal.files += 1
                removal.bytes += size
                faults.reach(.unusedSegmentRemoved)
            }
        }
    }
}

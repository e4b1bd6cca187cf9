#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Copies a store into another directory while writers keep writing: the copy holds
/// exactly the appends committed when it began, is itself a store (`--store DEST` reads
/// it), and is verified before it is reported done.
///
/// Segments are immutable once sealed, so a sealed segment already in the destination
/// with the same name and size is kept; the last segment, which grows, is copied up to
/// the last committed batch. Sealed segments' indexes go along; the UUID index does not
/// (it is derived, and a writer on the copy rebuilds it). The copy's checkpoint marks its
/// head, files are 0600 and directories 0700, every file is fsynced before its rename,
/// and the directories after.
struct Backup {
    let source: StoreLayout
    let destination: StoreLayout
    let progress: ((Int, Int) -> Void)?

    func run() throws -> BackupReport {
        let snapshot = try LogSnapshot(source)
        try prepareDestination(snapshot.meta)
        var report = BackupReport(headSeq: snapshot.headSeq)
        let keep = Set(snapshot.segments.map(\.name))
        for (index, file) in snapshot.segments.enumerated() {
            progress?(index, snapshot.segments.count)
            let isLast = index == snapshot.segments.count - 1
            let length = isLast ? (snapshot.appendPoint?.offset ?? file.size) : file.size
            let target = destination.segment(baseSeq: file.name.baseSeq, generation: file.name.generation)
            if Self.size(of: target) == length {
                report.filesKept += 1
            } else {
                let path = source.segment(baseSeq: file.name.baseSeq, generation: file.name.generation)
                report.bytesWritten += try FileCopy.copy(path, length: length, to: target)
                report.filesWritten += 1
            }
            if !isLast { try copyIndex(file.name, &report) }
        }
        for name in try destination.listSegments() where !keep.contains(name) {
            unlink(destination.segment(baseSeq: name.baseSeq, generation: name.generation))
            unlink(SegmentIndex.path(destination, name))
            report.filesRemoved += 1
        }
        if let point = snapshot.appendPoint, snapshot.headSeq > 0 {
            let name = snapshot.segments[point.segment].name
            try Checkpoint(seq: snapshot.headSeq, segmentBase: name.baseSeq, endOffset: UInt64(point.offset)).write(destination, sync: true)
        }
        try DurableFile.syncDirectory(destination.segments)
        try DurableFile.syncDirectory(destination.directory)
        progress?(snapshot.segments.count, snapshot.segments.count)
        let check = try Verifier(layout: destination, progress: nil).run()
        guard check.isSound, check.events == snapshot.headSeq else {
            throw HealthLogError(
                .corrupt,
                "the backup in \(destination.directory) failed verification: \(check.problems.first ?? "it holds \(check.events) events, the store \(snapshot.headSeq)")")
        }
        return report
    }

    /// Creates the destination (0700) or checks that it is empty or a backup of this store.
    private func prepareDestination(_ meta: StoreMeta) throws {
        if mkdir(destination.directory, 0o700) != 0 {
            guard errno == EEXIST else {
                throw HealthLogError(.io, "cannot create \(destination.directory): \(describeErrno(errno))", errno: errno)
            }
            if destination.exists {
                let existing = try StoreMeta.read(destination)
                guard existing.storeID == meta.storeID else {
                    throw HealthLogError(.badUsage, "\(destination.directory) holds another store; back up into an empty directory or an earlier backup of this store")
                }
            } else if !(try DirectoryListing.names(in: destination.directory, isNamedByUser: true)).isEmpty {
                throw HealthLogError(.badUsage, "\(destination.directory) is not empty and holds no store; back up into an empty directory or an earlier backup of this store")
            } else {
                try OwnedDirectory.check(destination.directory, isPrivate: true, isNamedByUser: true)
            }
        }
        try OwnedDirectory.prepare(destination.segments)
        try DurableFile.replace(destination.meta, with: Array(meta.text.utf8))
    }

    /// Copies a sealed segment's index unless the destination has it at the same size.
    private func copyIndex(_ name: SegmentName, _ report: inout BackupReport) throws {
        let path = SegmentIndex.path(source, name)
        let target = SegmentIndex.path(destination, name)
        guard let length = Self.size(of: path) else { return }
        if Self.size(of: target) == length {
            report.filesKept += 1
        } else {
            report.bytesWritten += try FileCopy.copy(path, length: length, to: target)
            report.filesWritten += 1
        }
    }

    /// The size of the file at `path`, or `nil` when there is none.
    private static func size(of path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : nil
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Copies a store into another directory while writers keep writing: the copy holds
/// exactly the appends committed when it began, is itself a store (`--store DEST` reads
/// it), and is verified before it is reported done.
///
/// Segments are immutable once sealed, but a copy of one in the destination may have been
/// damaged since, so a file already there is kept only when it is byte-identical to what
/// the store holds (``FileCopy/isCopy(_:of:length:)``), and replaced otherwise. The segment
/// holding the append point is copied up to the last committed batch; segments after it
/// hold only a torn tail and are not copied. Sealed segments' indexes go along; the UUID
/// index does not (it is derived, and a writer on the copy rebuilds it). The copy's
/// checkpoint marks its head, files are 0600 and directories 0700, every file is fsynced
/// before its rename, and the directories after. The destination must not be the store or
/// lie inside it (``BackupTarget``).
///
/// The store's `timelines` and `compactions` go along when it has them. Last, once the copy verified, the
/// ``BackupManifest`` is written (temporary, fsync, rename, directory fsync): every file
/// with its size and SHA-256, the store, timeline and head. The old manifest is removed
/// first, so a backup that did not finish has none and no restore takes it.
struct Backup {
    /// The store backed up.
    let source: StoreLayout
    /// The backup directory.
    let destination: StoreLayout
    /// Called with (segments done, segments).
    let progress: ((Int, Int) -> Void)?

    /// Takes the backup and verifies it; returns what it wrote, kept and removed.
    func run() throws -> BackupReport {
        let snapshot = try LogSnapshot(source)
        try BackupTarget.check(destination.directory, store: source.directory)
        try prepareDestination(snapshot.meta)
        unlink(destination.directory + "/" + Self.manifestName)
        var entries: [BackupManifest.Entry] = []
        var report = BackupReport(headSeq: snapshot.headSeq)
        let copied = snapshot.appendPoint.map { Array(snapshot.segments[...$0.segment]) } ?? []
        for (index, file) in copied.enumerated() {
            progress?(index, copied.count)
            let isGrowing = index == copied.count - 1
            let length = isGrowing ? (snapshot.appendPoint?.offset ?? file.size) : file.size
            let path = source.segment(baseSeq: file.name.baseSeq, generation: file.name.generation)
            let target = destination.segment(baseSeq: file.name.baseSeq, generation: file.name.generation)
            entries.append(try copyUnlessSame(path, length: length, to: target, as: "segments/" + file.name.fileName, &report))
            if !isGrowing, let index = try copyIndex(file.name, &report) { entries.append(index) }
        }
        let keep = Set(copied.map(\.name))
        for name in try destination.listSegments() where !keep.contains(name) {
            unlink(destination.segment(baseSeq: name.baseSeq, generation: name.generation))
            unlink(SegmentIndex.path(destination, name))
            report.filesRemoved += 1
        }
        if let point = snapshot.appendPoint, snapshot.headSeq > 0 {
            let name = snapshot.segments[point.segment].name
            try Checkpoint(seq: snapshot.headSeq, segmentBase: name.baseSeq, endOffset: UInt64(point.offset)).write(destination, sync: true)
        }
        if snapshot.timelines.starts.isEmpty {
            unlink(destination.timelines)
        } else {
            try snapshot.timelines.write(destination)
        }
        if snapshot.compactions.entries.isEmpty {
            unlink(destination.compactions)
        } else {
            try snapshot.compactions.write(destination)
        }
        try DurableFile.syncDirectory(destination.segments)
        try DurableFile.syncDirectory(destination.directory)
        progress?(copied.count, copied.count)
        let check = try Verifier(layout: destination, progress: nil).run()
        guard check.isSound, check.headSeq == snapshot.headSeq else {
            throw HealthLogError(
                .corrupt,
                "the backup in \(destination.directory) failed verification: \(check.problems.first ?? "it ends at sequence \(check.headSeq), the store at \(snapshot.headSeq)")")
        }
        try writeManifest(snapshot, entries: entries)
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

    /// The manifest's name in a backup directory.
    static let manifestName = "manifest"

    /// Writes the manifest: `meta`, the segments and indexes in `copied` (digested as they
    /// were kept or copied), then the checkpoint, the timelines and the compactions, the small files digested
    /// as they now are in the destination.
    private func writeManifest(_ snapshot: LogSnapshot, entries copied: [BackupManifest.Entry]) throws {
        func entry(_ path: String) throws -> BackupManifest.Entry {
            let digest = try FileDigest.of(destination.directory + "/" + path)
            return BackupManifest.Entry(path: path, size: digest.size, sha256: digest.sha256)
        }
        var entries = [try entry("meta")] + copied
        for path in ["checkpoint", "timelines", "compactions"] where FileDescriptor.exists(destination.directory + "/" + path) {
            entries.append(try entry(path))
        }
        let manifest = BackupManifest(
            storeID: snapshot.meta.storeID, timelineID: snapshot.timelines.starts.last?.id ?? snapshot.meta.storeID, headSeq: snapshot.headSeq,
            createdMillis: Clock.nowMillis(), entries: entries)
        try DurableFile.replace(destination.directory + "/" + Self.manifestName, with: Array(try manifest.text().utf8))
    }

    /// Copies a sealed segment's index unless the destination holds the same bytes; removes
    /// the destination's when the store has none (the copy's writer rebuilds it). Returns
    /// its manifest entry when the destination now has it.
    private func copyIndex(_ name: SegmentName, _ report: inout BackupReport) throws -> BackupManifest.Entry? {
        let path = SegmentIndex.path(source, name)
        let target = SegmentIndex.path(destination, name)
        guard let length = Self.size(of: path) else {
            unlink(target)
            return nil
        }
        return try copyUnlessSame(path, length: length, to: target, as: "segments/" + Self.fileName(target), &report)
    }

    /// The last component of `path`.
    private static func fileName(_ path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }

    /// Keeps `target` when it is byte-identical to the first `length` bytes of `path`;
    /// otherwise copies them over it atomically. Returns the manifest entry of `target`
    /// (named `relative`), digested in the same pass that compared or copied it.
    private func copyUnlessSame(_ path: String, length: Int, to target: String, as relative: String, _ report: inout BackupReport) throws -> BackupManifest.Entry {
        let kept = try SHA256Digest()
        if try FileCopy.isCopy(target, of: path, length: length, digest: kept) {
            report.filesKept += 1
            return BackupManifest.Entry(path: relative, size: length, sha256: try kept.finish())
        }
        let copied = try SHA256Digest()
        report.bytesWritten += try FileCopy.copy(path, length: length, to: target, digest: copied)
        report.filesWritten += 1
        return BackupManifest.Entry(path: relative, size: length, sha256: try copied.finish())
    }

    /// The size of the file at `path`, or `nil` when there is none.
    private static func size(of path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : nil
    }
}

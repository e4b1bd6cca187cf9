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
/// the store holds (``FileCopy/isCopy(_:of:length:digest:)``), and replaced otherwise. The segment
/// holding the append point is copied up to the last committed batch; segments after it
/// hold only a torn tail and are not copied. Sealed segments' indexes go along; the UUID
/// index does not (it is derived, and a writer on the copy rebuilds it). The copy's
/// checkpoint marks its head, files are 0600 and directories 0700, every file is fsynced
/// before its rename, and the directories after. The destination must not be the store or
/// lie inside it (``BackupTarget``).
///
/// An encrypted store is backed up without its key: the snapshot reads its batch headers
/// as shells (``LogSnapshot/readsShells``), the ciphertext is copied byte for byte, and
/// the copy is checked by what its checksums and fixed fields allow (``Verifier/keyless``).
/// Its key slots (`keys/*.slot`) go along, so a restore opens the copy with any secret
/// that opened the store when the backup was taken; a slot the store no longer has is
/// removed from the backup.
///
/// The store's `timelines` and `compactions` go along when it has them. `meta`, the
/// checkpoint, `timelines` and `compactions` are replaced only when their bytes change, so
/// a backup of an unchanged store leaves them untouched. Last, once the copy verified, the
/// ``BackupManifest`` is written (temporary, fsync, rename, directory fsync): every file
/// with its size and SHA-256, the store, timeline and head. The old manifest is removed
/// first, so a backup that did not finish has none and no restore takes it.
///
/// A continuous backup's rounds (``run(remembering:)``) carry a ``BackupMemory`` from one
/// round to the next, so a round after an append reads, digests and verifies only the
/// bytes the append added.
struct Backup {
    /// The store backed up.
    let source: StoreLayout
    /// The backup directory.
    let destination: StoreLayout
    /// Called with (segments done, segments).
    let progress: ((Int, Int) -> Void)?

    /// Takes the backup and verifies it; returns what it wrote, kept and removed.
    func run() throws -> BackupReport {
        var memory: BackupMemory?
        return try run(remembering: &memory)
    }

    /// Takes the backup as ``run()`` does, using and then replacing `memory`, what the
    /// previous round of a continuous backup left (``BackupMemory``): remembered files that
    /// are unchanged on both sides are kept without being read, the growing segment gets
    /// only its new bytes appended and digested, and when nothing else changed only those
    /// new bytes are verified (each batch header's CRC-32C, the store tag, sequence
    /// continuity, every frame's CRC-32C, ending at the snapshot's head) instead of the
    /// whole copy. Any other change (a new, replaced or removed file, another timeline) is
    /// handled and verified as in a one-off backup. `memory` is `nil` after a round that failed.
    func run(remembering memory: inout BackupMemory?) throws -> BackupReport {
        let snapshot = try LogSnapshot(source, keyless: true)
        try BackupTarget.check(destination.directory, store: source.directory)
        let known = memory.flatMap { $0.storeID == snapshot.meta.storeID && $0.timelines == snapshot.timelines ? $0 : nil }
        memory = nil
        var next = BackupMemory(storeID: snapshot.meta.storeID, timelines: snapshot.timelines, headSeq: snapshot.headSeq)
        if known == nil || !Self.isUnchanged("meta", known, at: destination.meta) { try prepareDestination(snapshot.meta) }
        unlink(destination.directory + "/" + Self.manifestName)
        var entries: [BackupManifest.Entry] = []
        var report = BackupReport(
            headSeq: snapshot.headSeq,
            headAnchor: QueryAnchor(seq: snapshot.headSeq, storeTag: snapshot.meta.storeID.tag, generation: snapshot.compactions.generation))
        var isVerifiedByParts = known != nil
        var appended: [(path: String, from: Int, to: Int)] = []
        let copied = snapshot.appendPoint.map { Array(snapshot.segments[...$0.segment]) } ?? []
        for (index, file) in copied.enumerated() {
            progress?(index, copied.count)
            let isGrowing = index == copied.count - 1
            let length = isGrowing ? (snapshot.appendPoint?.offset ?? file.size) : file.size
            let path = source.segment(baseSeq: file.name.baseSeq, generation: file.name.generation)
            let target = destination.segment(baseSeq: file.name.baseSeq, generation: file.name.generation)
            let relative = "segments/" + file.name.fileName
            if let known, let extended = try extend(known, relative, from: path, length: length, to: target, file.status, &next) {
                entries.append(extended.entry)
                if extended.from < length { appended.append((target, extended.from, length)) }
                report.filesKept += extended.from == length ? 1 : 0
                report.filesWritten += extended.from == length ? 0 : 1
                report.bytesWritten += length - extended.from
            } else if let known, let kept = Self.unchanged(known, relative, length: length, source: file.status, target: target) {
                entries.append(kept.entry)
                next.files[relative] = kept
                report.filesKept += 1
            } else {
                isVerifiedByParts = false
                let (entry, digest) = try copyUnlessSame(path, length: length, to: target, as: relative, &report)
                entries.append(entry)
                try remember(entry, source: file.status, target: target, in: &next)
                if isGrowing { next.growing = (relative, digest) }
            }
            if isGrowing {
                // The copy ends at the append point, so no index covers it; one an earlier
                // backup left under this name (the segment was sealed then, in a history a
                // restore has since replaced) would not match it.
                unlink(SegmentIndex.path(destination, file.name))
            } else if let index = try copyIndex(file.name, known, &next, &report, verifiedByParts: &isVerifiedByParts) {
                entries.append(index)
            }
        }
        let keep = Set(copied.map(\.name))
        for name in try destination.listSegments() where !keep.contains(name) {
            unlink(destination.segment(baseSeq: name.baseSeq, generation: name.generation))
            unlink(SegmentIndex.path(destination, name))
            report.filesRemoved += 1
            isVerifiedByParts = false
        }
        entries += try copyKeySlots(&report)
        if let point = snapshot.appendPoint, snapshot.headSeq > 0 {
            let name = snapshot.segments[point.segment].name
            let checkpoint = Checkpoint(seq: snapshot.headSeq, segmentBase: name.baseSeq, endOffset: UInt64(point.offset))
            try DurableFile.replaceUnlessSame(destination.checkpoint, with: checkpoint.encoded(), syncDirectory: false)
        } else {
            // An empty log (a point-in-time restore that kept nothing): a checkpoint an
            // earlier backup left would name events the copy does not hold.
            unlink(destination.checkpoint)
        }
        if known == nil || !Self.isUnchanged("timelines", known, at: destination.timelines) {
            if snapshot.timelines.starts.isEmpty {
                unlink(destination.timelines)
            } else {
                try DurableFile.replaceUnlessSame(destination.timelines, with: snapshot.timelines.encoded())
            }
        }
        if snapshot.compactions.entries.isEmpty {
            unlink(destination.compactions)
        } else {
            try DurableFile.replaceUnlessSame(destination.compactions, with: snapshot.compactions.encoded())
        }
        try DurableFile.syncDirectory(destination.segments)
        try DurableFile.syncDirectory(destination.directory)
        progress?(copied.count, copied.count)
        if let known, isVerifiedByParts {
            try BackupTailCheck(destination: destination, timelines: snapshot.timelines, storeTag: snapshot.meta.storeID.tag, isEncrypted: snapshot.meta.isEncrypted)
                .check(appended, after: known.headSeq, head: snapshot.headSeq)
        } else {
            let check = try Verifier(layout: destination, progress: nil, keyless: true).run()
            guard check.isSound, check.headSeq == snapshot.headSeq else {
                throw HealthLogError(
                    .corrupt,
                    "the backup in \(destination.directory) failed verification: \(check.problems.first ?? "it ends at sequence \(check.headSeq), the store at \(snapshot.headSeq)")")
            }
        }
        try writeManifest(snapshot, entries: entries)
        next.smallFiles = ["meta": FileStamp.of(destination.meta), "timelines": FileStamp.of(destination.timelines)]
        memory = next
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
        try DurableFile.replaceUnlessSame(destination.meta, with: Array(meta.text.utf8))
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

    /// Copies a sealed segment's index unless the destination holds the same bytes (or
    /// `known` remembers it unchanged on both sides); removes the destination's when the
    /// store has none (the copy's writer rebuilds it). Returns its manifest entry when the
    /// destination now has it; clears `verifiedByParts` when it wrote one.
    private func copyIndex(
        _ name: SegmentName, _ known: BackupMemory?, _ next: inout BackupMemory, _ report: inout BackupReport, verifiedByParts: inout Bool
    ) throws -> BackupManifest.Entry? {
        let path = SegmentIndex.path(source, name)
        let target = SegmentIndex.path(destination, name)
        guard let status = try FileStatus.of(path: path) else {
            unlink(target)
            return nil
        }
        let relative = "segments/" + Self.fileName(target)
        if let known, let kept = Self.unchanged(known, relative, length: status.size, source: status, target: target) {
            next.files[relative] = kept
            report.filesKept += 1
            return kept.entry
        }
        verifiedByParts = false
        let (entry, _) = try copyUnlessSame(path, length: status.size, to: target, as: relative, &report)
        try remember(entry, source: status, target: target, in: &next)
        return entry
    }

    /// Copies the store's key slots into the destination's `keys/` unless it holds the same
    /// bytes, each read whole in one pass (a slot is replaced by a rename, never changed in
    /// place, so the copy is one version of it), and removes the destination's slots the
    /// store no longer has. Returns their manifest entries; a plaintext store has none.
    private func copyKeySlots(_ report: inout BackupReport) throws -> [BackupManifest.Entry] {
        let names = try DirectoryListing.names(in: source.keySlots).filter(BackupManifest.isKeySlotName).sorted()
        let present = try DirectoryListing.names(in: destination.keySlots).filter(BackupManifest.isKeySlotName)
        if !names.isEmpty { try OwnedDirectory.prepare(destination.keySlots) }
        var entries: [BackupManifest.Entry] = []
        for name in names {
            // A slot removed since the listing is left out, as a later listing would.
            guard let bytes = try SmallFile.read(source.keySlots + "/" + name, maxLength: BackupSource.maxManifestBytes) else { continue }
            if try DurableFile.replaceUnlessSame(destination.keySlots + "/" + name, with: bytes, syncDirectory: false) {
                report.filesWritten += 1
                report.bytesWritten += bytes.count
            } else {
                report.filesKept += 1
            }
            entries.append(BackupManifest.Entry(path: BackupManifest.keySlotsDirectory + name, size: bytes.count, sha256: try SHA256Digest.hex(of: bytes)))
        }
        let kept = Set(entries.map { String($0.path.dropFirst(BackupManifest.keySlotsDirectory.count)) })
        for name in present where !kept.contains(name) {
            unlink(destination.keySlots + "/" + name)
            report.filesRemoved += 1
        }
        if !names.isEmpty || !present.isEmpty { try DurableFile.syncDirectory(destination.keySlots) }
        return entries
    }

    /// Whether the destination's small file `name` (at `path`) is as `known`'s round left it.
    private static func isUnchanged(_ name: String, _ known: BackupMemory?, at path: String) -> Bool {
        guard let recorded = known?.smallFiles[name] else { return false }
        return recorded == FileStamp.of(path)
    }

    /// `known`'s memory of the file at `relative`, when it may stand for the file without
    /// reading it: the same length of the same store file, the destination file untouched.
    private static func unchanged(_ known: BackupMemory, _ relative: String, length: Int, source: FileStatus, target: String) -> BackupMemory.File? {
        guard let file = known.files[relative], file.entry.size == length, file.source.isSameFile(as: source),
            known.growing?.path != relative, FileStamp.of(target) == file.stamp
        else { return nil }
        return file
    }

    /// Records in `next` that the destination file `target` now holds `entry`, copied from `source`.
    private func remember(_ entry: BackupManifest.Entry, source: FileStatus, target: String, in next: inout BackupMemory) throws {
        guard let stamp = FileStamp.of(target) else { throw HealthLogError(.io, "cannot stat \(target)") }
        next.files[entry.path] = BackupMemory.File(entry: entry, source: source, stamp: stamp)
    }

    /// Appends to the destination's copy of the segment that was growing in `known`'s round
    /// the bytes the store's file has gained since, up to `length`, digesting only them;
    /// `nil` when that memory does not apply (another segment, another file on either
    /// side, the copy touched since, or a shorter length). Returns the manifest entry and
    /// where the new bytes start.
    private func extend(
        _ known: BackupMemory, _ relative: String, from path: String, length: Int, to target: String, _ status: FileStatus, _ next: inout BackupMemory
    ) throws -> (entry: BackupManifest.Entry, from: Int)? {
        guard let growing = known.growing, growing.path == relative, let file = known.files[relative], file.source.isSameFile(as: status),
            file.entry.size <= length, FileStamp.of(target) == file.stamp
        else { return nil }
        let start = file.entry.size
        if start < length { try FileCopy.append(path, range: start..<length, to: target, digest: growing.digest) }
        let entry = BackupManifest.Entry(path: relative, size: length, sha256: try growing.digest.copy().finish())
        try remember(entry, source: status, target: target, in: &next)
        next.growing = (relative, growing.digest)
        return (entry, start)
    }

    /// The last component of `path`.
    private static func fileName(_ path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }

    /// Keeps `target` when it is byte-identical to the first `length` bytes of `path`;
    /// otherwise copies them over it atomically. Returns the manifest entry of `target`
    /// (named `relative`), digested in the same pass that compared or copied it, and that
    /// digest still open (a continuous backup goes on with it as the file grows).
    private func copyUnlessSame(
        _ path: String, length: Int, to target: String, as relative: String, _ report: inout BackupReport
    ) throws -> (entry: BackupManifest.Entry, digest: SHA256Digest) {
        let kept = try SHA256Digest()
        if try FileCopy.isCopy(target, of: path, length: length, digest: kept) {
            report.filesKept += 1
            return (BackupManifest.Entry(path: relative, size: length, sha256: try kept.copy().finish()), kept)
        }
        let copied = try SHA256Digest()
        report.bytesWritten += try FileCopy.copy(path, length: length, to: target, digest: copied)
        report.filesWritten += 1
        return (BackupManifest.Entry(path: relative, size: length, sha256: try copied.copy().finish()), copied)
    }
}

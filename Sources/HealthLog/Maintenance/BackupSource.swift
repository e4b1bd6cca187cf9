#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A backup read for a restore: its ``BackupManifest``, checked, and its files copied out
/// with every byte digested, so what is installed is exactly what the manifest vouches for.
///
/// Refused with ``HealthLogError/Code/corrupt`` (or ``HealthLogError/Code/unsafeFile`` for a
/// symbolic link, a named pipe, a socket or a device): no manifest, a manifest whose checksum fails or that names a path outside
/// the backup, a listed file missing, not a regular file, of another size or digest, and a
/// segment in the backup the manifest does not list.
struct BackupSource {
    /// The backup directory.
    let directory: String
    /// Its manifest.
    let manifest: BackupManifest

    /// The most a manifest may hold.
    static let maxManifestBytes = 16 << 20

    /// Reads and checks the manifest of the backup at `directory`, and that its `segments/`
    /// holds no segment the manifest does not list.
    init(_ directory: String) throws {
        self.directory = directory
        try SpecialFileCheck.refuse(in: directory)
        let path = directory + "/" + Backup.manifestName
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(path, flags: O_RDONLY)
        } catch let error as HealthLogError where error.errno == ENOENT {
            throw HealthLogError(.corrupt, "\(directory) has no manifest: it is not a backup, or its backup did not finish", errno: ENOENT)
        }
        defer { fd.close() }
        let bytes = try fd.read(at: 0, count: Self.maxManifestBytes + 1)
        guard bytes.count <= Self.maxManifestBytes else { throw HealthLogError(.corrupt, "\(path): larger than any manifest a backup writes") }
        manifest = try BackupManifest.parse(String(decoding: bytes, as: UTF8.self), at: path)
        let listed = Set(manifest.entries.map(\.path))
        for name in try DirectoryListing.names(in: directory + "/segments") where SegmentName(fileName: name) != nil {
            guard listed.contains("segments/" + name) else {
                throw HealthLogError(.corrupt, "\(directory)/segments/\(name): a segment the manifest does not list; the backup cannot be trusted")
            }
        }
    }

    /// The backup's timelines (none when it lists no `timelines` file), read straight from
    /// the backup and checked against the manifest's size and SHA-256 first, so a
    /// point-in-time restore can judge its point before anything is copied.
    func timelines() throws -> Timelines {
        guard let entry = manifest.entries.first(where: { $0.path == "timelines" }) else { return Timelines() }
        let path = directory + "/timelines"
        let fd = try FileDescriptor.open(path, flags: O_RDONLY)
        defer { fd.close() }
        let bytes = try fd.read(at: 0, count: min(entry.size, Self.maxManifestBytes) + 1)
        guard bytes.count == entry.size, try SHA256Digest.hex(of: bytes) == entry.sha256, let timelines = Timelines.decode(bytes) else {
            throw HealthLogError(.corrupt, "\(path): does not match the manifest's size and SHA-256; the backup is damaged")
        }
        return timelines
    }

    /// Copies every listed file into the new store at `layout`, checking each one's size and
    /// SHA-256 against the manifest; returns (files, bytes) copied. `progress` is called with
    /// (files done, files) before each file and once at the end.
    func copy(into layout: StoreLayout, progress: (Int, Int) -> Void = { _, _ in }) throws -> (files: Int, bytes: Int) {
        try OwnedDirectory.prepare(layout.segments)
        if manifest.entries.contains(where: { $0.path.hasPrefix(BackupManifest.keySlotsDirectory) }) { try OwnedDirectory.prepare(layout.keySlots) }
        var bytes = 0
        for (done, entry) in manifest.entries.enumerated() {
            progress(done, manifest.entries.count)
            let source = directory + "/" + entry.path
            let copied: FileDigest.Result
            do {
                copied = try FileDigest.copy(source, to: layout.directory + "/" + entry.path)
            } catch let error as HealthLogError where error.errno == ENOENT {
                throw HealthLogError(.corrupt, "\(source): listed in the manifest but missing; the backup is incomplete", errno: ENOENT)
            }
            guard copied.size == entry.size else {
                throw HealthLogError(.corrupt, "\(source): \(copied.size) bytes, the manifest says \(entry.size); the backup is damaged")
            }
            guard copied.sha256 == entry.sha256 else {
                throw HealthLogError(.corrupt, "\(source): its SHA-256 does not match the manifest's; the backup is damaged")
            }
            bytes += copied.size
        }
        progress(manifest.entries.count, manifest.entries.count)
        return (manifest.entries.count, bytes)
    }
}

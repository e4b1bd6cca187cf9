#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Small files replaced atomically: written to `<path>.tmp`, fsynced, renamed over the
/// old one, and the directory fsynced (the checkpoint, `meta`, anchor files). The temporary
/// is always created afresh (``FileDescriptor/createExclusive(_:)``), and `rename(2)`
/// replaces a symbolic link at `path` rather than following it, so nothing outside the
/// directory is written.
enum DurableFile {
    /// The suffix of every temporary name in a store: a file being written is `<name>.tmp`
    /// until it is renamed to `<name>` (what a killed writer leaves, ``Debris`` removes).
    static let temporarySuffix = ".tmp"

    /// Replaces the file at `path` with `bytes` (mode 0600), durably unless `sync` is false.
    /// `syncDirectory: false` leaves the directory fsync (which makes the rename durable)
    /// to the caller.
    static func replace(_ path: String, with bytes: [UInt8], sync: Bool = true, syncDirectory: Bool = true) throws {
        try replace(path, sync: sync, syncDirectory: syncDirectory) { try $0.write(bytes, at: 0) }
    }

    /// Replaces the file at `path` with what `write` writes into the new temporary (a file
    /// too large to hold whole in memory, written in pieces), as
    /// ``replace(_:with:sync:syncDirectory:)`` does. When `write` throws, the temporary is
    /// removed and the old file stays.
    static func replace(_ path: String, sync: Bool = true, syncDirectory: Bool = true, writing write: (FileDescriptor) throws -> Void) throws {
        let temporary = path + temporarySuffix
        let fd = try FileDescriptor.createExclusive(temporary)
        do {
            try write(fd)
            if sync { try fd.sync() }
            fd.close()
        } catch {
            fd.close()
            unlink(temporary)
            throw error
        }
        try publish(path)
        if sync, syncDirectory { try Self.syncDirectory(containing: path) }
    }

    /// Writes the temporary of `path` (`<path>.tmp`, created afresh, not synced) with what
    /// `write` writes into it, and leaves it there: ``publish(_:)`` puts it in place later,
    /// and until then a rollback (or ``Debris``, after a crash) removes it. When `write`
    /// throws, the temporary is removed.
    static func stage(_ path: String, writing write: (FileDescriptor) throws -> Void) throws {
        let temporary = path + temporarySuffix
        let fd = try FileDescriptor.createExclusive(temporary)
        defer { fd.close() }
        do {
            try write(fd)
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Renames the temporary of `path` over `path`.
    static func publish(_ path: String) throws {
        let temporary = path + temporarySuffix
        try retryingOnInterrupt("cannot rename", path: temporary) { rename(temporary, path) }
    }

    /// Replaces the file at `path` with `bytes` as ``replace(_:with:sync:syncDirectory:)``
    /// does, unless it already holds exactly those bytes: then it is left untouched (same
    /// inode, same times). Returns whether it wrote.
    ///
    /// - Throws: as ``replace(_:with:sync:syncDirectory:)``, and as
    ///   ``FileDescriptor/open(_:flags:mode:)`` when something other than a missing file
    ///   keeps `path` from being read (a named pipe there, say).
    @discardableResult
    static func replaceUnlessSame(_ path: String, with bytes: [UInt8], sync: Bool = true, syncDirectory: Bool = true) throws -> Bool {
        do {
            let fd = try FileDescriptor.open(path, flags: O_RDONLY)
            defer { fd.close() }
            if try fd.size() == bytes.count, try fd.read(at: 0, count: bytes.count) == bytes { return false }
        } catch let error as HealthLogError where error.errno == ENOENT {}
        try replace(path, with: bytes, sync: sync, syncDirectory: syncDirectory)
        return true
    }

    /// Fsyncs the directory that holds `path`, so a created or renamed entry is durable.
    static func syncDirectory(containing path: String) throws {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        try syncDirectory(directory.isEmpty ? "/" : directory)
    }

    /// Fsyncs a directory. It is opened as named, links followed: an fsync changes nothing,
    /// and an anchor file's directory is the user's choice, not a store's.
    static func syncDirectory(_ directory: String) throws {
        let fd = try FileDescriptor.openNamedByUser(directory, flags: O_RDONLY | O_DIRECTORY)
        defer { fd.close() }
        try fd.sync()
    }
}

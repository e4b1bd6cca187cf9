#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Small files replaced atomically: written to `<path>.tmp`, fsynced, renamed over the
/// old one, and the directory fsynced (the checkpoint, `meta`, anchor files).
enum DurableFile {
    /// Replaces the file at `path` with `bytes` (mode 0600), durably unless `sync` is false.
    /// `syncDirectory: false` leaves the directory fsync (which makes the rename durable)
    /// to the caller.
    static func replace(_ path: String, with bytes: [UInt8], sync: Bool = true, syncDirectory: Bool = true) throws {
        let temporary = path + ".tmp"
        let fd = try FileDescriptor.open(temporary, flags: O_WRONLY | O_CREAT | O_TRUNC)
        do {
            try fd.setMode(0o600)
            try fd.write(bytes, at: 0)
            if sync { try fd.sync() }
            fd.close()
        } catch {
            fd.close()
            unlink(temporary)
            throw error
        }
        try retryingOnInterrupt("cannot rename", path: temporary) { rename(temporary, path) }
        if sync, syncDirectory { try Self.syncDirectory(containing: path) }
    }

    /// Fsyncs the directory that holds `path`, so a created or renamed entry is durable.
    static func syncDirectory(containing path: String) throws {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        try syncDirectory(directory.isEmpty ? "/" : directory)
    }

    /// Fsyncs a directory.
    static func syncDirectory(_ directory: String) throws {
        let fd = try FileDescriptor.open(directory, flags: O_RDONLY | O_DIRECTORY)
        defer { fd.close() }
        try fd.sync()
    }
}

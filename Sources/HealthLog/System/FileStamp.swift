#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `stat(2)` says of a file that changes whenever anything writes to it or replaces
/// it: which file, its size, and its modification and status-change times in nanoseconds
/// (a backup's destination files between rounds, the UUID index runs an import keeps).
struct FileStamp: Equatable {
    /// `st_dev`.
    let device: UInt64
    /// `st_ino`.
    let inode: UInt64
    /// `st_size`.
    let size: Int
    /// `st_mtim` in nanoseconds.
    let modified: Int64
    /// `st_ctim` in nanoseconds.
    let changed: Int64

    /// The stamp of the file at `path` (not following a final symbolic link); `nil` when
    /// there is none or it cannot be stat'ed.
    static func of(_ path: String) -> FileStamp? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return FileStamp(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int(info.st_size),
            modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
            changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec))
    }
}

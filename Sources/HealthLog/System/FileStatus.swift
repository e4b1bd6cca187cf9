#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `stat(2)` says of a file that the store needs: which file it is (device and
/// inode) and how big it is.
struct FileStatus: Sendable, Equatable {
    /// The device holding the file (`st_dev`).
    let device: UInt64
    /// The file's inode number on that device (`st_ino`).
    let inode: UInt64
    /// The size in bytes (`st_size`).
    let size: Int

    /// The status of the file at `path`, following symbolic links, from `stat(2)`;
    /// `nil` when nothing is there (`ENOENT`).
    ///
    /// - Throws: ``HealthLogError`` `.io` naming the path for any other failure.
    static func of(path: String) throws -> FileStatus? {
        var info = stat()
        while stat(path, &info) != 0 {
            let err = errno
            if err == EINTR { continue }
            if err == ENOENT { return nil }
            throw HealthLogError(.io, "cannot stat \(path): \(describeErrno(err))", errno: err)
        }
        return FileStatus(info)
    }

    /// The status of the open file `fd`, from `fstat(2)`.
    ///
    /// - Throws: ``HealthLogError`` `.io` naming the descriptor's path.
    static func of(_ fd: FileDescriptor) throws -> FileStatus {
        var info = stat()
        try retryingOnInterrupt("cannot stat", path: fd.path) { fstat(fd.rawValue, &info) }
        return FileStatus(info)
    }

    /// Whether `other` is the same file (same device and inode), whatever its size.
    func isSameFile(as other: FileStatus) -> Bool {
        device == other.device && inode == other.inode
    }

    /// The fields of a `stat` structure filled by `stat(2)` or `fstat(2)`.
    private init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int(info.st_size)
    }
}

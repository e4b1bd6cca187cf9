#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A tmpfs of a few inodes mounted in a fresh temporary directory (root only), for tests
/// that fill the disk from the outside instead of through a test hook.
public struct SmallTmpfs: Sendable {
    /// A failed mount, unmount or fill.
    public struct Failure: Error, CustomStringConvertible {
        /// What failed.
        public var description: String
    }

    /// Where it is mounted.
    public let path: String
    private let fillers: String

    /// Mounts a tmpfs of `inodes` inodes and `megabytes` of space.
    public init(inodes: Int, megabytes: Int = 16) throws {
        path = NSTemporaryDirectory() + "healthlog-tmpfs-" + UUID().uuidString
        fillers = path + "/fill"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard mount("tmpfs", path, "tmpfs", 0, "size=\(megabytes)m,nr_inodes=\(inodes),mode=0700") == 0 else {
            let err = errno
            try? FileManager.default.removeItem(atPath: path)
            throw Failure(description: "cannot mount a tmpfs on \(path): errno \(err)")
        }
    }

    /// Creates empty files outside any store until no inode is left.
    public func useUpInodes() throws {
        guard mkdir(fillers, 0o700) == 0 else { throw Failure(description: "cannot create \(fillers): errno \(errno)") }
        var n = 0
        while true {
            let fd = open(fillers + "/\(n)", O_WRONLY | O_CREAT | O_EXCL, 0o600)
            if fd < 0 {
                guard errno == ENOSPC else { throw Failure(description: "cannot fill \(fillers): errno \(errno)") }
                return
            }
            close(fd)
            n += 1
        }
    }

    /// Removes the files ``useUpInodes()`` made.
    public func freeInodes() throws {
        try FileManager.default.removeItem(atPath: fillers)
    }

    /// Unmounts it and removes the mount point.
    public func remove() {
        umount2(path, Int32(MNT_DETACH))
        try? FileManager.default.removeItem(atPath: path)
    }
}

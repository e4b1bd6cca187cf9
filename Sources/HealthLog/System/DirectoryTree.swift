#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Removing a directory with everything in it (what a restore does with the store it
/// replaced, and with leftovers of a restore that was killed).
enum DirectoryTree {
    /// Removes `path` and, when it is a directory, everything under it, never following a
    /// symbolic link (a link is removed, not what it names). A missing path is no error.
    static func remove(_ path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR {
            for name in try DirectoryListing.names(in: path) { try remove(path + "/" + name) }
            _ = try retryingOnInterrupt("cannot remove", path: path) { rmdir(path) }
        } else {
            _ = try retryingOnInterrupt("cannot remove", path: path) { unlink(path) }
        }
    }
}

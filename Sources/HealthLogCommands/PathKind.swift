#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLog

/// A path given where a file is expected that is a directory, or the other way round, named
/// as such before anything reads or writes it.
enum PathKind {
    /// Bad usage when `path`, given as `what` (`-o`, `--store`), is a directory: a file is
    /// expected; `hint` says which.
    static func expectFile(_ path: String, _ what: String, hint: String = "give a file's path") throws {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return }
        throw HealthLogError(.badUsage, "\(what) '\(path)' is a directory, not a file: \(hint)")
    }

    /// Bad usage when `path`, given as `what`, exists and is not a directory: a directory is
    /// expected.
    static func expectDirectory(_ path: String, _ what: String, hint: String) throws {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else { return }
        throw HealthLogError(.badUsage, "\(what) '\(path)' is a file, not a directory: \(hint)")
    }
}

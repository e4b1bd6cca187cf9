#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The bytes and permission bits of a file, or of every file and directory under a
/// directory, without following symbolic links: two images are equal when nothing in the
/// tree was written, created, removed or chmod'ed.
struct FileTreeImage: Equatable {
    /// Each entry's path relative to the root (`""` for the root), with its mode and bytes
    /// (`nil` for a directory or a special file, or a link's target text for a symbolic link).
    private(set) var entries: [String: Entry] = [:]

    /// One file, directory or link.
    struct Entry: Equatable {
        /// The `st_mode` bits, type included.
        var mode: mode_t
        /// The file's bytes, a link's target, `nil` for a directory or a special file.
        var bytes: Data?
    }

    /// The image of the tree at `root`.
    init(_ root: String) throws {
        try add(root, as: "")
    }

    /// The permission bits of `path` (links not followed).
    static func mode(of path: String) throws -> mode_t {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return info.st_mode & 0o7777
    }

    private mutating func add(_ path: String, as name: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            entries[name] = Entry(mode: info.st_mode, bytes: nil)
            for child in try FileManager.default.contentsOfDirectory(atPath: path) {
                try add(path + "/" + child, as: name.isEmpty ? child : name + "/" + child)
            }
        case S_IFLNK:
            entries[name] = Entry(mode: info.st_mode, bytes: Data(try FileManager.default.destinationOfSymbolicLink(atPath: path).utf8))
        case S_IFREG:
            entries[name] = Entry(mode: info.st_mode, bytes: FileManager.default.contents(atPath: path))
        default:
            entries[name] = Entry(mode: info.st_mode, bytes: nil)
        }
    }
}

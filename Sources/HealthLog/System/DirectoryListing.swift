#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The names in a store directory (`fdopendir(3)`/`readdir(3)`), without `.` and `..`.
enum DirectoryListing {
    /// The entry names of `directory`, opened as ``FileDescriptor/open(_:flags:mode:)``
    /// opens it (never through a symbolic link, only this user's); an empty list when it
    /// does not exist, and an error for any other failure to open it. `isNamedByUser` (the
    /// store directory itself) follows a symbolic link at `directory`.
    static func names(in directory: String, isNamedByUser: Bool = false) throws -> [String] {
        try entries(in: directory, isNamedByUser: isNamedByUser, withTypes: false).map(\.name)
    }

    /// The entries of `directory` with their file types (the `S_IFMT` bits: `readdir(3)`'s
    /// `d_type`, or `fstatat(2)` without following links where the file system gives none),
    /// listed as ``names(in:isNamedByUser:)`` lists them.
    static func typedEntries(in directory: String, isNamedByUser: Bool = false) throws -> [(name: String, type: mode_t)] {
        try entries(in: directory, isNamedByUser: isNamedByUser, withTypes: true)
    }

    /// The listing behind both: types only when `withTypes` (else 0).
    private static func entries(in directory: String, isNamedByUser: Bool, withTypes: Bool) throws -> [(name: String, type: mode_t)] {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.openDirectory(directory, isNamedByUser: isNamedByUser)
        } catch let error as HealthLogError where error.errno == ENOENT {
            return []
        }
        guard let dir = fdopendir(fd.rawValue) else {
            let err = errno
            fd.close()
            throw HealthLogError(.io, "cannot list \(directory): \(describeErrno(err))", errno: err)
        }
        defer { closedir(dir) }
        var entries: [(name: String, type: mode_t)] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            guard name != ".", name != ".." else { continue }
            entries.append((name, withTypes ? type(of: entry.pointee, named: name, in: dir) : 0))
        }
        return entries
    }

    /// The `S_IFMT` type of the entry `entry` of the open directory `dir`; 0 when it
    /// cannot be told (the entry went away).
    private static func type(of entry: dirent, named name: String, in dir: OpaquePointer) -> mode_t {
        switch Int32(entry.d_type) {
        case Int32(DT_REG): return S_IFREG
        case Int32(DT_DIR): return S_IFDIR
        case Int32(DT_LNK): return S_IFLNK
        case Int32(DT_FIFO): return S_IFIFO
        case Int32(DT_SOCK): return S_IFSOCK
        case Int32(DT_CHR): return S_IFCHR
        case Int32(DT_BLK): return S_IFBLK
        default:
            var info = stat()
            guard fstatat(dirfd(dir), name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return 0 }
            return info.st_mode & S_IFMT
        }
    }
}

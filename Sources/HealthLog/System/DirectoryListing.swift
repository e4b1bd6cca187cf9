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
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The names in a directory (`opendir(3)`/`readdir(3)`), without `.` and `..`.
enum DirectoryListing {
    /// The entry names of `directory`; an empty list when it does not exist, and an error
    /// for any other failure to open it.
    static func names(in directory: String) throws -> [String] {
        guard let dir = opendir(directory) else {
            let err = errno
            if err == ENOENT { return [] }
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

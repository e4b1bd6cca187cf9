#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where scratch files that belong to no store go, chosen in this one place: `$TMPDIR`
/// when it is set and not empty, then `/tmp`, the first that takes the file.
package enum ScratchFiles {
    /// The directories to try, in order.
    package static var directories: [String] {
        directories(temporaryDirectory: getenv("TMPDIR").map { String(cString: $0) })
    }

    /// The directories to try when `$TMPDIR` is `temporaryDirectory`.
    static func directories(temporaryDirectory: String?) -> [String] {
        guard let temporaryDirectory, !temporaryDirectory.isEmpty, temporaryDirectory != "/tmp" else { return ["/tmp"] }
        return [temporaryDirectory, "/tmp"]
    }

    /// Makes a private directory (mode 0700) named `name`, `infix` and six random characters
    /// in the first of `directories` that takes it, held and marked as a ``ScratchDirectory``
    /// while it is in use. The leftovers of killed processes made alike in that directory
    /// are removed first (``ScratchDirectory/removeLeftovers(beside:infix:)``): what a
    /// SIGKILL left in `$TMPDIR` goes with the next run that needs such a directory.
    ///
    /// - Throws: ``HealthLogError/Code/io`` naming the last directory tried when none does.
    static func makeDirectory(name: String, infix: String, in directories: [String] = directories) throws -> ScratchDirectory {
        try firstTaking("a scratch directory", in: directories) { base in
            let target = base + "/" + name
            _ = try? ScratchDirectory.removeLeftovers(beside: target, infix: infix)
            return try ScratchDirectory.make(beside: target, infix: infix)
        }
    }

    /// Creates a file (mode 0600, `mkstemp(3)`) named `prefix` and six random characters in
    /// the first of `directories` that takes it, and unlinks it at once, so nothing
    /// outlives the process and nobody else can open it.
    ///
    /// - Throws: ``HealthLogError/Code/io`` naming the last directory tried when none does.
    static func makeUnlinkedFile(prefix: String, in directories: [String] = directories) throws -> FileDescriptor {
        try firstTaking("a scratch file", in: directories) { base in
            var template = Array((base + "/" + prefix + "XXXXXX").utf8CString)
            let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else { return nil }
            let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            unlink(path)
            return FileDescriptor(rawValue: fd, path: path)
        }
    }

    /// The first result of `make` over `directories`: it returns `nil` with `errno` set, or
    /// throws, when it fails in that directory; the last failure is thrown.
    private static func firstTaking<T>(_ what: String, in directories: [String], _ make: (String) throws -> T?) throws -> T {
        var last: (any Error)?
        for directory in directories {
            do {
                if let made = try make(directory) { return made }
                let err = errno
                last = HealthLogError(.io, "cannot create \(what) in \(directory): \(describeErrno(err))", errno: err)
            } catch {
                last = error
            }
        }
        throw last ?? HealthLogError(.io, "cannot create \(what): no directory to make it in")
    }
}

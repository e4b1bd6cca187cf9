#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The directories of a store (the store itself, `segments/`, `uuids/`): created 0700,
/// always this user's, and never reached through a symbolic link — except the store
/// directory itself, whose path the user gave (as PostgreSQL follows a linked data
/// directory): a link there is followed, and the directory it names is checked.
enum OwnedDirectory {
    /// Creates `path` with `mkdir(2)` unless it exists, then opens it with `O_NOFOLLOW |
    /// O_DIRECTORY` and checks that it is this user's directory. A directory this call
    /// created gets mode 0700 with `fchmod(2)`, whatever the umask; an existing one must,
    /// when `isPrivate`, give group and others no permission. `isNamedByUser` (the store
    /// directory) follows a symbolic link at `path` itself.
    ///
    /// - Returns: whether this call created the directory.
    /// - Throws: ``HealthLogError/Code/unsafeFile`` naming `path` when it is a symbolic
    ///   link, not a directory, another user's, or (with `isPrivate`) open to others;
    ///   ``HealthLogError/Code/io`` when it cannot be created.
    @discardableResult
    static func prepare(_ path: String, isPrivate: Bool = false, isNamedByUser: Bool = false) throws -> Bool {
        var created = false
        if mkdir(path, 0o700) == 0 {
            created = true
        } else if errno != EEXIST {
            let err = errno
            throw HealthLogError(.io, "cannot create directory \(path): \(describeErrno(err))", errno: err)
        }
        let fd = try FileDescriptor.openDirectory(path, isNamedByUser: isNamedByUser)
        defer { fd.close() }
        if created {
            try fd.setMode(0o700)
        } else if isPrivate {
            try fd.requirePrivate()
        }
        return created
    }

    /// Checks that the existing directory `path` is this user's, not a symbolic link
    /// (unless `isNamedByUser`), and, when `isPrivate`, open to no one else; see
    /// ``prepare(_:isPrivate:isNamedByUser:)``.
    ///
    /// - Throws: as ``prepare(_:isPrivate:isNamedByUser:)``, and ``HealthLogError/Code/io``
    ///   with `ENOENT` when it does not exist.
    static func check(_ path: String, isPrivate: Bool, isNamedByUser: Bool = false) throws {
        let fd = try FileDescriptor.openDirectory(path, isNamedByUser: isNamedByUser)
        defer { fd.close() }
        if isPrivate { try fd.requirePrivate() }
    }

}

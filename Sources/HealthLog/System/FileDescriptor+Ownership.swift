#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one place that decides whether a path may be used as a store file: never through a
/// symbolic link, only a regular file or directory, only this user's. Every store file is
/// opened through ``FileDescriptor/open(_:flags:mode:)``, which calls these checks.
extension FileDescriptor {
    /// What an opened store path must be.
    enum Kind {
        /// A regular file.
        case regularFile
        /// A directory.
        case directory

        /// The word for messages.
        var noun: String { self == .directory ? "directory" : "regular file" }

        /// What a file of type `type` (the `S_IFMT` bits of `st_mode`) is, for messages.
        static func describe(_ type: mode_t) -> String {
            switch type {
            case S_IFREG: "a regular file"
            case S_IFDIR: "a directory"
            case S_IFLNK: "a symbolic link"
            case S_IFIFO: "a named pipe (FIFO)"
            case S_IFSOCK: "a socket"
            case S_IFCHR: "a character device"
            case S_IFBLK: "a block device"
            default: "a special file"
            }
        }

        /// The refusal of `path`, found to be of type `type` where a `kind` was needed.
        func refusal(_ path: String, found type: mode_t, errno: Int32? = nil) -> HealthLogError {
            HealthLogError(
                .unsafeFile, "\(path) is \(Kind.describe(type)), not a \(noun): healthlog uses only its own files in a store; remove it", errno: errno)
        }
    }

    /// Opens with `open(2)` (`O_CLOEXEC` added). When it fails as `O_NOFOLLOW`,
    /// `O_DIRECTORY` and `O_NONBLOCK` fail on a symbolic link or a file of the wrong kind
    /// (`ELOOP`, `ENOTDIR`, and `ENXIO` for a socket or a named pipe opened for writing with
    /// no reader), `lstat(2)` tells which, and the error is
    /// ``HealthLogError/Code/unsafeFile`` naming the path.
    static func openRefusingLinks(_ path: String, flags: Int32, mode: mode_t) throws -> FileDescriptor {
        do {
            let fd = try retryingOnInterrupt("cannot open", path: path) { systemOpen(path, flags | O_CLOEXEC, mode) }
            return FileDescriptor(rawValue: fd, path: path)
        } catch let error as HealthLogError where error.errno == ELOOP || error.errno == ENOTDIR || error.errno == ENXIO {
            var info = stat()
            guard lstat(path, &info) == 0 else { throw error }
            let type = info.st_mode & S_IFMT
            if type == S_IFLNK {
                throw HealthLogError(
                    .unsafeFile, "\(path) is a symbolic link: healthlog never follows symbolic links in a store; remove it", errno: error.errno)
            }
            let kind: Kind = flags & O_DIRECTORY != 0 ? .directory : .regularFile
            if type != (kind == .directory ? S_IFDIR : S_IFREG) {
                throw kind.refusal(path, found: type, errno: error.errno)
            }
            throw error
        }
    }

    /// Clears `O_NONBLOCK` from the open file's status flags (`fcntl(2)`), once it is known
    /// to be a regular file or directory.
    func clearNonBlocking() throws {
        let flags = try retryingOnInterrupt("cannot fcntl", path: path) { fcntl(rawValue, F_GETFL) }
        guard flags & O_NONBLOCK != 0 else { return }
        try retryingOnInterrupt("cannot fcntl", path: path) { fcntl(rawValue, F_SETFL, flags & ~O_NONBLOCK) }
    }

    /// Opens the directory `path` and checks that it is this user's, refusing a symbolic
    /// link at `path` unless `isNamedByUser` (the store directory itself, whose path the
    /// user gave).
    static func openDirectory(_ path: String, isNamedByUser: Bool) throws -> FileDescriptor {
        guard isNamedByUser else { return try open(path, flags: O_RDONLY | O_DIRECTORY) }
        let fd = try openNamedByUser(path, flags: O_RDONLY | O_DIRECTORY)
        do {
            try fd.requireOwned(.directory)
        } catch {
            fd.close()
            throw error
        }
        return fd
    }

    /// Creates a new temporary file at `path` for this user, mode 0600: a stale file or
    /// symbolic link of that name is removed first with `unlink(2)` (which never follows a
    /// link), then the file is created with `O_CREAT | O_EXCL | O_NOFOLLOW`, so the
    /// descriptor is always a file this call made.
    static func createExclusive(_ path: String) throws -> FileDescriptor {
        if unlink(path) != 0, errno != ENOENT {
            let err = errno
            throw HealthLogError(.io, "cannot remove the stale \(path): \(describeErrno(err))", errno: err)
        }
        let fd = try open(path, flags: O_RDWR | O_CREAT | O_EXCL)
        do {
            try fd.setMode(0o600)
        } catch {
            fd.close()
            unlink(path)
            throw error
        }
        return fd
    }

    /// The file's status, from `fstat(2)`.
    func status() throws -> stat {
        var info = stat()
        try retryingOnInterrupt("cannot stat", path: path) { fstat(rawValue, &info) }
        return info
    }

    /// Checks with `fstat(2)` that the descriptor is a `kind` owned by this process's
    /// effective user; throws ``HealthLogError/Code/unsafeFile`` naming the path otherwise.
    func requireOwned(_ kind: Kind) throws {
        let info = try status()
        let type = info.st_mode & S_IFMT
        guard type == (kind == .directory ? S_IFDIR : S_IFREG) else { throw kind.refusal(path, found: type) }
        guard info.st_uid == geteuid() else {
            throw HealthLogError(
                .unsafeFile,
                "\(path) belongs to user \(info.st_uid), not to this user (\(geteuid())): run healthlog as its owner, or chown -R it")
        }
    }

    /// Checks with `fstat(2)` that neither group nor others have any permission on the
    /// descriptor's directory, as PostgreSQL checks its data directory; throws
    /// ``HealthLogError/Code/unsafeFile`` saying to `chmod 700` it otherwise.
    func requirePrivate() throws {
        let mode = try status().st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw HealthLogError(
                .unsafeFile,
                "\(path) has invalid permissions (mode 0\(String(mode, radix: 8))): group or others may access it; a store directory must be private: chmod 700 \(path)")
        }
    }
}

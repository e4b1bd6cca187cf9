#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A private directory built beside a target (`TARGET` + infix + six random letters and
/// digits, mode 0700, made by `mkdtemp(3)`) that is later put in place or removed: where an
/// import into a new store, a restore and a salvage build their store.
///
/// While its maker works in it, the directory is held with an exclusive `flock(2)` and holds
/// the empty file ``markerName``, written after the lock was taken. A later run removes a
/// leftover beside the same target (``removeLeftovers(beside:infix:)``) only when all of
/// this holds: its name has exactly that pattern, it is a real directory of this user (not
/// a link), its lock can be taken now (no run is still building it), and the marker is in
/// it. A directory the user named alike (`store.import-backup/`), a link, a file, a
/// directory that cannot be opened, and the directory of a run that has not taken its lock
/// yet are all left as they are. The marker is removed just before the directory is put in
/// place; it means nothing in a directory at any other name.
package final class ScratchDirectory {
    /// The file that marks a directory as one this code made and may remove.
    package static let markerName = ".healthlog-scratch"
    /// How many random characters `mkdtemp(3)` puts after the infix.
    private static let randomLength = 6

    /// The directory's path.
    package let path: String
    /// The open directory, locked until ``release()``; -1 after it.
    private var lockFD: Int32

    /// Makes, locks and marks a new directory beside `target` (a path without a trailing
    /// slash), named `target` + `infix` + six random characters.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when it cannot be made, opened, locked or marked
    ///   (nothing is left behind then).
    package static func make(beside target: String, infix: String) throws -> ScratchDirectory {
        var template = Array((target + infix + String(repeating: "X", count: randomLength)).utf8CString)
        guard let made = mkdtemp(&template) else {
            throw HealthLogError(.io, "cannot create a directory beside \(target): \(describeErrno(errno))", errno: errno)
        }
        let path = String(cString: made)
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            let err = errno
            rmdir(path)
            throw HealthLogError(.io, "cannot open \(path): \(describeErrno(err))", errno: err)
        }
        // Waits: another run's leftover scan may hold the lock for a moment, to find no marker.
        while flock(fd, LOCK_EX) != 0 {
            let err = errno
            guard err == EINTR else {
                close(fd)
                rmdir(path)
                throw HealthLogError(.io, "cannot lock \(path): \(describeErrno(err))", errno: err)
            }
        }
        do {
            try createMarker(in: fd, at: path, exclusive: true)
        } catch {
            close(fd)
            rmdir(path)
            throw error
        }
        return ScratchDirectory(path: path, lockFD: fd)
    }

    /// The directory at `path`, open and locked as `lockFD`.
    private init(path: String, lockFD: Int32) {
        self.path = path
        self.lockFD = lockFD
    }

    /// Lets the lock go (a directory neither put in place nor removed stays, for a later run
    /// to remove).
    deinit {
        if lockFD >= 0 { close(lockFD) }
    }

    /// Removes the marker and syncs the directory, so what is put in place next carries no
    /// marker. A crash after this leaves an unmarked directory that no run removes: a store
    /// kept, never one lost.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when the marker cannot be removed or the
    ///   directory synced.
    package func unmark() throws {
        precondition(lockFD >= 0, "unmark after release")
        if unlinkat(lockFD, Self.markerName, 0) != 0, errno != ENOENT {
            let err = errno
            throw HealthLogError(.io, "cannot remove \(path)/\(Self.markerName): \(describeErrno(err))", errno: err)
        }
        guard fsync(lockFD) == 0 else {
            let err = errno
            throw HealthLogError(.io, "cannot sync \(path): \(describeErrno(err))", errno: err)
        }
    }

    /// Removes the directory and everything in it while still holding its lock, then lets
    /// the lock go. A directory already gone is no error.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when something cannot be removed (the directory
    ///   stays marked, for a later run).
    package func remove() throws {
        defer { release() }
        try DirectoryTree.remove(path)
    }

    /// Lets the lock go: the directory was put in place (or is kept).
    package func release() {
        if lockFD >= 0 { close(lockFD) }
        lockFD = -1
    }

    /// Marks the directory at `path` (a real directory, not a link) as removable once it
    /// is at a scratch name: the store a restore is about to swap out. The marker means
    /// nothing anywhere else.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when it cannot be opened or the marker made.
    package static func mark(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            let err = errno
            throw HealthLogError(.io, "cannot open \(path): \(describeErrno(err))", errno: err)
        }
        defer { close(fd) }
        try createMarker(in: fd, at: path, exclusive: false)
    }

    /// Creates the empty marker (0600) in the directory open as `fd` (at `path`, for the
    /// message); with `exclusive`, one already there is an error. It is opened without
    /// blocking, and anything there but a regular file (a named pipe, say) is refused with
    /// ``HealthLogError/Code/unsafeFile``.
    private static func createMarker(in fd: Int32, at path: String, exclusive: Bool) throws {
        let marker = openat(fd, markerName, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | (exclusive ? O_EXCL : 0), 0o600)
        var info = stat()
        guard marker >= 0 else {
            let err = errno
            if fstatat(fd, markerName, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT != S_IFREG {
                throw FileDescriptor.Kind.regularFile.refusal(path + "/" + markerName, found: info.st_mode & S_IFMT, errno: err)
            }
            throw HealthLogError(.io, "cannot create \(path)/\(markerName): \(describeErrno(err))", errno: err)
        }
        defer { close(marker) }
        guard fstat(marker, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw FileDescriptor.Kind.regularFile.refusal(path + "/" + markerName, found: info.st_mode & S_IFMT)
        }
    }

    /// Takes back a ``mark(_:)`` when the swap it prepared failed; a marker that cannot be
    /// removed stays (harmless where the directory is).
    package static func unmark(_ path: String) {
        unlink(path + "/" + markerName)
    }

    /// Removes the leftovers of killed runs beside `target` made with `infix` (see the type's
    /// description for what counts as one); returns their paths. A parent that cannot be
    /// listed, and any entry that cannot be opened or locked, is left alone.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when a leftover cannot be removed.
    package static func removeLeftovers(beside target: String, infix: String) throws -> [String] {
        let (parent, name) = split(target)
        guard let names = try? DirectoryListing.names(in: parent, isNamedByUser: true) else { return [] }
        var removed: [String] = []
        for entry in names where isScratchName(entry, prefix: name + infix) {
            let path = parent == "/" ? "/" + entry : parent + "/" + entry
            let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0, isMarkedAndOurs(fd, at: path) else { continue }
            try DirectoryTree.remove(path)
            removed.append(path)
        }
        return removed
    }

    /// Whether `entry` is `prefix` followed by exactly the random part `mkdtemp(3)` makes.
    private static func isScratchName(_ entry: String, prefix: String) -> Bool {
        guard entry.hasPrefix(prefix) else { return false }
        let random = entry.utf8.dropFirst(prefix.utf8.count)
        return random.count == randomLength && random.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }

    /// Whether the directory open as `fd` belongs to this user, holds the marker (a regular
    /// file), and is still the one at `path` (not renamed away since it was opened).
    private static func isMarkedAndOurs(_ fd: Int32, at path: String) -> Bool {
        var opened = stat()
        var named = stat()
        var marker = stat()
        guard fstat(fd, &opened) == 0, opened.st_uid == geteuid(),
              lstat(path, &named) == 0, named.st_dev == opened.st_dev, named.st_ino == opened.st_ino,
              fstatat(fd, markerName, &marker, AT_SYMLINK_NOFOLLOW) == 0 else { return false }
        return marker.st_mode & S_IFMT == S_IFREG
    }

    /// The parent directory and last component of `path` (no trailing slash).
    package static func split(_ path: String) -> (parent: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let parent = String(path[..<slash])
        return (parent.isEmpty ? "/" : parent, String(path[path.index(after: slash)...]))
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The store's single-writer lock: an exclusive `flock(2)` on the `lock` file, held for
/// the life of the descriptor. A second writer polls until the timeout, then fails with a
/// message that says what to do.
///
/// The lock excludes others only while its file is the one at `STORE/lock`: a restore
/// swaps the whole directory, moving the old store's `lock` away, and a writer that created
/// a store and rolled back its first append removes `lock` with the directory. So every
/// acquirer checks, once it holds the lock, that the locked file is still linked there, and
/// otherwise starts over on the file now at the path (the restored store's).
struct WriterLock {
    /// The locked descriptor; closing it releases the lock.
    let fd: FileDescriptor

    /// Creates the store directory (0700) unless it exists, then takes its lock, waiting up
    /// to `timeout` seconds. Returns the lock and whether this call created the directory.
    ///
    /// A missing directory is created holding its ``StoreEntryLock``, so that a restore or
    /// an import putting a store at the same path waits for this writer, or this writer for
    /// it; one that exists is only checked. Where a directory vanishes meanwhile (a writer
    /// rolled back the store it created), this starts over.
    static func acquireCreatingStore(_ layout: StoreLayout, timeout: Double) throws -> (lock: WriterLock, createdDirectory: Bool) {
        while true {
            var info = stat()
            if stat(layout.directory, &info) != 0, errno == ENOENT {
                let entry: StoreEntryLock
                do {
                    entry = try StoreEntryLock.acquire(for: layout.directory, timeout: timeout)
                } catch let error as HealthLogError where error.code == .io {
                    // No parent, or none this user may write: creating the directory says so.
                    try OwnedDirectory.prepare(layout.directory, isPrivate: true, isNamedByUser: true)
                    continue
                }
                defer { entry.release() }
                let created = try OwnedDirectory.prepare(layout.directory, isPrivate: true, isNamedByUser: true)
                return (try acquire(layout, timeout: timeout), created)
            }
            do {
                try OwnedDirectory.check(layout.directory, isPrivate: true, isNamedByUser: true)
                return (try acquire(layout, timeout: timeout), false)
            } catch let error as HealthLogError where error.errno == ENOENT {
                continue
            }
        }
    }

    /// Takes the lock of `layout`, waiting up to `timeout` seconds, on the `lock` file
    /// linked at the store's path when it is taken.
    ///
    /// - Throws: ``HealthLogError/Code/locked`` after `timeout` seconds;
    ///   ``HealthLogError/Code/io`` with `ENOENT` when the store directory is missing.
    static func acquire(_ layout: StoreLayout, timeout: Double) throws -> WriterLock {
        var waited = 0.0
        while true {
            let fd = try FileDescriptor.open(layout.lock, flags: O_RDWR | O_CREAT)
            do {
                try fd.setMode(0o600)
                try wait(for: fd, directory: layout.directory, timeout: timeout, waited: &waited)
            } catch {
                fd.close()
                throw error
            }
            if isLinked(fd, at: layout.lock) { return WriterLock(fd: fd) }
            fd.close()
        }
    }

    /// Polls `flock(LOCK_EX | LOCK_NB)` on `fd` every 10 ms until it is taken, counting
    /// the time in `waited` (shared by the attempts of one acquirer).
    ///
    /// - Throws: ``HealthLogError/Code/locked`` naming `directory` once `waited` passes
    ///   `timeout`.
    static func wait(for fd: FileDescriptor, directory: String, timeout: Double, waited: inout Double) throws {
        while try !fd.tryLockExclusive() {
            guard waited < timeout else {
                throw HealthLogError(
                    .locked,
                    "another healthlog process is writing to \(directory); gave up waiting after \(formatSeconds(timeout)) s (set HEALTHLOG_LOCK_TIMEOUT to wait longer)")
            }
            usleep(10_000)
            waited += 0.01
        }
    }

    /// Whether the file open as `fd` is still the one at `path` (`fstat(2)` against
    /// `lstat(2)`).
    static func isLinked(_ fd: FileDescriptor, at path: String) -> Bool {
        var held = stat()
        var current = stat()
        guard fstat(fd.rawValue, &held) == 0, lstat(path, &current) == 0 else { return false }
        return held.st_dev == current.st_dev && held.st_ino == current.st_ino
    }

    /// Releases the lock.
    func release() {
        fd.close()
    }

    private static func formatSeconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

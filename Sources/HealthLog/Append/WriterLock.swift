#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The store's single-writer lock: an exclusive `flock(2)` on the `lock` file, held for
/// the life of the descriptor. A second writer polls until the timeout, then fails with a
/// message that says what to do.
struct WriterLock {
    /// The locked descriptor; closing it releases the lock.
    let fd: FileDescriptor

    /// Creates the store directory (0700) unless it exists, then takes its lock, waiting up
    /// to `timeout` seconds. Returns the lock and whether this call created the directory.
    ///
    /// The writer waited for may have created the store and rolled it back, removing `lock`
    /// and the directory: a lock on that unlinked file excludes no one, so this starts over.
    static func acquireCreatingStore(_ layout: StoreLayout, timeout: Double) throws -> (lock: WriterLock, createdDirectory: Bool) {
        while true {
            let created = try OwnedDirectory.prepare(layout.directory, isPrivate: true, isNamedByUser: true)
            let acquired = try acquire(layout, timeout: timeout)
            if acquired.isLinked(at: layout.lock) { return (acquired, created) }
            acquired.release()
        }
    }

    /// Takes the lock of `layout`, waiting up to `timeout` seconds.
    static func acquire(_ layout: StoreLayout, timeout: Double) throws -> WriterLock {
        let fd = try FileDescriptor.open(layout.lock, flags: O_RDWR | O_CREAT)
        do {
            try fd.setMode(0o600)
            var waited = 0.0
            while try !fd.tryLockExclusive() {
                guard waited < timeout else {
                    throw HealthLogError(
                        .locked,
                        "another healthlog process is writing to \(layout.directory); gave up waiting after \(formatSeconds(timeout)) s (set HEALTHLOG_LOCK_TIMEOUT to wait longer)")
                }
                usleep(10_000)
                waited += 0.01
            }
        } catch {
            fd.close()
            throw error
        }
        return WriterLock(fd: fd)
    }

    /// Whether the locked file is still the one at `path` (`fstat(2)` against `stat(2)`): a
    /// writer that created a store and rolled back its first append removes the lock file.
    func isLinked(at path: String) -> Bool {
        var held = stat()
        var current = stat()
        guard fstat(fd.rawValue, &held) == 0, stat(path, &current) == 0 else { return false }
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

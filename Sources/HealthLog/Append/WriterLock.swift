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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The lock on a store directory's name while no store is there: an exclusive `flock(2)` on
/// the empty file `.NAME.healthlog-lock` beside the directory `NAME` (0600), taken by
/// whoever puts a store at a path where none exists. A writer holds it while it creates
/// the directory and takes the directory's writer lock; a restore into a missing
/// directory, and an import into one (building the store beside it), hold it until the
/// new store is renamed into place. So two of them never race to create the same store,
/// and a writer that waited finds the store the other put there.
///
/// The holder removes the file as it lets go, so nothing stays beside the store; a waiter
/// whose locked file is no longer the one at the path starts over, as with
/// ``WriterLock``. A killed holder leaves the empty file, which the next one takes and
/// removes.
package struct StoreEntryLock {
    /// The locked descriptor; closing it releases the lock.
    private let fd: FileDescriptor
    /// The lock file's path.
    let path: String

    /// The lock file for the store directory `directory` (trailing slashes ignored).
    static func path(for directory: String) -> String {
        var trimmed = directory
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        let (parent, name) = ScratchDirectory.split(trimmed)
        return (parent == "/" ? "/." : parent + "/.") + name + ".healthlog-lock"
    }

    /// Takes the lock for `directory`, waiting up to `timeout` seconds.
    ///
    /// - Throws: ``HealthLogError/Code/locked`` when another process holds it that long
    ///   (the message of two writers); ``HealthLogError/Code/unsafeFile`` when the lock's
    ///   name is a link or another user's file; ``HealthLogError/Code/io`` when it cannot be
    ///   created (`ENOENT`: the parent directory is missing).
    package static func acquire(for directory: String, timeout: Double) throws -> StoreEntryLock {
        let path = path(for: directory)
        var waited = 0.0
        while true {
            let fd = try FileDescriptor.open(path, flags: O_RDWR | O_CREAT)
            do {
                try WriterLock.wait(for: fd, directory: directory, timeout: timeout, waited: &waited)
            } catch {
                fd.close()
                throw error
            }
            if WriterLock.isLinked(fd, at: path) { return StoreEntryLock(fd: fd, path: path) }
            fd.close()
        }
    }

    /// Removes the lock file (still the locked one) and releases the lock.
    package func release() {
        if WriterLock.isLinked(fd, at: path) { unlink(path) }
        fd.close()
    }
}

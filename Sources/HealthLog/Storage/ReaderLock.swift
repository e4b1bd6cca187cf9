#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The readers' lock: a shared `flock(2)` on the store's `readers` file, held by every
/// ``LogSnapshot`` from before it lists the segments until it is released, so the segment
/// files it may still open lazily are not removed under it.
///
/// `compact` writes rewritten segments under new names (a higher generation) and leaves
/// the files they supersede in place; the files are removed only by a writer that takes the
/// lock exclusively without waiting (``tryExclusive(_:)``), which no reader then holds. A
/// reader that opened its snapshot after the commit lists only the new files, so it never
/// needs the old ones.
///
/// The file is created (empty, 0600) by the first reader or writer that needs it. Where it
/// cannot be created (a read-only file system, where nothing is compacted either), a reader
/// goes on without it.
///
/// The lock is released when the value is deinitialised (a class, so a snapshot whose
/// initializer throws half way still lets it go).
final class ReaderLock {
    /// The locked descriptor; closing it releases the lock.
    private let fd: FileDescriptor

    private init(fd: FileDescriptor) {
        self.fd = fd
    }

    deinit {
        fd.close()
    }

    /// Takes the shared lock of `layout`, waiting for a writer that is removing superseded
    /// files (it holds the lock only while it unlinks them); `nil` when the file cannot be
    /// created on a read-only or foreign directory.
    ///
    /// - Throws: ``HealthLogError`` when the path is unsafe (a symbolic link, another
    ///   user's file) or `flock(2)` fails.
    static func shared(_ layout: StoreLayout) throws -> ReaderLock? {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(layout.readers, flags: O_RDONLY | O_CREAT)
        } catch let error as HealthLogError where error.errno == EROFS || error.errno == EACCES {
            return nil
        }
        while flock(fd.rawValue, LOCK_SH) != 0 {
            let err = errno
            guard err == EINTR else {
                fd.close()
                throw HealthLogError(.io, "cannot lock \(layout.readers): \(describeErrno(err))", errno: err)
            }
        }
        return ReaderLock(fd: fd)
    }

    /// Takes the lock of `layout` exclusively if no reader holds it, without waiting;
    /// `nil` when some reader does. Writer-only: the caller holds the writer lock and no
    /// snapshot of its own.
    static func tryExclusive(_ layout: StoreLayout) throws -> ReaderLock? {
        let fd = try FileDescriptor.open(layout.readers, flags: O_RDONLY | O_CREAT)
        do {
            guard try fd.tryLockExclusive() else {
                fd.close()
                return nil
            }
        } catch {
            fd.close()
            throw error
        }
        return ReaderLock(fd: fd)
    }
}

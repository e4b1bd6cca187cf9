#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The readers' lock: a shared `flock(2)` on the store's `segments/` directory, held by
/// every ``LogSnapshot`` from before it lists the segments until it is released, so the
/// segment files it may still open lazily are not removed under it.
///
/// `compact` writes rewritten segments under new names (a higher generation) and leaves
/// the files they supersede in place; they are removed only by a writer that takes the
/// lock exclusively without waiting (``tryExclusive(_:)``), which no reader then holds. A
/// reader whose snapshot began after the commit lists only the new files, so it never
/// needs the old ones.
///
/// The lock is on the directory itself, which every store has and nothing replaces, so
/// readers create no file. A store without `segments/` yet has nothing to protect. The
/// lock is released when the value is deinitialised (a class, so a snapshot whose
/// initializer throws half way still lets it go).
final class ReaderLock {
    /// The locked descriptor of `segments/`; closing it releases the lock.
    private let fd: FileDescriptor

    private init(fd: FileDescriptor) {
        self.fd = fd
    }

    deinit {
        fd.close()
    }

    /// Takes the shared lock of `layout`, waiting while a writer removes superseded files
    /// (it holds the lock only while it unlinks them); `nil` when `segments/` does not exist.
    ///
    /// - Throws: ``HealthLogError`` when the path is unsafe (a symbolic link, another
    ///   user's directory) or `flock(2)` fails.
    static func shared(_ layout: StoreLayout) throws -> ReaderLock? {
        guard let fd = try openSegments(layout) else { return nil }
        while flock(fd.rawValue, LOCK_SH) != 0 {
            let err = errno
            guard err == EINTR else {
                fd.close()
                throw HealthLogError(.io, "cannot lock \(layout.segments): \(describeErrno(err))", errno: err)
            }
        }
        return ReaderLock(fd: fd)
    }

    /// Takes the lock of `layout` exclusively if no reader holds it, without waiting;
    /// `nil` when some reader does (or there is no `segments/`). Writer-only: the caller
    /// holds the writer lock and no snapshot of its own.
    static func tryExclusive(_ layout: StoreLayout) throws -> ReaderLock? {
        guard let fd = try openSegments(layout) else { return nil }
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

    /// `segments/` opened read-only, or `nil` when it does not exist.
    private static func openSegments(_ layout: StoreLayout) throws -> FileDescriptor? {
        do {
            return try FileDescriptor.open(layout.segments, flags: O_RDONLY | O_DIRECTORY)
        } catch let error as HealthLogError where error.errno == ENOENT {
            return nil
        }
    }
}

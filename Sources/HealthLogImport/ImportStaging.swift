#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CAtomicRename
import HealthLog

/// Where an import into a store that does not exist yet writes: a new store built beside
/// the target (`TARGET.import-XXXXXX`, a ``ScratchDirectory``), appended to while the export
/// is still being read, then put at the target with one rename that never replaces anything
/// (`renameat2(2)` with `RENAME_NOREPLACE` on Linux, `renamex_np(2)` with `RENAME_EXCL` on
/// Apple systems). Until that rename nothing exists at the target, so a malformed export, a
/// failed append or a crash leaves the target as it was: not created.
///
/// The import holds the target's ``StoreEntryLock`` from before it reads the export until
/// the rename, so a second import into the same new store, a restore into it or a writer
/// creating it waits (up to the lock timeout) instead of racing this one, and then finds
/// the store this one put there. It holds the built directory's lock while it builds it; a
/// later import into the same target removes the leftovers of killed imports (marked,
/// unlocked, named exactly so) and leaves everything else beside the target alone.
final class ImportStaging {
    /// The infix between the target's name and the random part.
    static let infix = ".import-"

    /// The store directory the import is for.
    let target: String
    /// The directory the new store is built in, locked while the import builds it.
    private let scratch: ScratchDirectory
    /// The target's lock, held until the store is renamed into place or abandoned.
    private var entry: StoreEntryLock?

    /// The directory the new store is built in.
    var directory: String { scratch.path }

    /// Starts building a new store for `target`, or `nil` when `target` exists (a store, an
    /// empty directory, a file, a link: the import then appends at the target itself; also
    /// when it was created while this waited for its lock) or no directory can be made
    /// beside it.
    ///
    /// - Throws: ``HealthLogError/Code/locked`` when another process creating the store
    ///   holds its lock longer than `timeout` seconds; ``HealthLogError/Code/io`` when a
    ///   leftover directory of a killed import cannot be removed.
    static func begin(for target: String, timeout: Double = StoreOptions().lockTimeout) throws -> ImportStaging? {
        var path = target
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        guard !path.isEmpty, path != "/", isMissing(path) else { return nil }
        let entry: StoreEntryLock
        do {
            entry = try StoreEntryLock.acquire(for: path, timeout: timeout)
        } catch let error as HealthLogError where error.code != .locked {
            return nil
        }
        do {
            guard isMissing(path) else {
                entry.release()
                return nil
            }
            _ = try ScratchDirectory.removeLeftovers(beside: path, infix: infix)
        } catch {
            entry.release()
            throw error
        }
        guard let scratch = try? ScratchDirectory.make(beside: path, infix: infix) else {
            entry.release()
            return nil
        }
        return ImportStaging(target: path, scratch: scratch, entry: entry)
    }

    /// Whether nothing is at `path` (not even a link).
    private static func isMissing(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) != 0 && errno == ENOENT
    }

    /// The new store for `target` being built in `scratch`, holding `entry`.
    private init(target: String, scratch: ScratchDirectory, entry: StoreEntryLock) {
        self.target = target
        self.scratch = scratch
        self.entry = entry
    }

    /// Lets the target's lock go (an import that neither committed nor abandoned).
    deinit {
        entry?.release()
    }

    /// Lets the target's lock go.
    private func releaseEntry() {
        entry?.release()
        entry = nil
    }

    /// Puts the store built at the target, then syncs the directory holding both, so the
    /// rename is durable when this returns.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when something was created at the target while
    ///   the import ran (nothing is replaced; the built store is removed), the rename fails
    ///   (the built store is removed), or the directory holding the target cannot be synced
    ///   after the rename (the store is at the target then, and the error says so).
    func commit() throws {
        do {
            try scratch.unmark()
        } catch {
            abandon()
            throw error
        }
        var renamed = healthlog_rename_noreplace(directory, target)
        if renamed != 0, errno == EINVAL || errno == ENOSYS {
            // A file system without the flag: a plain rename, after looking once more.
            var status = stat()
            if lstat(target, &status) == 0 {
                errno = EEXIST
            } else {
                renamed = rename(directory, target)
            }
        }
        if renamed != 0 {
            let err = errno
            abandon()
            if err == EEXIST || err == ENOTEMPTY {
                throw HealthLogError(.io, "\(target) was created while the import ran; nothing was imported, import again", errno: err)
            }
            throw HealthLogError(.io, "cannot rename \(directory) to \(target): \(String(cString: strerror(err)))", errno: err)
        }
        scratch.release()
        releaseEntry()
        do {
            try HealthStore.syncDirectory(containing: target)
        } catch let error as HealthLogError {
            throw HealthLogError(.io, "the new store is at \(target), but its directory could not be synced, so it may not survive a crash (\(error.message)); import again to check", errno: error.errno)
        }
    }

    /// Removes the store being built (a failed or empty import): the target stays as it was.
    /// A directory that cannot be removed stays marked, for the next import to remove.
    func abandon() {
        try? scratch.remove()
        releaseEntry()
    }
}

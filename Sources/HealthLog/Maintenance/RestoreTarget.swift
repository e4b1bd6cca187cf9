#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a restore may go, locked and checked before anything is read or written: a
/// missing path, an empty directory, or (with `force`) an existing store; not the backup
/// itself.
enum RestoreTarget {
    /// What is at the target now.
    enum State: Equatable {
        /// Nothing: the restore creates it.
        case missing
        /// An empty directory (or one holding only a `lock` file), replaced by the new store.
        case empty
        /// A store, replaced only with `force`.
        case store
    }

    /// The lock a restore holds from its first look at the target until the new store is
    /// in place.
    enum Lock {
        /// The writer lock of the directory at the target (a store, or an empty directory).
        case writer(WriterLock)
        /// The ``StoreEntryLock`` of a missing target.
        case entry(StoreEntryLock)

        /// Releases the lock.
        func release() {
            switch self {
            case .writer(let lock): lock.release()
            case .entry(let lock): lock.release()
            }
        }
    }

    /// Locks `target` (a real path) and returns what is there, checked under the lock: a
    /// directory's writer lock (`STORE/lock`, created in an empty directory), or for a
    /// missing target its ``StoreEntryLock``, so no writer appends to the store being
    /// replaced and no one creates the store being restored until the restore is done. A
    /// target that changes between the look that picks the lock and the check under it (a
    /// store created or rolled back meanwhile) is looked at again; a writer's or another
    /// restore's lock held longer than `timeout` seconds fails with
    /// ``HealthLogError/Code/locked``.
    ///
    /// - Throws: as ``check(_:backup:force:)``, and ``HealthLogError/Code/locked``.
    static func lock(_ target: String, backup: String, force: Bool, timeout: Double) throws -> (state: State, lock: Lock) {
        while true {
            if try check(target, backup: backup, force: force) == .missing {
                let entry = try StoreEntryLock.acquire(for: target, timeout: timeout)
                if try hold(.entry(entry), { try check(target, backup: backup, force: force) }) == .missing { return (.missing, .entry(entry)) }
                entry.release()
                continue
            }
            let writer: WriterLock
            do {
                writer = try WriterLock.acquire(StoreLayout(directory: target), timeout: timeout)
            } catch let error as HealthLogError where error.errno == ENOENT {
                continue
            }
            let state = try hold(.writer(writer)) { try check(target, backup: backup, force: force) }
            if state != .missing { return (state, .writer(writer)) }
            writer.release()
        }
    }

    /// Runs `body`, releasing `lock` when it throws.
    private static func hold<T>(_ lock: Lock, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            lock.release()
            throw error
        }
    }

    /// The state of `target` (a real path); refuses with ``HealthLogError/Code/badUsage``
    /// anything a restore may not replace, and with ``HealthLogError/Code/unsafeFile`` a
    /// store holding a named pipe, socket or device (``SpecialFileCheck``).
    static func check(_ target: String, backup: String, force: Bool) throws -> State {
        if let source = BackupTarget.resolved(backup), source == target {
            throw HealthLogError(.badUsage, "\(target) is the backup itself; restore into another directory")
        }
        var info = stat()
        guard lstat(target, &info) == 0 else { return .missing }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw HealthLogError(.badUsage, "\(target) is not a directory; restore into a new or empty directory, or over a store with --force")
        }
        if StoreLayout(directory: target).exists {
            guard force else { throw HealthLogError(.badUsage, "\(target) holds a store; pass --force to replace it with the backup") }
            try SpecialFileCheck.refuse(in: target)
            return .store
        }
        guard try DirectoryListing.names(in: target, isNamedByUser: true).allSatisfy({ $0 == "lock" }) else {
            throw HealthLogError(.badUsage, "\(target) is not empty and holds no store; restore into a new or empty directory, or over a store with --force")
        }
        return .empty
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a restore may go, checked before anything is read or written: a missing path, an
/// empty directory, or (with `force`) an existing store; not the backup itself.
enum RestoreTarget {
    /// What is at the target now.
    enum State: Equatable {
        /// Nothing: the restore creates it.
        case missing
        /// An empty directory, replaced by the new store.
        case empty
        /// A store, replaced only with `force`.
        case store
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
        guard try DirectoryListing.names(in: target, isNamedByUser: true).isEmpty else {
            throw HealthLogError(.badUsage, "\(target) is not empty and holds no store; restore into a new or empty directory, or over a store with --force")
        }
        return .empty
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CAtomicRename
import HealthLog

/// Where an import into a store that does not exist yet writes: a new store built beside
/// the target (`TARGET.import-XXXXXX`, mode 0700, made by `mkdtemp(3)`), appended to while
/// the export is still being read, then put at the target with one rename that never
/// replaces anything (`renameat2(2)` with `RENAME_NOREPLACE` on Linux, `renamex_np(2)` with
/// `RENAME_EXCL` on Apple systems). Until that rename nothing exists at the target, so a
/// malformed export, a failed append or a crash leaves the target as it was: not created.
///
/// The import holds an exclusive `flock(2)` on the directory while it builds it; a later
/// import into the same target removes the `TARGET.import-*` directories whose lock it can
/// take (those of killed imports) and leaves the others (an import still running).
final class ImportStaging {
    /// The infix between the target's name and the random part.
    static let infix = ".import-"

    /// The store directory the import is for.
    let target: String
    /// The directory the new store is built in.
    let directory: String
    /// The open directory, locked for as long as the import builds it.
    private var lockFD: Int32

    /// Starts building a new store for `target` with the store options `options`, or `nil`
    /// when `target` exists (a store, an empty directory, a file, a link: the import then
    /// appends at the target itself) or no directory can be made beside it.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when a leftover directory of a killed import
    ///   cannot be removed.
    static func begin(for target: String) throws -> ImportStaging? {
        var path = target
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        guard !path.isEmpty, path != "/" else { return nil }
        var status = stat()
        guard lstat(path, &status) != 0, errno == ENOENT else { return nil }
        try removeLeftovers(of: path)
        var template = Array((path + infix + "XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { return nil }
        let directory = String(cString: made)
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0, flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            if fd >= 0 { close(fd) }
            rmdir(directory)
            return nil
        }
        return ImportStaging(target: path, directory: directory, lockFD: fd)
    }

    /// The new store for `target` being built in `directory`, whose lock `lockFD` holds.
    private init(target: String, directory: String, lockFD: Int32) {
        self.target = target
        self.directory = directory
        self.lockFD = lockFD
    }

    /// Lets the lock go (a directory neither committed nor abandoned stays, for the next
    /// import to remove).
    deinit {
        if lockFD >= 0 { close(lockFD) }
    }

    /// Puts the store built at the target, then syncs the directory holding both, so the
    /// rename is durable when this returns.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when something was created at the target while
    ///   the import ran (nothing is replaced; the built store is removed) or the rename fails.
    func commit() throws {
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
        let parent = Self.split(target).parent
        let fd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 {
            defer { close(fd) }
            guard fsync(fd) == 0 else {
                let err = errno
                throw HealthLogError(.io, "cannot sync \(parent): \(String(cString: strerror(err)))", errno: err)
            }
        }
        close(lockFD)
        lockFD = -1
    }

    /// Removes the store being built (a failed or empty import): the target stays as it was.
    func abandon() {
        try? HealthStore.removeImportDirectory(directory)
        if lockFD >= 0 { close(lockFD) }
        lockFD = -1
    }

    /// Removes the `TARGET.import-*` directories beside `target` whose lock no import holds.
    private static func removeLeftovers(of target: String) throws {
        let (parent, name) = split(target)
        guard let listing = opendir(parent) else { return }
        var names: [String] = []
        while let entry = readdir(listing) {
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if entryName.hasPrefix(name + infix) { names.append(entryName) }
        }
        closedir(listing)
        for entry in names {
            let path = parent + "/" + entry
            let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if fd >= 0 {
                // Held: an import is building it.
                guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
                    close(fd)
                    continue
                }
                defer { close(fd) }
                try HealthStore.removeImportDirectory(path)
            } else {
                try HealthStore.removeImportDirectory(path)
            }
        }
    }

    /// The parent directory and last component of `path`.
    private static func split(_ path: String) -> (parent: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let parent = String(path[..<slash])
        return (parent.isEmpty ? "/" : parent, String(path[path.index(after: slash)...]))
    }
}

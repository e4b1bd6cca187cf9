#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CAtomicRename

/// `healthlog init`: an empty store at a path where none is. A plaintext store is made as
/// the first append makes one (``LogWriter``: `meta`, `segments/`). An encrypted one (`meta`
/// format 2, the first key slot, data-key epoch 0) is built in a private directory beside
/// the target and put there with one rename that replaces nothing but an empty directory,
/// holding the target's ``StoreEntryLock``: a kill leaves no store or a complete one.
enum StoreCreation {
    /// The infix of the directory an encrypted store is built in.
    static let infix = ".init-"

    /// Creates the store of `layout`, encrypted when `secret` is given (opening its first
    /// slot); returns its identity.
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` when a store (or a directory that is not
    ///   empty, for an encrypted store) is already there, or `secret` cannot be read.
    static func create(_ layout: StoreLayout, options: StoreOptions, encryptedWith secret: StoreSecret?) throws -> StoreID {
        guard !layout.exists else { throw exists(layout) }
        guard let secret else {
            let writer = try LogWriter(layout, options: options)
            guard writer.meta == nil else { throw exists(layout) }
            _ = try writer.prepareStoreTag()
            try DurableFile.syncDirectory(containing: trimmed(layout.directory))
            return try StoreMeta.read(layout).storeID
        }
        guard let material = try SecretMaterial.of(secret) else { throw HealthLogError(.badUsage, "an encrypted store needs a passphrase or a key file") }
        let target = trimmed(layout.directory)
        let entry = try StoreEntryLock.acquire(for: target, timeout: options.lockTimeout)
        defer { entry.release() }
        let replacesEmptyDirectory = try isEmptyDirectory(target, layout)
        _ = try ScratchDirectory.removeLeftovers(beside: target, infix: infix)
        let scratch = try ScratchDirectory.make(beside: target, infix: infix)
        let storeID = StoreID.random()
        do {
            let built = StoreLayout(directory: scratch.path)
            try OwnedDirectory.prepare(built.segments)
            let cost = options.faults.weakKeyDerivation ? Argon2id.Cost.weakest : .standard
            let keys = [UInt32(0): try SecretBytes.random(count: XChaCha20Poly1305.keyLength)]
            let ciphers = [UInt32(0): options.cipher ?? .preferred]
            let authority = try SecretBytes.random(count: KeySlot.authorityLength)
            try KeySlots.write(
                KeySlots.make(id: 1, material: material, storeID: storeID, keys: keys, ciphers: ciphers, authority: authority, cost: cost), built)
            try DurableFile.replace(built.meta, with: Array(StoreMeta.new(storeID, encrypted: true).text.utf8))
            try scratch.unmark()
            try put(scratch.path, at: target, replacingEmptyDirectory: replacesEmptyDirectory, layout)
        } catch {
            try? scratch.remove()
            throw error
        }
        scratch.release()
        try DurableFile.syncDirectory(containing: target)
        return storeID
    }

    /// Renames `built` to `target`: never over anything but an empty directory.
    private static func put(_ built: String, at target: String, replacingEmptyDirectory: Bool, _ layout: StoreLayout) throws {
        var renamed: Int32
        if replacingEmptyDirectory {
            renamed = rename(built, target)
        } else {
            renamed = healthlog_rename_noreplace(built, target)
            if renamed != 0, errno == EINVAL || errno == ENOSYS {
                var status = stat()
                if lstat(target, &status) == 0 { errno = EEXIST } else { renamed = rename(built, target) }
            }
        }
        guard renamed == 0 else {
            let err = errno
            if err == EEXIST || err == ENOTEMPTY { throw HealthLogError(.badUsage, "\(target) was filled while the store was being made; nothing was created") }
            throw HealthLogError(.io, "cannot rename \(built) to \(target): \(describeErrno(err))", errno: err)
        }
    }

    /// Whether `path` is an existing empty directory (`false` when nothing is there).
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` when something else is there.
    private static func isEmptyDirectory(_ path: String, _ layout: StoreLayout) throws -> Bool {
        var status = stat()
        guard lstat(path, &status) == 0 else { return false }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw HealthLogError(.badUsage, "\(path) exists and is not a directory") }
        if layout.exists { throw exists(layout) }
        guard try DirectoryListing.names(in: path, isNamedByUser: true).isEmpty else {
            throw HealthLogError(.badUsage, "\(path) is a directory that is not empty; an encrypted store is made in a new or empty directory")
        }
        return true
    }

    private static func exists(_ layout: StoreLayout) -> HealthLogError {
        HealthLogError(.badUsage, "\(layout.directory) already holds a healthlog store")
    }

    private static func trimmed(_ path: String) -> String {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }
}

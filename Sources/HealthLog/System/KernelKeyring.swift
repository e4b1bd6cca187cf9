#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if os(Linux)
internal import CKeyutils
#endif

/// The user's kernel keyring (Linux keyutils, `@u`): where `healthlog unlock` keeps a
/// store's unwrapped data keys for a while, as a `user` key with a timeout, readable by
/// this user's processes only. The payload is copied straight between the kernel and
/// guarded memory (``SecretBytes``).
enum KernelKeyring {
    /// The message when the system offers no keyring.
    static func unavailable(_ detail: String) -> HealthLogError {
        HealthLogError(
            .io,
            "no kernel keyring is available here (\(detail)): give the passphrase or key file to each command instead (--passphrase-file, --key-file, HEALTHLOG_PASSPHRASE_FILE, HEALTHLOG_KEY_FILE)")
    }

    #if os(Linux)
    /// Stores `payload` as the key `description`, replacing one of that name, removed by
    /// the kernel after `seconds`.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when there is no keyring (`ENOSYS`, `EPERM`,
    ///   `EACCES`: a container or a kernel without keys) or the kernel refuses the key
    ///   (over the user's key quota).
    static func store(_ description: String, payload: SecretBytes, seconds: UInt32) throws {
        let id = payload.withUnsafeBytes { add_key("user", description, $0.baseAddress, $0.count, KEY_SPEC_USER_KEYRING) }
        guard id >= 0 else { throw failure("cannot add a key to the user keyring", errno) }
        let permissions = UInt32(KEY_POS_ALL) | UInt32(KEY_USR_VIEW | KEY_USR_READ | KEY_USR_WRITE | KEY_USR_SEARCH | KEY_USR_SETATTR)
        guard keyctl_setperm(id, permissions) == 0, keyctl_set_timeout(id, seconds) == 0 else {
            let err = errno
            _ = keyctl_invalidate(id)
            throw failure("cannot set the key's timeout", err)
        }
    }

    /// The payload of the key `description` in guarded memory; `nil` when there is none
    /// (never stored, expired, or dropped) or no keyring.
    static func read(_ description: String) throws -> SecretBytes? {
        guard let id = find(description) else { return nil }
        let size = keyctl_read(id, nil, 0)
        guard size > 0 else { return nil }
        var read = 0
        let payload = try SecretBytes(count: Int(size)) { out in
            read = keyctl_read(id, out.baseAddress!.assumingMemoryBound(to: CChar.self), out.count)
        }
        return read == size ? payload : nil
    }

    /// Replaces the payload of the key `description`, keeping its timeout; `false` when
    /// there is no such key.
    @discardableResult
    static func update(_ description: String, payload: SecretBytes) -> Bool {
        guard let id = find(description) else { return false }
        return payload.withUnsafeBytes { keyctl_update(id, $0.baseAddress, $0.count) } == 0
    }

    /// Drops the key `description` at once; `false` when there was none.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when there is no keyring.
    static func remove(_ description: String) throws -> Bool {
        try checkAvailable()
        guard let id = find(description) else { return false }
        guard keyctl_invalidate(id) == 0 else { throw failure("cannot drop the key from the user keyring", errno) }
        return true
    }

    /// Checks that the user keyring can be reached.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when it cannot.
    static func checkAvailable() throws {
        if keyctl_get_keyring_ID(KEY_SPEC_USER_KEYRING, 1) < 0 { throw failure("cannot reach the user keyring", errno) }
    }

    private static func find(_ description: String) -> Int32? {
        let id = keyctl_search(KEY_SPEC_USER_KEYRING, "user", description, 0)
        return id > 0 ? Int32(id) : nil
    }

    private static func failure(_ what: String, _ err: Int32) -> HealthLogError {
        if err == ENOSYS || err == EPERM || err == EACCES || err == EOPNOTSUPP {
            return unavailable(describeErrno(err))
        }
        return HealthLogError(.io, "\(what): \(describeErrno(err))", errno: err)
    }
    #else
    static func store(_ description: String, payload: SecretBytes, seconds: UInt32) throws {
        throw unavailable("this system has no Linux kernel keyring")
    }

    static func read(_ description: String) throws -> SecretBytes? { nil }

    @discardableResult
    static func update(_ description: String, payload: SecretBytes) -> Bool { false }

    static func remove(_ description: String) throws -> Bool {
        throw unavailable("this system has no Linux kernel keyring")
    }

    static func checkAvailable() throws {
        throw unavailable("this system has no Linux kernel keyring")
    }
    #endif
}

import Synchronization

/// A handle's way into an encrypted store: the secret it was given and, once a command
/// needed them, the data keys that secret opened (kept for the handle's life, so a handle
/// pays for opening a key slot once).
final class StoreKeys: Sendable {
    /// The secret given; `nil` for none.
    let secret: StoreSecret?
    private let opened: Mutex<StoreCipher?>

    /// Keys to be opened with `secret` at first use.
    init(secret: StoreSecret?) {
        self.secret = secret
        opened = Mutex(nil)
    }

    /// Keys already open: a store made from another whose keys are open (a restore's copy).
    init(cipher: StoreCipher) {
        secret = nil
        opened = Mutex(cipher)
    }

    /// The cipher of the store `meta` describes at `layout`; `nil` for a plaintext store.
    ///
    /// - Throws: ``HealthLogError/Code/keyRequired`` without a secret,
    ///   ``HealthLogError/Code/wrongKey`` when it opens no key slot.
    func cipher(_ layout: StoreLayout, _ meta: StoreMeta) throws -> StoreCipher? {
        guard meta.isEncrypted else { return nil }
        if let cipher = opened.withLock({ $0 }), cipher.storeID == meta.storeID { return cipher }
        guard let secret else { throw Self.keyRequired(layout) }
        let cipher = try KeySlots.unlock(layout, storeID: meta.storeID, secret: secret)
        opened.withLock { $0 = cipher }
        return cipher
    }

    /// The error for an encrypted store opened without a secret.
    static func keyRequired(_ layout: StoreLayout) -> HealthLogError {
        HealthLogError(
            .keyRequired,
            "\(layout.directory) is encrypted: give its passphrase or key with --passphrase-file FILE or --key-file FILE (before the command), HEALTHLOG_PASSPHRASE_FILE, HEALTHLOG_KEY_FILE or HEALTHLOG_PASSPHRASE, type it at the prompt, or run 'healthlog unlock' first")
    }
}

extension StoreLayout {
    /// The cipher of this store (described by `meta`): `nil` when it is plaintext.
    ///
    /// - Throws: as ``StoreKeys/cipher(_:_:)``; ``HealthLogError/Code/keyRequired`` when
    ///   the layout was given no secret at all.
    func cipher(_ meta: StoreMeta) throws -> StoreCipher? {
        guard meta.isEncrypted else { return nil }
        guard let keys else { throw StoreKeys.keyRequired(self) }
        return try keys.cipher(self, meta)
    }
}

import Synchronization

/// A handle's way into an encrypted store: the secret it was given (or where to look for
/// one) and, once a command needed them, the data keys that secret opened (kept for the
/// handle's life, so a handle pays for opening a key slot once). Nothing is looked up for a
/// plaintext store.
final class StoreKeys: Sendable {
    /// The secret given; `nil` for none.
    let secret: StoreSecret?
    /// Without a secret: whether to take the keys `healthlog unlock` left in the keyring.
    private let readsKeyring: Bool
    /// Without a secret, after the keyring: asks for one (the command line's prompt on a
    /// terminal), given the store directory; `nil` when none can be had.
    private let ask: (@Sendable (String) throws -> StoreSecret?)?
    private let opened: Mutex<KeySlots.Opened?>
    /// The secret that opened the keys (``StoreSecret/unlocked`` for the keyring's).
    private let used = Mutex<StoreSecret?>(nil)

    deinit {
        // The opened keys' secrets are wiped one after the other as they go: the pool is
        // made writable once for them all rather than once each.
        SecretPool.shared.writing { opened.withLock { $0 = nil } }
    }

    /// Keys to be opened with `secret` at first use.
    init(secret: StoreSecret?) {
        self.secret = secret
        readsKeyring = false
        ask = nil
        opened = Mutex(nil)
    }

    /// Keys to be opened at first use by the keyring's keys, else by the secret `ask` gives.
    init(readingKeyringThen ask: (@Sendable (String) throws -> StoreSecret?)?) {
        secret = nil
        readsKeyring = true
        self.ask = ask
        opened = Mutex(nil)
    }

    /// Keys already open: a store made from another whose keys are open (a restore's copy).
    init(cipher: StoreCipher) {
        secret = nil
        readsKeyring = false
        ask = nil
        opened = Mutex(KeySlots.Opened(cipher: cipher))
    }

    /// The cipher of the store `meta` describes at `layout`; `nil` for a plaintext store.
    ///
    /// - Throws: ``HealthLogError/Code/keyRequired`` without a secret,
    ///   ``HealthLogError/Code/wrongKey`` when it opens no key slot.
    func cipher(_ layout: StoreLayout, _ meta: StoreMeta) throws -> StoreCipher? {
        guard meta.isEncrypted else { return nil }
        return try open(layout, meta).cipher
    }

    /// The keys of the encrypted store `meta` describes at `layout`, opened now if not yet.
    ///
    /// - Throws: as ``cipher(_:_:)``.
    func open(_ layout: StoreLayout, _ meta: StoreMeta) throws -> KeySlots.Opened {
        if let done = opened.withLock({ $0 }), done.cipher.storeID == meta.storeID { return done }
        let done = try resolve(layout, meta.storeID)
        opened.withLock { $0 = done }
        return done
    }

    /// The keys of the encrypted store `meta` describes, opened now if not yet, with the
    /// secret given or the keyring's keys but never by asking; `nil` when neither is at hand.
    ///
    /// - Throws: ``HealthLogError/Code/wrongKey`` when the secret given opens no slot.
    func openWithoutAsking(_ layout: StoreLayout, _ meta: StoreMeta) throws -> KeySlots.Opened? {
        if let done = opened.withLock({ $0 }), done.cipher.storeID == meta.storeID { return done }
        if secret == nil && !readsKeyring { return nil }
        do {
            let done = try KeySlots.unlock(layout, storeID: meta.storeID, secret: secret ?? .unlocked)
            opened.withLock { $0 = done }
            return done
        } catch let error as HealthLogError where error.code == .keyRequired {
            return nil
        }
    }

    /// Opens the keys again when another process rotated since they were opened: when the
    /// current epoch the slot files' verified entries name is not the one the kept keys seal
    /// under. A writer calls it holding the writer lock, so it seals what it appends under
    /// the current epoch, never under one a later `compact --rekey` drops. Nothing happens
    /// for keys not opened yet or given already open.
    ///
    /// - Throws: as ``open(_:_:)``; ``HealthLogError/Code/keyRequired`` when the keys came
    ///   from the keyring and it holds none of the new epoch.
    func reopenIfRotated(_ layout: StoreLayout) throws {
        guard let done = opened.withLock({ $0 }), let authority = done.authority, let secret = used.withLock({ $0 }) else { return }
        let slots = KeySlots.verified(try KeySlots.read(layout).compactMap(\.slot), storeID: done.cipher.storeID, authority: authority)
        guard let current = KeySlots.currentEpoch(slots), current != done.cipher.currentEpoch else { return }
        let again = try KeySlots.unlock(layout, storeID: done.cipher.storeID, secret: secret)
        opened.withLock { $0 = again }
    }

    /// Keeps `keys` as the store's open keys (after a rotation changed them).
    func replace(with keys: KeySlots.Opened) {
        opened.withLock { $0 = keys }
    }

    private func resolve(_ layout: StoreLayout, _ storeID: StoreID) throws -> KeySlots.Opened {
        if let secret { return try unlock(layout, storeID, secret) }
        if readsKeyring {
            do {
                return try unlock(layout, storeID, .unlocked)
            } catch let error as HealthLogError where error.code == .keyRequired {}
        }
        guard let secret = try ask?(layout.directory) else { throw Self.keyRequired(layout) }
        return try unlock(layout, storeID, secret)
    }

    private func unlock(_ layout: StoreLayout, _ storeID: StoreID, _ secret: StoreSecret) throws -> KeySlots.Opened {
        let opened = try KeySlots.unlock(layout, storeID: storeID, secret: secret)
        used.withLock { $0 = secret }
        return opened
    }

    /// The secret that opens the encrypted store `meta` describes at `layout` (opening its
    /// keys now if not yet): what a process the command starts (the import worker) is
    /// handed; `nil` for keys given already open.
    func secretUsed(_ layout: StoreLayout, _ meta: StoreMeta) throws -> StoreSecret? {
        _ = try open(layout, meta)
        return used.withLock { $0 }
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

    /// The open keys of this encrypted store (described by `meta`).
    ///
    /// - Throws: as ``cipher(_:)``.
    func openKeys(_ meta: StoreMeta) throws -> KeySlots.Opened {
        guard let keys else { throw StoreKeys.keyRequired(self) }
        return try keys.open(self, meta)
    }
}

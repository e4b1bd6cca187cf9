/// An encrypted store's keys: the handle that opens one, its creation, its key slots and
/// the keyring that keeps its keys unlocked for a while.
extension HealthStore {
    /// A handle on the store at `directory` that opens an encrypted store with `secret`
    /// (ignored by a plaintext store); nothing is read or created until first use, and the
    /// key slot is opened once, by the first call that needs it.
    ///
    /// ```swift
    /// let store = HealthStore(directory: "health.store", secret: .keyFile("/run/keys/health.key"))
    /// ```
    ///
    /// Calls on an encrypted store throw ``HealthLogError/Code/keyRequired`` without a
    /// secret and ``HealthLogError/Code/wrongKey`` when `secret` opens none of its key slots.
    public convenience init(directory: String, secret: StoreSecret, options: StoreOptions = StoreOptions()) {
        self.init(directory: directory, options: options, keys: StoreKeys(secret: secret))
    }

    /// A handle whose secret is `secret` when given; otherwise the keys `healthlog unlock`
    /// left in the keyring, else what `ask` returns (the command line's prompt), asked only
    /// when the store turns out to be encrypted.
    package convenience init(directory: String, secret: StoreSecret?, ask: (@Sendable (String) throws -> StoreSecret?)?, options: StoreOptions) {
        let keys = secret.map { StoreKeys(secret: $0) } ?? StoreKeys(readingKeyringThen: ask)
        self.init(directory: directory, options: options, keys: keys)
    }

    /// Creates an empty store at the directory, encrypted when `secret` is given (its
    /// first key slot); returns the store's identity as text.
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` when a store is already there.
    @discardableResult
    package func create(encryptedWith secret: StoreSecret?) throws -> String {
        try StoreCreation.create(layout, options: options, encryptedWith: secret).text
    }

    /// Adds a key slot for `secret`, opening the store with this handle's secret; returns
    /// the new slot's id.
    package func addKeySlot(_ secret: StoreSecret) throws -> Int {
        Int(try KeyChanges(layout: layout, options: options).add(secret))
    }

    /// Removes key slot `id`, never the last.
    package func removeKeySlot(_ id: Int) throws {
        guard let id = UInt16(exactly: id), id >= 1, id <= KeySlot.maximumID else {
            throw HealthLogError(.badUsage, "a key slot id is a number from 1 to \(KeySlot.maximumID), not \(id)")
        }
        try KeyChanges(layout: layout, options: options).remove(id)
    }

    /// Starts a new data-key epoch for everything written from now on; returns it.
    package func rotateKey() throws -> UInt32 {
        try KeyChanges(layout: layout, options: options).rotate()
    }

    /// The key slots and key epochs of an encrypted store, and the epochs its segments are
    /// sealed under; needs no secret. With the handle's secret or the keyring's keys (never
    /// asked for) it checks each data-key entry's MAC: entries that fail are left out and
    /// named as the slot's problem.
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` when the store is not encrypted;
    ///   ``HealthLogError/Code/wrongKey`` when the secret given opens no slot.
    package func keySlots() throws -> KeySlotListing {
        let meta = try StoreMeta.read(layout)
        guard meta.isEncrypted else { throw HealthLogError(.badUsage, "\(directory) is not encrypted: it has no key slots") }
        let found = try KeySlots.read(layout)
        let authority = try layout.keys?.openWithoutAsking(layout, meta)?.authority
        var readable = found.compactMap(\.slot)
        if let authority { readable = KeySlots.verified(readable, storeID: meta.storeID, authority: authority) }
        let slots = found.map { found in
            let kept = readable.first { $0.id == found.id }
            let failed = (found.slot?.epochs ?? []).filter { !(kept?.epochs ?? []).contains($0) }
            let problem = failed.isEmpty ? found.problem : "the entries of key epochs \(failed.map(String.init).joined(separator: ",")) fail their MAC (written without the store's secret); they are ignored"
            return KeySlotListing.Slot(
                id: Int(found.id), kind: found.slot?.kind.name, created: found.slot.map { Timestamp(microseconds: $0.createdMillis * 1000, fractionDigits: 0) },
                epochs: kept?.epochs ?? [], problem: problem)
        }
        return KeySlotListing(
            slots: slots, currentEpoch: KeySlots.currentEpoch(readable), ciphers: KeySlots.ciphers(readable), isVerified: authority != nil,
            batchesByEpoch: try SealedEpochs.count(layout))
    }

    /// The cipher new data is sealed with and its key epoch, as the slot files say (no
    /// secret needed, no MAC checked); `nil` for a plaintext store or when no slot is
    /// readable.
    package func currentCipher() throws -> (cipher: UnitCipher, epoch: UInt32)? {
        guard try StoreMeta.read(layout).isEncrypted else { return nil }
        let slots = try KeySlots.read(layout).compactMap(\.slot)
        guard let epoch = KeySlots.currentEpoch(slots) else { return nil }
        return (KeySlots.ciphers(slots)[epoch] ?? .xchacha20Poly1305, epoch)
    }

    /// Opens the store with this handle's secret and keeps its data keys in the user's
    /// kernel keyring for `seconds`, so later handles (and commands) open it without one.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when there is no keyring (before any secret is
    ///   asked for); ``HealthLogError/Code/badUsage`` for a plaintext store.
    package func unlock(seconds: UInt32) throws {
        let meta = try StoreMeta.read(layout)
        guard meta.isEncrypted else { throw HealthLogError(.badUsage, "\(directory) is not encrypted: there is nothing to unlock") }
        try KernelKeyring.checkAvailable()
        let opened = try layout.openKeys(meta)
        guard !opened.keys.isEmpty, let authority = opened.authority else { throw StoreKeys.keyRequired(layout) }
        try UnlockedKeys.store(meta.storeID, keys: opened.keys, authority: authority, seconds: seconds)
    }

    /// Drops the keys ``unlock(seconds:)`` left in the keyring; `false` when there were none.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when there is no keyring;
    ///   ``HealthLogError/Code/badUsage`` for a plaintext store.
    package func lock() throws -> Bool {
        let meta = try StoreMeta.read(layout)
        guard meta.isEncrypted else { throw HealthLogError(.badUsage, "\(directory) is not encrypted: there is nothing to lock") }
        return try UnlockedKeys.drop(meta.storeID)
    }

    /// The secret that opens this store when it is encrypted (asking for it, or taking the
    /// keyring's keys, as any command does), for a process the command starts; `nil` for a
    /// plaintext or missing store.
    ///
    /// - Throws: ``HealthLogError/Code/keyRequired`` or ``HealthLogError/Code/wrongKey`` as
    ///   any read of the store does.
    package func secretForWorker() throws -> StoreSecret? {
        guard layout.exists else { return nil }
        let meta = try StoreMeta.read(layout)
        guard meta.isEncrypted else { return nil }
        guard let keys = layout.keys else { throw StoreKeys.keyRequired(layout) }
        return try keys.secretUsed(layout, meta)
    }

    /// This store with other options, opened with the same keys.
    package func with(options: StoreOptions) -> HealthStore {
        HealthStore(directory: directory, options: options, keys: layout.keys)
    }
}

/// What `healthlog key list` shows: each key slot, and the current data-key epoch.
package struct KeySlotListing: Sendable {
    /// One slot file.
    package struct Slot: Sendable {
        package let id: Int
        /// "passphrase" or "key file"; `nil` when the file is damaged.
        package let kind: String?
        package let created: Timestamp?
        /// The data-key epochs it holds.
        package let epochs: [UInt32]
        /// What is wrong with a damaged file.
        package let problem: String?
    }

    package let slots: [Slot]
    /// The epoch new data is sealed under; `nil` when no slot is readable.
    package let currentEpoch: UInt32?
    /// Each epoch's cipher.
    package let ciphers: [UInt32: UnitCipher]
    /// Whether the entries' MACs were checked (a secret or the keyring's keys were at hand).
    package let isVerified: Bool
    /// How many of the segments' batches each epoch seals.
    package let batchesByEpoch: [UInt32: Int]
}

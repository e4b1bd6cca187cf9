#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Changes to an encrypted store's key slots: add a slot, remove one, rotate the data key.
/// Each opens the store's keys with the handle's secret first (a prompt is never answered
/// while the writer lock is held), then works under the writer lock, rewriting only slot
/// files, one at a time, each atomically and durably (``KeySlots/write(_:_:)``). A kill at
/// any moment leaves every slot either as it was or as it was meant to become: the old
/// secrets open the store, and so do the new ones once their slot is written.
struct KeyChanges {
    let layout: StoreLayout
    let options: StoreOptions

    /// Adds a slot for `secret` holding every data key the handle's secret opened; returns
    /// its id.
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` when the store is not encrypted or
    ///   `secret` cannot be read; as ``KeySlots/unlock(_:storeID:secret:)`` when the
    ///   handle's secret opens nothing.
    func add(_ secret: StoreSecret) throws -> UInt16 {
        let (meta, opened, authority) = try openKeys()
        guard let material = try SecretMaterial.of(secret) else { throw HealthLogError(.badUsage, "a new key slot needs a passphrase or a key file") }
        return try locked { faults in
            let found = try KeySlots.read(layout)
            try requireCurrent(opened, found, meta.storeID, authority)
            let id = (found.map(\.id).max() ?? 0) + 1
            guard id <= KeySlot.maximumID else { throw HealthLogError(.badUsage, "\(layout.keySlots) already has slot \(KeySlot.maximumID): no slot id is left") }
            let cost = options.faults.weakKeyDerivation ? Argon2id.Cost.weakest : .standard
            try KeySlots.write(KeySlots.make(id: id, material: material, storeID: meta.storeID, keys: opened.keys, ciphers: opened.ciphers, authority: authority, cost: cost), layout)
            faults.reach(.slotWritten)
            return id
        }
    }

    /// Removes slot `id` (unlink, directory fsync), never the last readable one, nor the one
    /// the handle's secret opened.
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` when there is no such slot, it is the
    ///   last, or the secret given opens it.
    func remove(_ id: UInt16) throws {
        let (meta, opened, authority) = try openKeys()
        try locked { faults in
            let found = try KeySlots.read(layout)
            guard found.contains(where: { $0.id == id }) else { throw HealthLogError(.badUsage, "\(layout.directory) has no key slot \(id)") }
            let others = KeySlots.verified(found.compactMap(\.slot).filter { $0.id != id }, storeID: meta.storeID, authority: authority)
            guard !others.isEmpty else {
                throw HealthLogError(.badUsage, "key slot \(id) is the store's last key slot that opens: add another slot first ('healthlog key add'), or the store could never be opened again")
            }
            guard opened.slot != id else {
                throw HealthLogError(.badUsage, "the secret given opens key slot \(id) itself: give the passphrase or key file of a slot that stays")
            }
            let path = KeySlots.path(layout, id)
            guard unlink(path) == 0 else {
                let err = errno
                throw HealthLogError(.io, "cannot remove \(path): \(describeErrno(err))", errno: err)
            }
            faults.reach(.slotRemoved)
            try DurableFile.syncDirectory(layout.keySlots)
        }
    }

    /// Starts a new data-key epoch sealing with the options' cipher (else
    /// ``UnitCipher/preferred``): a new random key, one past every epoch any slot holds
    /// (of the entries the slot authority key vouches for), sealed to each slot with such
    /// entries (wrapped under its entry key for the slot the handle's secret opened, whose
    /// sealed entries are wrapped too), with its MAC under the slot authority key (which
    /// the opened slot or the keyring gave), and written slot by slot. It becomes current once
    /// every slot holds it. Refreshes the keys `healthlog unlock` left in the keyring.
    /// Returns the new epoch.
    ///
    /// - Throws: ``HealthLogError/Code/corrupt`` when a slot file is damaged (it could not
    ///   receive the new key: remove it first).
    func rotate() throws -> UInt32 {
        let (meta, opened, authority) = try openKeys()
        return try locked { faults in
            let found = try KeySlots.read(layout)
            if let damaged = found.first(where: { $0.slot == nil }) {
                throw HealthLogError(
                    .corrupt,
                    "\(KeySlots.path(layout, damaged.id)): \(damaged.problem ?? "damaged"); it cannot receive the new key: remove it with 'healthlog key remove \(damaged.id)' first")
            }
            try requireCurrent(opened, found, meta.storeID, authority)
            // Only slots with entries the authority key vouches for, rewritten with only those
            // entries: a slot file someone without a secret put in `keys/` gets no key, and
            // entries no secret holder made are dropped; the new epoch is still numbered past
            // every epoch any file names.
            let slots = KeySlots.verified(found.compactMap(\.slot), storeID: meta.storeID, authority: authority)
            let highest = found.compactMap(\.slot).flatMap(\.epochs).max() ?? 0
            guard highest < UInt32.max else { throw HealthLogError(.badUsage, "no key epoch is left") }
            let epoch = highest + 1
            let key = try SecretBytes.random(count: XChaCha20Poly1305.keyLength)
            let cipher = options.cipher ?? .preferred
            for var slot in slots {
                let entryKey = opened.opener.flatMap { $0.isSame(as: slot) ? $0.entryKey : nil }
                if let entryKey {
                    let before = slot
                    slot.entries = try before.entries.map { entry in
                        guard entry.form == .sealed, let old = opened.keys[entry.epoch] else { return entry }
                        return try KeySlots.entry(entry.epoch, old, entry.cipher, to: before, entryKey: entryKey, storeID: meta.storeID, authority: authority)
                    }
                }
                slot.entries.append(try KeySlots.entry(epoch, key, cipher, to: slot, entryKey: entryKey, storeID: meta.storeID, authority: authority))
                try KeySlots.write(slot, layout)
                faults.reach(.slotWritten)
            }
            var keys = opened.keys
            keys[epoch] = key
            var ciphers = opened.ciphers
            ciphers[epoch] = cipher
            layout.keys?.replace(with: KeySlots.Opened(storeID: meta.storeID, keys: keys, ciphers: ciphers, authority: authority, current: epoch, opener: opened.opener))
            try UnlockedKeys.refresh(meta.storeID, keys: keys, authority: authority)
            return epoch
        }
    }

    /// The store's `meta`, the keys the handle's secret opens and the slot authority key.
    private func openKeys() throws -> (StoreMeta, KeySlots.Opened, SecretBytes) {
        let meta = try StoreMeta.read(layout)
        guard meta.isEncrypted else { throw HealthLogError(.badUsage, "\(layout.directory) is not encrypted: it has no key slots") }
        let opened = try layout.openKeys(meta)
        guard !opened.keys.isEmpty, let authority = opened.authority else { throw StoreKeys.keyRequired(layout) }
        return (meta, opened, authority)
    }

    /// Checks that `opened` holds the current epoch of the slots `found`, counting only
    /// entries that verify under `authority` (a rotation by another process since they were
    /// opened would make it miss it).
    private func requireCurrent(_ opened: KeySlots.Opened, _ found: [KeySlots.Found], _ storeID: StoreID, _ authority: SecretBytes) throws {
        let slots = KeySlots.verified(found.compactMap(\.slot), storeID: storeID, authority: authority)
        guard let current = KeySlots.currentEpoch(slots), opened.keys[current] != nil else {
            throw HealthLogError(.locked, "\(layout.directory): the store's keys changed while this command ran; run it again")
        }
    }

    /// Runs `body` holding the writer lock, after removing what killed writers left.
    private func locked<R>(_ body: (FaultCounter) throws -> R) throws -> R {
        let lock = try WriterLock.acquire(layout, timeout: options.lockTimeout)
        defer { lock.release() }
        try Debris.remove(layout)
        return try body(FaultCounter(options.faults))
    }
}

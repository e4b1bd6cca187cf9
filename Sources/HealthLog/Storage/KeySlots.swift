/// The key slots of an encrypted store (`keys/`, one ``KeySlot`` file each): each wraps the
/// store's data keys for one passphrase or key file. The current key epoch, under which new
/// units are sealed, is the highest epoch every slot holds, so a rotation that stopped
/// part-way (the new epoch in some slots only) changes nothing.
enum KeySlots {
    /// A slot file as found: the slot, or what is wrong with it.
    struct Found: Sendable {
        /// The slot id its file name gives.
        let id: UInt16
        /// The slot; `nil` when the file is damaged.
        let slot: KeySlot?
        /// What is wrong with a damaged file.
        let problem: String?
    }

    /// The slot a secret opened: its id, its public key and its entry key
    /// (``KeySlot/entryKey(_:)``), with which a later change wraps that slot's new entries.
    struct OpenedSlot: Sendable {
        let id: UInt16
        let publicKey: [UInt8]
        let entryKey: SecretBytes

        /// Whether `slot` is this slot: the same id and the same key pair (not a slot
        /// removed and made again under the same id since).
        func isSame(as slot: KeySlot) -> Bool { slot.id == id && slot.publicKey == publicKey }
    }

    /// What a secret opened: the data keys by epoch and each epoch's cipher, the cipher
    /// sealing under the current epoch, the slot authority key, and the slot that opened
    /// (`nil` for keys from the keyring).
    struct Opened: Sendable {
        let cipher: StoreCipher
        /// The data keys by epoch.
        let epochKeys: EpochTable<SecretBytes>
        /// Each epoch's cipher.
        let epochCiphers: EpochTable<UnitCipher>
        /// The key that authenticates slot entries; `nil` when the keys are not at hand.
        let authority: SecretBytes?
        /// The slot that opened; `nil` for keys from the keyring or given already open.
        let opener: OpenedSlot?

        /// The id of the slot that opened.
        var slot: UInt16? { opener?.id }

        /// The data keys by epoch, as a dictionary.
        var keys: [UInt32: SecretBytes] { epochKeys.dictionary }
        /// Each epoch's cipher, as a dictionary.
        var ciphers: [UInt32: UnitCipher] { epochCiphers.dictionary }

        init(storeID: StoreID, keys: EpochTable<SecretBytes>, ciphers: EpochTable<UnitCipher>, authority: SecretBytes, current: UInt32, opener: OpenedSlot?) {
            cipher = StoreCipher(storeID: storeID, keys: keys, ciphers: ciphers, current: current)
            epochKeys = keys
            epochCiphers = ciphers
            self.authority = authority
            self.opener = opener
        }

        /// ``init(storeID:keys:ciphers:authority:current:opener:)`` with the keys and ciphers
        /// as dictionaries.
        init(storeID: StoreID, keys: [UInt32: SecretBytes], ciphers: [UInt32: UnitCipher], authority: SecretBytes, current: UInt32, opener: OpenedSlot?) {
            self.init(storeID: storeID, keys: EpochTable(keys), ciphers: EpochTable(ciphers), authority: authority, current: current, opener: opener)
        }

        /// A cipher opened elsewhere, whose keys are not at hand.
        init(cipher: StoreCipher) {
            self.cipher = cipher
            epochKeys = EpochTable()
            epochCiphers = EpochTable()
            authority = nil
            opener = nil
        }
    }

    /// A slot's file.
    static func path(_ layout: StoreLayout, _ id: UInt16) -> String {
        layout.keySlots + "/" + KeySlot.fileName(id)
    }

    /// Every slot file of the store at `layout`, by ascending id; temporaries and other
    /// names are not slots.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when the directory or a file cannot be read.
    static func read(_ layout: StoreLayout) throws -> [Found] {
        let ids = try DirectoryListing.names(in: layout.keySlots).compactMap(KeySlot.id(fileName:)).sorted()
        return try ids.compactMap { id -> Found? in
            guard let bytes = try SmallFile.read(path(layout, id), maxLength: 1 << 24) else { return nil }
            do {
                return Found(id: id, slot: try KeySlot.decode(bytes, id: id), problem: nil)
            } catch let problem as KeySlot.Problem {
                return Found(id: id, slot: nil, problem: problem.message)
            }
        }
    }

    /// The cipher of each epoch the entries of `slots` name (verified ones, for a cipher to
    /// seal or open with).
    static func ciphers(_ slots: [KeySlot]) -> [UInt32: UnitCipher] {
        cipherTable(slots).dictionary
    }

    /// ``ciphers(_:)`` as an epoch table.
    static func cipherTable(_ slots: [KeySlot]) -> EpochTable<UnitCipher> {
        var ciphers = EpochTable<UnitCipher>()
        for slot in slots { for entry in slot.entries { ciphers[entry.epoch] = entry.cipher } }
        return ciphers
    }

    /// The highest epoch every slot of `slots` holds; `nil` when they share none.
    static func currentEpoch(_ slots: [KeySlot]) -> UInt32? {
        guard let first = slots.first else { return nil }
        let rest = slots.dropFirst().map(\.epochs)
        return first.epochs.filter { epoch in rest.allSatisfy { $0.contains(epoch) } }.max()
    }

    /// `slots` holding only the entries whose MAC verifies under `authority`; a slot none of
    /// whose entries verifies is left out, as a damaged file is.
    static func verified(_ slots: [KeySlot], storeID: StoreID, authority: SecretBytes) -> [KeySlot] {
        slots.compactMap { slot in
            var kept = slot
            kept.entries = slot.entries.filter { slot.verifies($0, storeID: storeID, authority: authority) }
            return kept.entries.isEmpty ? nil : kept
        }
    }

    /// The data keys of the store at `layout` that `secret` opens (``Opened``). Only entries
    /// whose MAC verifies under the authority key count; others are ignored.
    ///
    /// - Throws: ``HealthLogError/Code/wrongKey`` when no slot opens with it;
    ///   ``HealthLogError/Code/keyRequired`` for ``StoreSecret/unlocked`` when the keyring
    ///   holds no keys of this store (or older ones); ``HealthLogError/Code/badUsage`` when
    ///   the secret cannot be read; ``HealthLogError/Code/corrupt`` when a slot that opened
    ///   holds a data key that does not.
    static func unlock(_ layout: StoreLayout, storeID: StoreID, secret: StoreSecret) throws -> Opened {
        // The secrets it unwraps fill guarded room one after the other: the pool is made
        // writable once for them all rather than once each (two `mprotect` calls a secret).
        try SecretPool.shared.writing { try unlocking(layout, storeID: storeID, secret: secret) }
    }

    /// ``unlock(_:storeID:secret:)``'s work.
    private static func unlocking(_ layout: StoreLayout, storeID: StoreID, secret: StoreSecret) throws -> Opened {
        let found = try read(layout)
        let slots = found.compactMap(\.slot)
        guard currentEpoch(slots) != nil else {
            throw HealthLogError(.corrupt, "\(layout.keySlots): no readable key slot\(damageNote(found)); the store cannot be opened")
        }
        guard let material = try SecretMaterial.of(secret) else {
            guard let (keys, authority) = try UnlockedKeys.read(storeID), case let vouched = verified(slots, storeID: storeID, authority: authority),
                let current = currentEpoch(vouched), keys[current] != nil
            else {
                throw HealthLogError(.keyRequired, "\(layout.directory) is not unlocked (or was unlocked before its last key rotation): run 'healthlog unlock'")
            }
            return Opened(storeID: storeID, keys: keys, ciphers: cipherTable(vouched), authority: authority, current: current, opener: nil)
        }
        for slot in slots where slot.kind == material.kind {
            let wrappingKey = try material.wrappingKey(for: slot)
            guard let (secretKey, authority) = try unwrap(slot, storeID: storeID, wrappingKey: wrappingKey),
                case let vouched = verified(slots, storeID: storeID, authority: authority), let current = currentEpoch(vouched)
            else { continue }
            let entryKey = try KeySlot.entryKey(secretKey)
            let keys = try open(slot, layout, storeID: storeID, secretKey: secretKey, entryKey: entryKey, authority: authority)
            guard keys[current] != nil else { continue }
            let opener = OpenedSlot(id: slot.id, publicKey: slot.publicKey, entryKey: entryKey)
            return Opened(storeID: storeID, keys: keys, ciphers: cipherTable(vouched), authority: authority, current: current, opener: opener)
        }
        throw HealthLogError(.wrongKey, "\(layout.directory): the \(material.kind.name) given opens no key slot\(damageNote(found))")
    }

    /// The secret key and the slot authority key of `slot`, unwrapped with `wrappingKey`;
    /// `nil` when they do not unwrap (another passphrase or key file). The secret key stays
    /// in the unwrapped allocation; the authority key, which may be kept longer, gets its own.
    static func unwrap(_ slot: KeySlot, storeID: StoreID, wrappingKey: SecretBytes) throws -> (secretKey: SecretBytes, authority: SecretBytes)? {
        struct DoesNotOpen: Error {}
        let associated = slot.wrapAssociatedData(storeID)
        let both: SecretBytes
        do {
            both = try SecretBytes(count: SealedBox.secretKeyLength + KeySlot.authorityLength) { out in
                let opened = slot.wrappedSecretKey.withUnsafeBytes { wrapped in
                    associated.withUnsafeBytes { XChaCha20Poly1305.open(wrapped, associated: $0, key: wrappingKey, into: out) }
                }
                guard opened else { throw DoesNotOpen() }
            }
        } catch is DoesNotOpen {
            return nil
        }
        let authority = try both.withUnsafeBytes { try SecretBytes(copying: UnsafeRawBufferPointer(rebasing: $0[SealedBox.secretKeyLength...])) }
        return (SecretBytes(part: 0..<SealedBox.secretKeyLength, of: both), authority)
    }

    /// The data keys of `slot` by epoch, opened with its unwrapped `secretKey` (sealed
    /// entries) or the `entryKey` it gives (wrapped ones); entries whose MAC does not
    /// verify under `authority` are skipped, never opened.
    ///
    /// - Throws: ``HealthLogError/Code/corrupt`` when a data key with a valid MAC does not
    ///   open though the secret key did (the file was changed).
    static func open(
        _ slot: KeySlot, _ layout: StoreLayout, storeID: StoreID, secretKey: SecretBytes, entryKey: SecretBytes, authority: SecretBytes
    ) throws -> EpochTable<SecretBytes> {
        var keys = EpochTable<SecretBytes>()
        for (index, entry) in slot.entries.enumerated() where slot.verifies(entry, storeID: storeID, authority: authority) {
            let opened =
                switch entry.form {
                case .sealed: try SealedBox.open(entry.sealed[...], publicKey: slot.publicKey, secretKey: secretKey)
                case .wrapped: try unwrap(entry, of: slot, storeID: storeID, entryKey: entryKey)
                }
            guard let sealed = opened, sealed.withUnsafeBytes({ $0.loadUnaligned(as: UInt32.self) }) == entry.epoch.littleEndian else {
                throw HealthLogError(
                    .corrupt,
                    "\(path(layout, slot.id)) at byte \(KeySlot.fixedLength + index * KeySlot.entryLength(version: slot.fileVersion)): the data key of epoch \(entry.epoch) does not open (the file was changed)")
            }
            keys[entry.epoch] = SecretBytes(part: 4..<4 + XChaCha20Poly1305.keyLength, of: sealed)
        }
        return keys
    }

    /// The plaintext of the wrapped `entry` of `slot` (epoch ‖ data key) under `entryKey`;
    /// `nil` when it does not open or its padding is not zero.
    private static func unwrap(_ entry: KeySlot.Entry, of slot: KeySlot, storeID: StoreID, entryKey: SecretBytes) throws -> SecretBytes? {
        struct DoesNotOpen: Error {}
        let associated = slot.entryAssociatedData(entry.epoch, entry.cipher, storeID: storeID)
        do {
            return try SecretBytes(count: entry.sealed.count - XChaCha20Poly1305.overhead) { out in
                let opened = entry.sealed.withUnsafeBytes { sealed in
                    associated.withUnsafeBytes { XChaCha20Poly1305.open(sealed, associated: $0, key: entryKey, into: out) }
                }
                guard opened, out[(4 + XChaCha20Poly1305.keyLength)...].allSatisfy({ $0 == 0 }) else { throw DoesNotOpen() }
            }
        } catch is DoesNotOpen {
            return nil
        }
    }

    /// A new slot `id` of the store `storeID` for `material`, holding `keys` (each epoch with
    /// its cipher in `ciphers`; an epoch without one is left out) and the slot authority key `authority`; a passphrase slot
    /// derives its wrapping key at `cost`.
    static func make(
        id: UInt16, material: SecretMaterial, storeID: StoreID, keys: [UInt32: SecretBytes], ciphers: [UInt32: UnitCipher], authority: SecretBytes, cost: Argon2id.Cost
    ) throws -> KeySlot {
        let (publicKey, secretKey) = try SealedBox.keyPair()
        let entryKey = try KeySlot.entryKey(secretKey)
        var slot = KeySlot(
            id: id, kind: material.kind, createdMillis: Clock.nowMillis(),
            cost: material.kind == .passphrase ? cost : Argon2id.Cost(operations: 0, memory: 0), salt: try Sodium.random(count: Argon2id.saltLength),
            publicKey: publicKey, wrappedSecretKey: [], entries: [])
        let wrappingKey = try material.wrappingKey(for: slot)
        let associated = slot.wrapAssociatedData(storeID)
        let both = try SecretBytes(count: SealedBox.secretKeyLength + KeySlot.authorityLength) { out in
            secretKey.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: out[..<SealedBox.secretKeyLength]).copyMemory(from: $0) }
            authority.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: out[SealedBox.secretKeyLength...]).copyMemory(from: $0) }
        }
        var wrapped = [UInt8](repeating: 0, count: KeySlot.wrappedLength)
        both.withUnsafeBytes { both in
            associated.withUnsafeBytes { associated in
                wrapped.withUnsafeMutableBytes { XChaCha20Poly1305.seal(both, associated: associated, key: wrappingKey, into: $0) }
            }
        }
        slot.wrappedSecretKey = wrapped
        // An epoch no readable slot names (one `compact --rekey` dropped, still in a
        // keyring) is left out, never given back under a guessed cipher.
        for epoch in keys.keys.sorted() {
            guard let cipher = ciphers[epoch] else { continue }
            slot.entries.append(try entry(epoch, keys[epoch]!, cipher, to: slot, entryKey: entryKey, storeID: storeID, authority: authority))
        }
        return slot
    }

    /// The data key `key` of `epoch`, sealing with `cipher`, for `slot`, with its MAC under
    /// `authority`: wrapped (with its epoch) under the slot's `entryKey` when it is given
    /// (only a holder of the slot's secret key has it), else sealed to the slot's public key.
    static func entry(
        _ epoch: UInt32, _ key: SecretBytes, _ cipher: UnitCipher, to slot: KeySlot, entryKey: SecretBytes?, storeID: StoreID, authority: SecretBytes
    ) throws -> KeySlot.Entry {
        let form: KeySlot.Entry.Form = entryKey == nil ? .sealed : .wrapped
        let plaintext = try SecretBytes(count: 4 + key.count + (entryKey == nil ? 0 : KeySlot.wrappedPadding)) { out in
            out.initializeMemory(as: UInt8.self, repeating: 0)
            out.storeBytes(of: epoch.littleEndian, as: UInt32.self)
            key.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: out[4..<4 + $0.count]).copyMemory(from: $0) }
        }
        var sealed: [UInt8]
        if let entryKey {
            sealed = [UInt8](repeating: 0, count: KeySlot.sealedLength)
            let associated = slot.entryAssociatedData(epoch, cipher, storeID: storeID)
            plaintext.withUnsafeBytes { plaintext in
                associated.withUnsafeBytes { associated in
                    sealed.withUnsafeMutableBytes { XChaCha20Poly1305.seal(plaintext, associated: associated, key: entryKey, into: $0) }
                }
            }
        } else {
            sealed = plaintext.withUnsafeBytes { SealedBox.seal($0, to: slot.publicKey) }
        }
        return KeySlot.Entry(
            epoch: epoch, sealed: sealed, mac: KeySlot.mac(epoch, sealed, cipher, form, slot: slot.id, storeID: storeID, authority: authority), cipher: cipher,
            form: form)
    }

    /// Writes `slot` to its file of `layout` (created 0700 if needed), atomically and
    /// durably: temporary, fsync, rename, directory fsync.
    static func write(_ slot: KeySlot, _ layout: StoreLayout) throws {
        try OwnedDirectory.prepare(layout.keySlots, isPrivate: true)
        try SmallFile.write(path(layout, slot.id), slot.encoded(), sync: true)
    }

    /// Removes key epoch `epoch` from every slot of the store at `layout` that holds it
    /// (`compact --rekey`, once no file is sealed under it), one slot file at a time; the
    /// caller holds the writer lock.
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` when `epoch` is the current epoch (or no
    ///   slot is readable).
    static func dropEpoch(_ epoch: UInt32, layout: StoreLayout) throws {
        let slots = try read(layout).compactMap(\.slot)
        guard let current = currentEpoch(slots), epoch != current else {
            throw HealthLogError(.badUsage, "key epoch \(epoch) is the store's current epoch; it cannot be dropped")
        }
        for var slot in slots where slot.epochs.contains(epoch) {
            slot.entries.removeAll { $0.epoch == epoch }
            try write(slot, layout)
        }
    }

    /// "; key slot 0002 is damaged: ..." for each damaged slot file, or nothing.
    static func damageNote(_ found: [Found]) -> String {
        found.filter { $0.slot == nil }.map { "; key slot \(KeySlot.fileName($0.id).dropLast(5)) is damaged: \($0.problem ?? "")" }.joined()
    }
}

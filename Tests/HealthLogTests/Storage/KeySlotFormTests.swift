import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// The two forms of a key slot's data-key entries: sealed to the slot's public key, or
/// wrapped under the entry key its secret key gives; which one each writer makes, and that
/// a wrapped entry opens only where and as what it was made.
@Suite("Key slot entry forms")
struct KeySlotFormTests {
    static let secret = StoreSecret.passphrase(Array("correct horse".utf8))

    /// A slot `id` with a fresh key pair and no entries, and its secret key.
    static func bareSlot(_ id: UInt16) throws -> (KeySlot, SecretBytes) {
        let (publicKey, secretKey) = try SealedBox.keyPair()
        let slot = KeySlot(
            id: id, kind: .keyFile, createdMillis: 0, cost: Argon2id.Cost(operations: 0, memory: 0), salt: [UInt8](repeating: 1, count: Argon2id.saltLength),
            publicKey: publicKey, wrappedSecretKey: [UInt8](repeating: 0, count: KeySlot.wrappedLength), entries: [])
        return (slot, secretKey)
    }

    /// The data keys of `slot` opened with its `secretKey`, as a store `storeID` would.
    static func open(_ slot: KeySlot, _ secretKey: SecretBytes, storeID: StoreID, authority: SecretBytes) throws -> [UInt32: SecretBytes] {
        try KeySlots.open(
            slot, StoreLayout(directory: "/nonexistent"), storeID: storeID, secretKey: secretKey, entryKey: KeySlot.entryKey(secretKey), authority: authority
        ).dictionary
    }

    /// `entry` with its MAC made again for slot `id` of `storeID`, as a holder of the
    /// authority key could: what is left to refuse it is the entry's own binding.
    static func remade(_ entry: KeySlot.Entry, slot id: UInt16, storeID: StoreID, authority: SecretBytes) -> KeySlot.Entry {
        var entry = entry
        entry.mac = KeySlot.mac(entry.epoch, entry.sealed, entry.cipher, entry.form, slot: id, storeID: storeID, authority: authority)
        return entry
    }

    @Test("A wrapped entry opens to the same data key a sealed one of it does, and its file (version 4) reads back as written", arguments: UnitCipher.allCases)
    func wrappedOpens(_ cipher: UnitCipher) throws {
        let storeID = StoreID.random()
        let authority = try SecretBytes.random(count: KeySlot.authorityLength)
        let key = try SecretBytes.random(count: XChaCha20Poly1305.keyLength)
        let (bare, secretKey) = try Self.bareSlot(1)
        var slot = bare
        slot.entries = [
            try KeySlots.entry(0, key, cipher, to: slot, entryKey: nil, storeID: storeID, authority: authority),
            try KeySlots.entry(1, key, cipher, to: slot, entryKey: KeySlot.entryKey(secretKey), storeID: storeID, authority: authority),
        ]
        #expect(slot.entries.map(\.form) == [.sealed, .wrapped] && slot.entries.allSatisfy { $0.sealed.count == KeySlot.sealedLength })
        let keys = try Self.open(slot, secretKey, storeID: storeID, authority: authority)
        #expect(keys[0]?.isEqual(to: key) == true && keys[1]?.isEqual(to: key) == true)
        #expect(slot.fileVersion == 4)
        let bytes = slot.encoded()
        let decoded = try KeySlot.decode(bytes, id: 1)
        #expect(decoded.entries.map(\.form) == [.sealed, .wrapped] && decoded.entries.map(\.cipher) == [cipher, cipher] && decoded.encoded() == bytes)
        #expect(bytes.count == KeySlot.fixedLength + 2 * KeySlot.entryLength(version: 4) + 4)
    }

    @Test("A wrapped entry copied into another slot, under another slot id, as another epoch or into another store does not open, even with its MAC made good")
    func wrappedStaysPut() throws {
        let storeID = StoreID.random()
        let authority = try SecretBytes.random(count: KeySlot.authorityLength)
        let key = try SecretBytes.random(count: XChaCha20Poly1305.keyLength)
        let (bare, secretKey) = try Self.bareSlot(1)
        var slot = bare
        let entry = try KeySlots.entry(0, key, .xchacha20Poly1305, to: slot, entryKey: KeySlot.entryKey(secretKey), storeID: storeID, authority: authority)
        slot.entries = [entry]
        #expect(try Self.open(slot, secretKey, storeID: storeID, authority: authority)[0]?.isEqual(to: key) == true)

        func refused(_ slot: KeySlot, _ secretKey: SecretBytes, storeID: StoreID) {
            #expect { try Self.open(slot, secretKey, storeID: storeID, authority: authority) } throws: { ($0 as? HealthLogError)?.code == .corrupt }
        }
        let (otherBare, otherSecret) = try Self.bareSlot(2)
        var other = otherBare
        other.entries = [Self.remade(entry, slot: 2, storeID: storeID, authority: authority)]
        refused(other, otherSecret, storeID: storeID)
        var renumbered = slot
        renumbered.id = 2
        renumbered.entries = [Self.remade(entry, slot: 2, storeID: storeID, authority: authority)]
        refused(renumbered, secretKey, storeID: storeID)
        var moved = entry
        moved.epoch = 1
        var epochs = slot
        epochs.entries = [Self.remade(moved, slot: 1, storeID: storeID, authority: authority)]
        refused(epochs, secretKey, storeID: storeID)
        let elsewhere = StoreID.random()
        var stores = slot
        stores.entries = [Self.remade(entry, slot: 1, storeID: elsewhere, authority: authority)]
        refused(stores, secretKey, storeID: elsewhere)
        var recast = entry
        recast.cipher = .aes256GCM
        var ciphers = slot
        ciphers.entries = [Self.remade(recast, slot: 1, storeID: storeID, authority: authority)]
        refused(ciphers, secretKey, storeID: storeID)
    }

    @Test("A byte flipped in a wrapped entry, or its form changed to sealed, fails its MAC and opens nothing; with the MAC made good it is damage")
    func wrappedChanged() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try KeySlotTests.makeStore(dir)
        let layout = StoreLayout(directory: path)
        let storeID = try StoreMeta.read(layout).storeID
        let authority = try #require(try HealthStore(directory: path, secret: Self.secret).layout.openKeys(StoreMeta.read(layout)).authority)
        let original = try ByteSurgery.read(KeySlots.path(layout, 1))
        let slot = try KeySlot.decode(original, id: 1)
        #expect(slot.entries.map(\.form) == [.wrapped] && slot.fileVersion == 4)

        func opening(_ change: (inout KeySlot.Entry) -> Void, remac: Bool) throws -> HealthLogError.Code? {
            var changed = slot
            change(&changed.entries[0])
            if remac { changed.entries[0] = Self.remade(changed.entries[0], slot: 1, storeID: storeID, authority: authority) }
            try ByteSurgery.write(changed.encoded(), to: KeySlots.path(layout, 1))
            defer { try? ByteSurgery.write(original, to: KeySlots.path(layout, 1)) }
            do {
                _ = try HealthStore(directory: path, secret: Self.secret).layout.openKeys(StoreMeta.read(layout))
                return nil
            } catch let error as HealthLogError {
                return error.code
            }
        }
        for at in [0, 30, KeySlot.sealedLength - 1] {
            #expect(try opening({ $0.sealed[at] ^= 1 }, remac: false) == .wrongKey)
            #expect(try opening({ $0.sealed[at] ^= 1 }, remac: true) == .corrupt)
        }
        #expect(try opening({ $0.form = .sealed }, remac: false) == .wrongKey)
        #expect(try opening({ $0.form = .sealed }, remac: true) == .corrupt)
        #expect(try opening({ _ in }, remac: false) == nil)
    }

    @Test("A slot file of sealed entries only (versions 2 and 3) still opens and is written in its version; a rotation by its secret wraps its entries", arguments: UnitCipher.allCases)
    func sealedOnlyOpens(_ cipher: UnitCipher) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var options = KeySlotTests.weak
        options.cipher = cipher
        let path = dir.file("store")
        try HealthStore(directory: path, options: options).create(encryptedWith: Self.secret)
        _ = try HealthStore(directory: path, secret: Self.secret).append(ndjson: CorruptionFixture.ndjson((1...4).map(CorruptionFixture.heartRate)))
        let layout = StoreLayout(directory: path)
        let meta = try StoreMeta.read(layout)
        let opened = try HealthStore(directory: path, secret: Self.secret).layout.openKeys(meta)
        let wrapped = try KeySlot.decode(ByteSurgery.read(KeySlots.path(layout, 1)), id: 1)
        #expect(wrapped.entries.map(\.form) == [.wrapped])
        let authority = try #require(opened.authority)
        var slot = wrapped
        slot.entries = try wrapped.entries.map { entry in
            try KeySlots.entry(entry.epoch, #require(opened.keys[entry.epoch]), entry.cipher, to: wrapped, entryKey: nil, storeID: meta.storeID, authority: authority)
        }
        try KeySlots.write(slot, layout)
        let bytes = try ByteSurgery.read(KeySlots.path(layout, 1))
        #expect(bytes[4] == (cipher == .xchacha20Poly1305 ? 2 : 3))
        #expect(try KeySlot.decode(bytes, id: 1).entries.map(\.form) == [.sealed])
        #expect(try CorruptionFixture.replay(HealthStore(directory: path, secret: Self.secret)).count == 4)
        #expect(try HealthStore(directory: path, secret: Self.secret).rotateKey() == 1)
        #expect(try KeySlot.decode(ByteSurgery.read(KeySlots.path(layout, 1)), id: 1).entries.map(\.form) == [.wrapped, .wrapped])
        #expect(try CorruptionFixture.replay(HealthStore(directory: path, secret: Self.secret)).count == 4)
    }

    @Test("A rotation wraps the new entry of the slot whose secret rotates, and that slot's sealed entries, and seals the others'; every slot opens every epoch")
    func rotationForms() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (path, _, keyFile) = try KeySlotTests.makeStoreWithKeyFileSlot(dir)
        #expect(try HealthStore(directory: path, secret: .keyFile(keyFile)).rotateKey() == 1)
        let layout = StoreLayout(directory: path)
        #expect(try KeySlot.decode(ByteSurgery.read(KeySlots.path(layout, 1)), id: 1).entries.map(\.form) == [.wrapped, .sealed])
        #expect(try HealthStore(directory: path, secret: Self.secret).rotateKey() == 2)
        let slots = try KeySlots.read(layout).compactMap(\.slot)
        #expect(slots.map { $0.entries.map(\.form) } == [[.wrapped, .wrapped, .wrapped], [.wrapped, .wrapped, .sealed]])
        let meta = try StoreMeta.read(layout)
        let byPassphrase = try HealthStore(directory: path, secret: Self.secret).layout.openKeys(meta)
        let byKeyFile = try HealthStore(directory: path, secret: .keyFile(keyFile)).layout.openKeys(meta)
        #expect(byPassphrase.slot == 1 && byKeyFile.slot == 2)
        for epoch: UInt32 in 0...2 {
            #expect(byPassphrase.keys[epoch].map { byKeyFile.keys[epoch]?.isEqual(to: $0) == true } == true)
        }
    }

    @Test("A handle whose slot was removed and made again under its id since it opened seals, not wraps, that slot's new entry at a rotation")
    func rotationAfterSlotRemade() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try KeySlotTests.makeStore(dir)
        let first = dir.file("first")
        let second = dir.file("second")
        try Data(repeating: 7, count: 32).write(to: URL(fileURLWithPath: first))
        try Data(repeating: 8, count: 32).write(to: URL(fileURLWithPath: second))
        #expect(try HealthStore(directory: path, secret: Self.secret).addKeySlot(.keyFile(first)) == 2)
        let stale = HealthStore(directory: path, secret: .keyFile(first))
        #expect(try stale.rotateKey() == 1)
        try HealthStore(directory: path, secret: Self.secret).removeKeySlot(2)
        #expect(try HealthStore(directory: path, secret: Self.secret, options: KeySlotTests.weak).addKeySlot(.keyFile(second)) == 2)
        #expect(try stale.rotateKey() == 2)
        let slot = try KeySlot.decode(ByteSurgery.read(KeySlots.path(StoreLayout(directory: path), 2)), id: 2)
        #expect(slot.entries.map(\.form) == [.wrapped, .wrapped, .sealed])
        #expect(try HealthStore(directory: path, secret: .keyFile(second)).layout.cipher(StoreMeta.read(StoreLayout(directory: path)))?.currentEpoch == 2)
    }
}

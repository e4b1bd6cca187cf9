import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// Key slots in the library: the `HLKS` file round trip and its refusals, the typed errors
/// of ``HealthStore/init(directory:secret:options:)``, the current epoch, dropping an
/// epoch, and data-key entries forged by someone who can write the slot files.
@Suite("Key slot files and secrets")
struct KeySlotTests {
    /// Options that make cheap passphrase slots.
    static var weak: StoreOptions {
        var options = StoreOptions()
        options.faults.weakKeyDerivation = true
        return options
    }

    /// A new encrypted store in `dir` whose slot 1 opens with "correct horse".
    static func makeStore(_ dir: TemporaryDirectory) throws -> String {
        let path = dir.file("store")
        try HealthStore(directory: path, options: weak).create(encryptedWith: .passphrase(Array("correct horse".utf8)))
        return path
    }

    /// A new encrypted store in `dir` whose slot 1 opens with "correct horse" (`secret`)
    /// and slot 2 with `keyFile`.
    static func makeStoreWithKeyFileSlot(_ dir: TemporaryDirectory) throws -> (path: String, secret: StoreSecret, keyFile: String) {
        let path = try makeStore(dir)
        let secret = StoreSecret.passphrase(Array("correct horse".utf8))
        let keyFile = dir.file("key")
        try Data(repeating: 7, count: 32).write(to: URL(fileURLWithPath: keyFile))
        #expect(try HealthStore(directory: path, secret: secret, options: weak).addKeySlot(.keyFile(keyFile)) == 2)
        return (path, secret, keyFile)
    }

    @Test("A slot file reads back as written; truncated, changed or under another slot's name it is refused with a reason")
    func roundTrip() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try Self.makeStore(dir)
        let bytes = try ByteSurgery.read(path + "/keys/0001.slot")
        let slot = try KeySlot.decode(bytes, id: 1)
        #expect(slot.kind == .passphrase && slot.epochs == [0] && slot.cost == .weakest)
        #expect(slot.encoded() == bytes)
        #expect(bytes.count == KeySlot.fixedLength + KeySlot.entryLength(version: slot.fileVersion) + 4)
        #expect(throws: KeySlot.Problem.self) { try KeySlot.decode(Array(bytes.dropLast()), id: 1) }
        #expect(throws: KeySlot.Problem.self) { try KeySlot.decode(bytes, id: 2) }
        var changed = bytes
        changed[100] ^= 1
        #expect(throws: KeySlot.Problem.self) { try KeySlot.decode(changed, id: 1) }
        var older = bytes
        older[4] = 1
        #expect { try KeySlot.decode(older, id: 1) } throws: { ($0 as? KeySlot.Problem)?.message.contains("version 1 is older than this build") == true }
        var newer = bytes
        newer[4] = 9
        #expect { try KeySlot.decode(newer, id: 1) } throws: { ($0 as? KeySlot.Problem)?.message.contains("version 9, newer than this build") == true }
        #expect(KeySlot.id(fileName: "0001.slot") == 1 && KeySlot.id(fileName: "0001.slot.tmp") == nil && KeySlot.id(fileName: "0000.slot") == nil)
    }

    @Test("An encrypted store throws keyRequired without a secret and wrongKey with a wrong one; the right one opens it; a plaintext store ignores a secret")
    func typedErrors() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try Self.makeStore(dir)
        #expect { try HealthStore(directory: path, options: Self.weak).rotateKey() } throws: { ($0 as? HealthLogError)?.code == .keyRequired }
        #expect { try HealthStore(directory: path, secret: .passphrase(Array("wrong".utf8))).rotateKey() } throws: {
            ($0 as? HealthLogError)?.code == .wrongKey
        }
        #expect(try HealthStore(directory: path, secret: .passphrase(Array("correct horse".utf8))).rotateKey() == 1)
        let plain = dir.file("plain")
        try HealthStore(directory: plain).create(encryptedWith: nil)
        #expect(try HealthStore(directory: plain, secret: .passphrase(Array("anything".utf8))).headAnchor().seq == 0)
    }

    @Test("A part of guarded bytes reads its range of them, a part of a part too, and keeps them after the whole is let go; a key file opens the store through such parts")
    func guardedParts() throws {
        var whole: SecretBytes? = try SecretBytes.random(count: 36)
        let bytes = whole!.withUnsafeBytes { Array($0) }
        let part = SecretBytes(part: 4..<36, of: whole!)
        let inner = SecretBytes(part: 2..<10, of: part)
        whole = nil
        #expect(part.count == 32 && part.withUnsafeBytes { Array($0) } == Array(bytes[4..<36]))
        #expect(inner.withUnsafeBytes { Array($0) } == Array(bytes[6..<14]))
        #expect(part.isEqual(to: try SecretBytes(copying: bytes.withUnsafeBytes { UnsafeRawBufferPointer(rebasing: $0[4..<36]) })))

        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let keyFile = dir.file("key")
        try ByteSurgery.write((0..<32).map { UInt8($0 * 7 % 256) }, to: keyFile)
        let path = dir.file("store")
        try HealthStore(directory: path).create(encryptedWith: .keyFile(keyFile))
        _ = try HealthStore(directory: path, secret: .keyFile(keyFile)).append(ndjson: Array(#"{"type":"HKQuantityTypeIdentifierHeartRate","start":"2024-01-01T00:00:00Z","value":60,"unit":"count/min"}"#.utf8 + [10]))
        var lines = 0
        _ = try HealthStore(directory: path, secret: .keyFile(keyFile)).replay(ReplayRequest()) { _ in lines += 1 }
        #expect(lines == 1)
    }

    @Test("The current epoch is the highest every slot holds; dropEpoch removes an older one from every slot and refuses the current one")
    func epochs() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (path, secret, keyFile) = try Self.makeStoreWithKeyFileSlot(dir)
        let store = HealthStore(directory: path, secret: secret, options: Self.weak)
        #expect(try store.rotateKey() == 1)
        #expect(try store.rotateKey() == 2)
        let layout = StoreLayout(directory: path)
        #expect(throws: HealthLogError.self) { try KeySlots.dropEpoch(2, layout: layout) }
        try KeySlots.dropEpoch(0, layout: layout)
        let slots = try KeySlots.read(layout).compactMap(\.slot)
        #expect(slots.map(\.epochs) == [[1, 2], [1, 2]])
        #expect(KeySlots.currentEpoch(slots) == 2)
        var partial = slots
        partial[0].entries.append(KeySlot.Entry(epoch: 3, sealed: [], mac: []))
        #expect(KeySlots.currentEpoch(partial) == 2)
        #expect(try HealthStore(directory: path, secret: .keyFile(keyFile)).rotateKey() == 3)
    }

    @Test("A data key sealed to every slot's public key by someone who can write the slot files, as a new epoch with a MAC not made with the authority key, is ignored: the current epoch stays, appends are sealed under it, and rotation still works")
    func forgedEpoch() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (path, secret, keyFile) = try Self.makeStoreWithKeyFileSlot(dir)
        _ = try HealthStore(directory: path, secret: secret).append(ndjson: CorruptionFixture.ndjson((1...4).map(CorruptionFixture.heartRate)))
        let layout = StoreLayout(directory: path)
        let storeID = try StoreMeta.read(layout).storeID
        let forged = try SecretBytes.random(count: XChaCha20Poly1305.keyLength)
        for var slot in try KeySlots.read(layout).compactMap(\.slot) {
            let plaintext = try SecretBytes(count: 36) { out in
                out.storeBytes(of: UInt32(1).littleEndian, as: UInt32.self)
                forged.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: out[4...]).copyMemory(from: $0) }
            }
            let sealed = plaintext.withUnsafeBytes { SealedBox.seal($0, to: slot.publicKey) }
            slot.entries.append(KeySlot.Entry(epoch: 1, sealed: sealed, mac: try Sodium.random(count: KeySlot.macLength)))
            try ByteSurgery.write(slot.encoded(), to: KeySlots.path(layout, slot.id))
        }
        // Without the MAC check the forged epoch would be current: every slot holds it.
        #expect(KeySlots.currentEpoch(try KeySlots.read(layout).compactMap(\.slot)) == 1)

        let listed = try HealthStore(directory: path, secret: secret).keySlots()
        #expect(listed.isVerified && listed.currentEpoch == 0 && listed.slots.map(\.epochs) == [[0], [0]])
        #expect(listed.slots.allSatisfy { $0.kind != nil && $0.problem?.contains("key epochs 1 fail their MAC") == true })
        let unverified = try HealthStore(directory: path, options: StoreOptions(), keys: nil).keySlots()
        #expect(!unverified.isVerified && unverified.currentEpoch == 1)
        for opener in [secret, .keyFile(keyFile)] {
            #expect(try HealthStore(directory: path, secret: opener).layout.cipher(StoreMeta.read(layout))?.currentEpoch == 0)
        }
        _ = try HealthStore(directory: path, secret: secret).append(ndjson: CorruptionFixture.ndjson((5...8).map(CorruptionFixture.heartRate)))
        #expect(try HealthStore(directory: path, secret: secret).keySlots().batchesByEpoch == [0: 2])
        #expect(try CorruptionFixture.replay(HealthStore(directory: path, secret: .keyFile(keyFile))).count == 8)
        let forger = HealthStore(directory: path, options: StoreOptions(), keys: StoreKeys(cipher: StoreCipher(storeID: storeID, keys: [0: forged, 1: forged], ciphers: [0: .preferred, 1: .preferred], current: 1)))
        #expect(throws: HealthLogError.self) { try CorruptionFixture.replay(forger) }

        #expect(try HealthStore(directory: path, secret: .keyFile(keyFile)).rotateKey() == 2)
        _ = try HealthStore(directory: path, secret: secret).append(ndjson: CorruptionFixture.ndjson((9...10).map(CorruptionFixture.heartRate)))
        #expect(try HealthStore(directory: path, secret: secret).keySlots().batchesByEpoch == [0: 2, 2: 1])
        #expect(try CorruptionFixture.replay(HealthStore(directory: path, secret: secret)).count == 10)

        // A slot none of whose entries verifies counts as damaged: the others still open the store.
        var slot2 = try KeySlot.decode(ByteSurgery.read(KeySlots.path(layout, 2)), id: 2)
        for index in slot2.entries.indices { slot2.entries[index].mac[0] ^= 1 }
        try ByteSurgery.write(slot2.encoded(), to: KeySlots.path(layout, 2))
        #expect(try HealthStore(directory: path, secret: secret).layout.cipher(StoreMeta.read(layout))?.currentEpoch == 2)
        let damaged = try HealthStore(directory: path, secret: secret).keySlots()
        #expect(damaged.slots[1].epochs.isEmpty && damaged.slots[1].problem?.contains("key epochs 0,2 fail their MAC") == true, "the rotation dropped the forged entries")
    }

    @Test("A slot whose entry for the current epoch is damaged makes an older epoch current: an append then refuses (exit 1) and writes nothing, reads go on, and removing that slot lets appends go on under the newer epoch")
    func damagedNewestEntryStopsWrites() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (path, secret, _) = try Self.makeStoreWithKeyFileSlot(dir)
        #expect(try HealthStore(directory: path, secret: secret).rotateKey() == 1)
        _ = try HealthStore(directory: path, secret: secret).append(ndjson: CorruptionFixture.ndjson((1...4).map(CorruptionFixture.heartRate)))
        let layout = StoreLayout(directory: path)
        var slot2 = try KeySlot.decode(ByteSurgery.read(KeySlots.path(layout, 2)), id: 2)
        let newest = try #require(slot2.entries.firstIndex { $0.epoch == 1 })
        slot2.entries[newest].mac[0] ^= 1
        try ByteSurgery.write(slot2.encoded(), to: KeySlots.path(layout, 2))
        #expect(try HealthStore(directory: path, secret: secret).layout.cipher(StoreMeta.read(layout))?.currentEpoch == 0)

        let segments = try FileManager.default.contentsOfDirectory(atPath: path + "/segments").sorted()
        let before = try segments.map { try ByteSurgery.read(path + "/segments/" + $0) }
        do {
            _ = try HealthStore(directory: path, secret: secret).append(ndjson: CorruptionFixture.ndjson((5...6).map(CorruptionFixture.heartRate)))
            Issue.record("the append sealed under the older epoch")
        } catch let error as HealthLogError {
            #expect(error.code == .corrupt && error.message.contains("sealed under epoch 1"), "\(error.message)")
        }
        #expect(try segments.map { try ByteSurgery.read(path + "/segments/" + $0) } == before)
        #expect(try CorruptionFixture.replay(HealthStore(directory: path, secret: secret)).count == 4)

        try HealthStore(directory: path, secret: secret).removeKeySlot(2)
        _ = try HealthStore(directory: path, secret: secret).append(ndjson: CorruptionFixture.ndjson((5...6).map(CorruptionFixture.heartRate)))
        #expect(try HealthStore(directory: path, secret: secret).keySlots().batchesByEpoch == [1: 2])
    }

    @Test("A slot file someone without a secret put in keys/ (its own public key, entries that fail their MAC) gets no key at a rotation, and is no slot that lets the last real one go")
    func foreignSlotGetsNoKey() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try Self.makeStore(dir)
        let secret = StoreSecret.passphrase(Array("correct horse".utf8))
        let layout = StoreLayout(directory: path)
        var foreign = try #require(try KeySlots.read(layout).compactMap(\.slot).first)
        foreign.id = 99
        foreign.publicKey = try Sodium.random(count: foreign.publicKey.count)
        try ByteSurgery.write(foreign.encoded(), to: KeySlots.path(layout, 99))
        chmod(KeySlots.path(layout, 99), 0o600)
        let epoch = try HealthStore(directory: path, secret: secret).rotateKey()
        let after = try KeySlot.decode(ByteSurgery.read(KeySlots.path(layout, 99)), id: 99)
        #expect(!after.epochs.contains(epoch), "the foreign slot was not given the new key")
        #expect(throws: HealthLogError.self) { try HealthStore(directory: path, secret: secret).removeKeySlot(1) }
    }
}

import HealthLogTestSupport
import Testing
@testable import HealthLog

/// Each key epoch's cipher in the key slots: recorded with the epoch's entry, covered by its
/// MAC, and what the opened keys seal with.
@Suite("Key slot ciphers")
struct KeySlotCipherTests {
    static let secret = StoreSecret.passphrase(Array("correct horse".utf8))

    /// A new store in `dir` whose epoch 0 seals with `cipher`.
    static func makeStore(_ dir: TemporaryDirectory, _ cipher: UnitCipher) throws -> HealthStore {
        var options = KeySlotTests.weak
        options.cipher = cipher
        let path = dir.file("store-\(cipher.rawValue)")
        try HealthStore(directory: path, options: options).create(encryptedWith: secret)
        return HealthStore(directory: path, secret: secret, options: options)
    }

    @Test("Each epoch keeps the cipher it was made with; the opened keys seal each epoch's units with it", arguments: UnitCipher.allCases)
    func recorded(_ first: UnitCipher) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try Self.makeStore(dir, first)
        let second: UnitCipher = first == .aes256GCM ? .xchacha20Poly1305 : .aes256GCM
        var options = store.options
        options.cipher = second
        #expect(try HealthStore(directory: store.directory, secret: Self.secret, options: options).rotateKey() == 1)
        let slot = try KeySlot.decode(try ByteSurgery.read(store.directory + "/keys/0001.slot"), id: 1)
        #expect(slot.entries.map(\.cipher) == [first, second] && slot.fileVersion == 4)
        let listing = try HealthStore(directory: store.directory, secret: Self.secret).keySlots()
        #expect(listing.ciphers == [0: first, 1: second] && listing.currentEpoch == 1)
        let cipher = try store.layout.openKeys(try StoreMeta.read(store.layout)).cipher
        #expect(cipher.cipher(of: 0) == first && cipher.cipher(of: 1) == second && cipher.currentEpoch == 1)
    }

    @Test("An entry's cipher changed in the file, checksum made good, fails its MAC: the epoch is not used")
    func cipherUnderMAC() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try Self.makeStore(dir, .aes256GCM)
        let path = store.directory + "/keys/0001.slot"
        var slot = try KeySlot.decode(try ByteSurgery.read(path), id: 1)
        slot.entries[0].cipher = .xchacha20Poly1305
        try ByteSurgery.write(slot.encoded(), to: path)
        #expect { try HealthStore(directory: store.directory, secret: Self.secret, options: KeySlotTests.weak).rotateKey() } throws: { error in
            (error as? HealthLogError)?.code == .corrupt || (error as? HealthLogError)?.code == .wrongKey
        }
    }

    @Test("A slot made from keys one of whose epochs no readable slot names (dropped, still in a keyring) leaves that epoch out, never sealing it under a guessed cipher")
    func unnamedEpochLeftOut() throws {
        let material = try #require(try SecretMaterial.of(Self.secret))
        let key = try SecretBytes(count: 32) { $0.initializeMemory(as: UInt8.self, repeating: 7) }
        let authority = try SecretBytes(count: KeySlot.authorityLength) { $0.initializeMemory(as: UInt8.self, repeating: 9) }
        let slot = try KeySlots.make(id: 2, material: material, storeID: .random(), keys: [0: key, 1: key], ciphers: [1: .aes256GCM], authority: authority, cost: .weakest)
        #expect(slot.entries.map(\.epoch) == [1] && slot.entries.map(\.cipher) == [.aes256GCM])
    }
}

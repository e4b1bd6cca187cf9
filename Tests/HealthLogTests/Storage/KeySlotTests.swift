import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// Key slots in the library: the `HLKS` file round trip and its refusals, the typed errors
/// of ``HealthStore/init(directory:secret:options:)``, the current epoch, and dropping an
/// epoch.
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

    @Test("A slot file reads back as written; truncated, changed or under another slot's name it is refused with a reason")
    func roundTrip() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try Self.makeStore(dir)
        let bytes = try ByteSurgery.read(path + "/keys/0001.slot")
        let slot = try KeySlot.decode(bytes, id: 1)
        #expect(slot.kind == .passphrase && slot.epochs == [0] && slot.cost == .weakest)
        #expect(slot.encoded() == bytes)
        #expect(bytes.count == KeySlot.fixedLength + KeySlot.entryLength + 4)
        #expect(throws: KeySlot.Problem.self) { try KeySlot.decode(Array(bytes.dropLast()), id: 1) }
        #expect(throws: KeySlot.Problem.self) { try KeySlot.decode(bytes, id: 2) }
        var changed = bytes
        changed[100] ^= 1
        #expect(throws: KeySlot.Problem.self) { try KeySlot.decode(changed, id: 1) }
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

    @Test("The current epoch is the highest every slot holds; dropEpoch removes an older one from every slot and refuses the current one")
    func epochs() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try Self.makeStore(dir)
        let store = HealthStore(directory: path, secret: .passphrase(Array("correct horse".utf8)), options: Self.weak)
        let keyFile = dir.file("key")
        try Data(repeating: 7, count: 32).write(to: URL(fileURLWithPath: keyFile))
        #expect(try store.addKeySlot(.keyFile(keyFile)) == 2)
        #expect(try store.rotateKey() == 1)
        #expect(try store.rotateKey() == 2)
        let layout = StoreLayout(directory: path)
        #expect(throws: HealthLogError.self) { try KeySlots.dropEpoch(2, layout: layout) }
        try KeySlots.dropEpoch(0, layout: layout)
        let slots = try KeySlots.read(layout).compactMap(\.slot)
        #expect(slots.map(\.epochs) == [[1, 2], [1, 2]])
        #expect(KeySlots.currentEpoch(slots) == 2)
        var partial = slots
        partial[0].entries.append(KeySlot.Entry(epoch: 3, sealed: []))
        #expect(KeySlots.currentEpoch(partial) == 2)
        #expect(try HealthStore(directory: path, secret: .keyFile(keyFile)).rotateKey() == 3)
    }
}

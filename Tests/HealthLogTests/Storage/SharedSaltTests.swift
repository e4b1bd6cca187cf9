import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// AES-256-GCM units share a salt (so a unit key) per writer and segment: a reader derives
/// a key per salt, not per unit. Each unit still has a nonce of its own and stays bound to
/// its place, and units with a salt each still open.
@Suite("Shared unit salts")
struct SharedSaltTests {
    /// A handle on the encrypted store at `path` sealing AES-256-GCM units under `key`: a
    /// handle of its own stands for a process of its own.
    static func handle(_ path: String, storeID: StoreID, key: SecretBytes, options: StoreOptions) -> HealthStore {
        let cipher = StoreCipher(storeID: storeID, keys: [0: key], ciphers: [0: .aes256GCM], current: 0)
        return HealthStore(directory: path, options: options, keys: StoreKeys(cipher: cipher))
    }

    /// The salt and nonce of a unit (`epoch ‖ salt ‖ nonce ‖ …`) starting at `start` of `bytes`.
    static func saltAndNonce(_ bytes: [UInt8], at start: Int) -> (salt: [UInt8], nonce: [UInt8]) {
        (Array(bytes[start + 4..<start + 16]), Array(bytes[start + 16..<start + 28]))
    }

    /// Every unit of the store's segments, by the last sequence number of its batch: the
    /// batch's table and each group's frame, with their salts and nonces.
    static func units(_ store: HealthStore) throws -> [(lastSeq: UInt64, salt: [UInt8], nonce: [UInt8])] {
        let snapshot = try LogSnapshot(store.layout)
        var units: [(UInt64, [UInt8], [UInt8])] = []
        for batch in try snapshot.allBatches() {
            let bytes = try ByteSurgery.read(store.directory + "/" + snapshot.segments[batch.segment].displayPath)
            // The table unit follows the frame header (8 bytes) and the 48 clear bytes.
            let table = saltAndNonce(bytes, at: batch.offset + 8 + BatchHeader.FixedFields.length)
            units.append((batch.header.lastSeq, table.salt, table.nonce))
            for offset in batch.groupOffsets {
                let frame = saltAndNonce(bytes, at: offset)
                units.append((batch.header.lastSeq, frame.salt, frame.nonce))
            }
        }
        return units
    }

    @Test("A writer's units in one segment share one salt and never a nonce; another writer's append to that segment draws another salt; both read back and verify")
    func oneSaltPerWriterAndSegment() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/s"
        var options = StoreOptions()
        options.batchBytes = 4096
        let key = try SecretBytes.random(count: 32)
        let first = try EncryptedSegmentTests.makeStore(path, options: options, keys: [0: key])
        let storeID = try StoreMeta.read(first.layout).storeID
        let one = Self.handle(path, storeID: storeID, key: key, options: options)
        _ = try one.append(ndjson: CompactionTests.lines(1...300))
        let other = Self.handle(path, storeID: storeID, key: key, options: options)
        _ = try other.append(ndjson: CompactionTests.lines(301...400))
        #expect(try LogSnapshot(one.layout).segments.count == 1, "both appends in one segment")

        let units = try Self.units(one)
        let byOne = units.filter { $0.lastSeq <= 300 }
        let byOther = units.filter { $0.lastSeq > 300 }
        #expect(byOne.count > 10 && byOther.count > 3, "many units from each writer")
        #expect(Set(byOne.map(\.salt)).count == 1, "one salt for the first writer's units")
        #expect(Set(byOther.map(\.salt)).count == 1, "one salt for the second writer's units")
        #expect(byOne.first?.salt != byOther.first?.salt, "each writer draws its own salt")
        #expect(Set(units.map(\.nonce)).count == units.count, "no nonce repeats")

        let fresh = Self.handle(path, storeID: storeID, key: key, options: options)
        let plain = HealthStore(directory: dir.path + "/plain", options: options)
        _ = try plain.append(ndjson: CompactionTests.lines(1...300))
        _ = try plain.append(ndjson: CompactionTests.lines(301...400))
        #expect(try CompactionTests.raw(fresh) == CompactionTests.raw(plain))
        #expect(try fresh.verify().isSound)
    }

    @Test("A writer seals a segment's units in a new segment under another salt")
    func newSaltPerSegment() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/s"
        let key = try SecretBytes.random(count: 32)
        let first = try EncryptedSegmentTests.makeStore(path, options: EncryptedSegmentTests.smallSegments, keys: [0: key])
        let store = Self.handle(path, storeID: try StoreMeta.read(first.layout).storeID, key: key, options: EncryptedSegmentTests.smallSegments)
        _ = try store.append(ndjson: CompactionTests.lines(1...1500))
        let snapshot = try LogSnapshot(store.layout)
        #expect(snapshot.segments.count > 2, "many segments")
        var saltsBySegment: [Int: Set<[UInt8]>] = [:]
        for batch in try snapshot.allBatches() {
            let bytes = try ByteSurgery.read(store.directory + "/" + snapshot.segments[batch.segment].displayPath)
            saltsBySegment[batch.segment, default: []].insert(Self.saltAndNonce(bytes, at: batch.offset + 8 + BatchHeader.FixedFields.length).salt)
            for offset in batch.groupOffsets { saltsBySegment[batch.segment, default: []].insert(Self.saltAndNonce(bytes, at: offset).salt) }
        }
        #expect(saltsBySegment.values.allSatisfy { $0.count == 1 }, "one salt a segment")
        #expect(Set(saltsBySegment.values.flatMap { $0 }).count == saltsBySegment.count, "no salt shared by two segments")
    }

    @Test("A scope's salt is drawn again once it has sealed its most bytes, and each scope has its own")
    func saltRenewed() throws {
        let keys = AES256GCM.UnitKeys(try SecretBytes.random(count: 32))
        func salt(_ scope: AES256GCM.SaltScope, _ count: Int) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: AES256GCM.saltLength)
            out.withUnsafeMutableBytes { keys.drawSalt(for: scope, sealing: count, into: $0.baseAddress!) }
            return out
        }
        let segment = AES256GCM.SaltScope.segment(base: 1, generation: 0)
        let half = AES256GCM.UnitKeys.bytesPerSalt / 2
        let first = salt(segment, half)
        #expect(salt(segment, half) == first)
        #expect(salt(segment, 1) != first, "past the most bytes a salt seals")
        #expect(salt(.segment(base: 2, generation: 0), 1) != salt(.derivedFiles, 1))
    }

    @Test("Units sealed with a salt each, and units sharing salts, open through a reader's kept unit keys in any order; a changed salt, nonce or byte does not open")
    func keptKeysOpenEveryLayout() throws {
        let key = try SecretBytes.random(count: 32)
        let cipher = StoreCipher(storeID: StoreID.random(), keys: [0: key], ciphers: [0: .aes256GCM], current: 0)
        let place: [UInt8] = [1, 2, 3]
        let associated = cipher.associatedData(0, .derivedFile, place)
        // Sealed as a writer without kept salts seals them: a salt of its own each.
        let ownSalts = (0..<(AES256GCM.UnitKeys.slotCount * 3)).map { index -> [UInt8] in
            let plaintext = [UInt8](repeating: UInt8(index), count: 100 + index)
            var unit = [UInt8](repeating: 0, count: plaintext.count + StoreCipher.overhead)
            plaintext.withUnsafeBytes { p in
                associated.withUnsafeBytes { a in
                    unit.withUnsafeMutableBytes { AES256GCM.seal(p, associated: a, key: key, into: UnsafeMutableRawBufferPointer(rebasing: $0[4...])) }
                }
            }
            return unit
        }
        #expect(Set(ownSalts.map { Self.saltAndNonce($0, at: 0).salt }).count == ownSalts.count)
        let shared = (0..<5).map { cipher.seal([UInt8](repeating: 0xA0 + UInt8($0), count: 64), .derivedFile, place: place) }
        #expect(Set(shared.map { Self.saltAndNonce($0, at: 0).salt }).count == 1)
        for _ in 0..<2 {
            for (index, unit) in ownSalts.enumerated().reversed() {
                #expect(cipher.open(unit, .derivedFile, place: place) == [UInt8](repeating: UInt8(index), count: 100 + index))
                #expect(cipher.open(shared[index % shared.count], .derivedFile, place: place) == [UInt8](repeating: 0xA0 + UInt8(index % shared.count), count: 64))
            }
        }
        for unit in [ownSalts[0], shared[0]] {
            for offset in [4, 15, 16, 27, 28, unit.count - 1] {
                var changed = unit
                changed[offset] ^= 0x01
                #expect(cipher.open(changed, .derivedFile, place: place) == nil, "byte \(offset) changed")
            }
            #expect(cipher.open(unit, .derivedFile, place: [1, 2, 4]) == nil, "another place")
        }
    }
}

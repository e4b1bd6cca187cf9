import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// The derived files of an encrypted store (UUID runs, the sync table, the deleted-add
/// index) with their bodies sealed by the store's ``StoreCipher``: they read back as the
/// plaintext ones do, their bytes hold none of what they index, and one changed, moved,
/// renamed or copied from another store does not open (a writer then rebuilds it).
@Suite("Sealed derived files")
struct SealedDerivedFileTests {
    /// A store's cipher with one fresh random key.
    static func cipher(_ storeID: StoreID = .random()) throws -> StoreCipher {
        try Sodium.ready()
        return StoreCipher(storeID: storeID, keys: [1: try SecretBytes.random(count: 32)], ciphers: [1: .preferred], current: 1)
    }

    /// The UUID every fixture holds.
    static let known = SampleUUID("0D4A1F9C-5E3B-4C61-9B57-2A1E4F8C7D10")!

    /// The ways `uuid` may show in a file: its text in both cases, its 16 bytes in order,
    /// and each half as a little- or big-endian u64.
    static func forms(of uuid: SampleUUID) -> [[UInt8]] {
        let text = uuid.description.uppercased()
        let high = withUnsafeBytes(of: uuid.high.bigEndian, Array.init)
        let low = withUnsafeBytes(of: uuid.low.bigEndian, Array.init)
        return [Array(text.utf8), Array(text.lowercased().utf8), high + low, high, low, high.reversed(), low.reversed()]
    }

    /// Whether `needle` occurs in `haystack`.
    static func holds(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        haystack.withUnsafeBytes { ByteSearch.contains(needle, in: $0) }
    }

    /// The 16-byte pieces of `body` that are not one byte repeated (those could occur anywhere).
    static func pieces(of body: ArraySlice<UInt8>) -> [[UInt8]] {
        stride(from: body.startIndex, to: body.endIndex - 15, by: 16).map { Array(body[$0..<$0 + 16]) }.filter { Set($0).count > 1 }
    }

    /// `bytes` with bit `bit` of byte `at` flipped.
    static func flipped(_ bytes: [UInt8], at: Int, bit: UInt8 = 0x04) -> [UInt8] {
        var out = bytes
        out[at] ^= bit
        return out
    }

    /// 3,000 events of random UUIDs and the known one, seq 1...3001.
    static func runEvents() throws -> UUIDFingerprintRun.Events {
        var random = SeededRandom(state: 7)
        var events = UUIDFingerprintRun.Events()
        for seq in 1...3_000 { try events.add(SampleUUID(high: random.next(), low: random.next()), seq: UInt64(seq)) }
        try events.add(known, seq: 3_001)
        return events
    }

    @Test("A sealed UUID run reads back as the plaintext one, and its bytes hold no UUID, fingerprint field or piece of the plaintext body")
    func runRoundTrip() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let cipher = try Self.cipher()
        let events = try Self.runEvents()
        for name in ["plain", "sealed"] { try OwnedDirectory.prepare(dir.file(name)) }
        let plain = try events.write(from: 1, to: 3_001, binding: .unbound, cipher: nil, directory: dir.file("plain"))
        let sealed = try events.write(from: 1, to: 3_001, binding: .unbound, cipher: cipher, directory: dir.file("sealed"))
        #expect(sealed.keys() == plain.keys())
        #expect(sealed.candidateBlocks(Self.known) == plain.candidateBlocks(Self.known) && !sealed.candidateBlocks(Self.known).isEmpty)
        let plainBytes = try ByteSurgery.read(plain.path)
        let sealedBytes = try ByteSurgery.read(sealed.path)
        let pages = UUIDFingerprintRun.pageCount(bodyBytes: plainBytes.count - UUIDFingerprintRun.headerLength)
        #expect(pages > 1 && sealedBytes.count == plainBytes.count + pages * StoreCipher.overhead, "a unit a page")
        #expect(sealed.byteCount == sealedBytes.count)
        #expect(Array(sealedBytes[0..<36]) == Array(plainBytes[0..<36]), "the header keeps its range, count and widths")
        for form in Self.forms(of: Self.known) { #expect(!Self.holds(sealedBytes, form)) }
        let pieces = Self.pieces(of: plainBytes[UUIDFingerprintRun.headerLength...])
        #expect(pieces.count > 100)
        #expect(!pieces.contains { Self.holds(sealedBytes, $0) }, "no 16 bytes of the plaintext body")
        #expect(UUIDFingerprintRun(path: sealed.path, cipher: nil) == nil, "a plaintext reader does not take it")
        #expect(UUIDFingerprintRun(path: plain.path, cipher: cipher) == nil, "nor a sealed reader a plaintext run")
    }

    @Test("A sealed UUID run flipped anywhere, with its header's range or count changed, under another name or from another store does not open")
    func runRefused() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let storeID = StoreID.random()
        let cipher = try Self.cipher(storeID)
        let run = try Self.runEvents().write(from: 1, to: 3_001, binding: .unbound, cipher: cipher, directory: dir.path)
        let pristine = try ByteSurgery.read(run.path)
        func opens(_ bytes: [UInt8], as name: String = run.path, with opener: StoreCipher? = nil) throws -> Bool {
            try ByteSurgery.write(bytes, to: name)
            return UUIDFingerprintRun(path: name, cipher: opener ?? cipher) != nil
        }
        #expect(try opens(pristine))
        var random = SeededRandom(state: 3)
        for at in [64, 67, 68, 91, 92, pristine.count / 2, pristine.count - 16, pristine.count - 1] + (0..<10).map({ _ in random.int(64...pristine.count - 1) }) {
            // The body's CRC-32C made to match: the seal alone must refuse it.
            let damaged = Self.flipped(pristine, at: at)
            let recrc = UUIDFingerprintRun.file.resealed(damaged, at: 36, with: withUnsafeBytes(of: CRC32C.checksum(damaged[64...]).littleEndian, Array.init))
            #expect(try !opens(recrc), "flipped byte \(at)")
        }
        // Another range (same block widths) under the matching name, the header sealed anew.
        let other = dir.file(UUIDFingerprintRun.fileName(from: 1, to: 3_002))
        let renamed = UUIDFingerprintRun.file.resealed(pristine, at: 16, with: withUnsafeBytes(of: UInt64(3_002).littleEndian, Array.init))
        #expect(try !opens(renamed, as: other))
        try OwnedDirectory.prepare(dir.file("plain"))
        let plainRenamed = UUIDFingerprintRun.file.resealed(
            try ByteSurgery.read(try Self.runEvents().write(from: 1, to: 3_001, binding: .unbound, cipher: nil, directory: dir.file("plain")).path), at: 16,
            with: withUnsafeBytes(of: UInt64(3_002).littleEndian, Array.init))
        try ByteSurgery.write(plainRenamed, to: other)
        #expect(UUIDFingerprintRun(path: other, cipher: nil) != nil, "a plaintext run's range is only as good as its header")
        #expect(try !opens(pristine, with: try Self.cipher(storeID)), "another key")
        #expect(try !opens(pristine, with: StoreCipher(storeID: .random(), keys: [1: try SecretBytes.random(count: 32)], ciphers: [1: .preferred], current: 1)), "another store")
        #expect(try opens(UUIDFingerprintRun.rebound(pristine, to: LogBinding(storeID: storeID, check: 9))), "the binding stays outside the seal")
    }

    /// A sync table of the known UUID under a known identifier, and 200 others.
    static func syncTable() -> SyncTable {
        var table = SyncTable()
        table.coveredSeq = 4_000
        table.binding = LogBinding(storeID: .random(), check: 77)
        let entry = { (id: String, uuid: SampleUUID) in
            SyncTable.Entry(uuid: uuid, sync: SyncStub(identifier: Array("\"\(id)\"".utf8), versionToken: Array("31415".utf8), version: 31_415))
        }
        table.entries[Array("\"known-sync-identifier\"".utf8)] = entry("known-sync-identifier", known)
        var random = SeededRandom(state: 11)
        for k in 0..<200 { table.entries[Array("\"id-\(k)\"".utf8)] = entry("id-\(k)", SampleUUID(high: random.next(), low: random.next())) }
        return table
    }

    @Test("A sealed sync table reads back whole and its bytes hold no identifier, UUID or version; changed, or copied to another store, it does not open")
    func syncTable() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let layout = StoreLayout(directory: dir.path)
        let cipher = try Self.cipher()
        let table = Self.syncTable()
        try table.write(layout, binding: table.binding, cipher: cipher)
        #expect(SyncTable.read(layout, cipher: cipher) == table)
        let sealed = try ByteSurgery.read(SyncTable.path(layout))
        for form in Self.forms(of: Self.known) + [Array("known-sync-identifier".utf8), Array("id-1".utf8), Array("31415".utf8)] {
            #expect(!Self.holds(sealed, form))
        }
        #expect(SyncTable.read(layout, cipher: nil) == nil)
        #expect(SyncTable.read(layout, cipher: try Self.cipher()) == nil)
        for at in [48, 60, sealed.count / 2, sealed.count - 1] {
            let damaged = Self.flipped(sealed, at: at)
            try ByteSurgery.write(SyncTable.file.resealed(damaged, at: 20, with: withUnsafeBytes(of: CRC32C.checksum(damaged[48...]).littleEndian, Array.init)), to: SyncTable.path(layout))
            #expect(SyncTable.read(layout, cipher: cipher) == nil, "flipped byte \(at)")
        }
        try ByteSurgery.write(SyncTable.file.resealed(sealed, at: 8, with: withUnsafeBytes(of: UInt64(4_001).littleEndian, Array.init)), to: SyncTable.path(layout))
        #expect(SyncTable.read(layout, cipher: cipher) == nil, "another covered number")
        try ByteSurgery.write(sealed, to: SyncTable.path(layout))
        #expect(SyncTable.read(layout, cipher: cipher) == table)

        var empty = SyncTable()
        empty.coveredSeq = 9
        try empty.write(layout, binding: table.binding, cipher: cipher)
        #expect(SyncTable.read(layout, cipher: cipher)?.entries.isEmpty == true)
    }

    /// 2,600 rising sequence numbers: three blocks, the last partial.
    static let deletedAdds: [UInt64] = (0..<2_600).map { 7 + UInt64($0) * 13 }

    @Test("A sealed deleted-add index reads back block by block and its bytes hold none of its entries")
    func deletedAddsRoundTrip() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let layout = StoreLayout(directory: dir.path)
        let cipher = try Self.cipher()
        let binding = LogBinding(storeID: cipher.storeID, check: 5)
        try DeletedAddIndex.write(layout, Self.deletedAdds, coveredSeq: 40_000, binding: binding, cipher: cipher)
        let index = try #require(DeletedAddIndex.open(layout, cipher: cipher))
        #expect((index.coveredSeq, index.count, index.blockCount, index.binding) == (40_000, 2_600, 3, binding))
        #expect(try index.allEntries() == Self.deletedAdds)
        var cursor = DeletedAddCursor(index)
        let listed = Set(Self.deletedAdds)
        let asked = (UInt64(1)...40_000).filter { $0 % 5 == 0 }
        #expect(try asked.filter { try cursor.isDeleted($0) } == asked.filter { listed.contains($0) })
        let sealed = try ByteSurgery.read(DeletedAddIndex.path(layout))
        #expect(sealed.count == DeletedAddIndex.encoded(Self.deletedAdds, coveredSeq: 40_000, binding: binding, cipher: nil).count + 4 * StoreCipher.overhead)
        let words = Self.deletedAdds.map { withUnsafeBytes(of: $0.littleEndian, Array.init) }
        let body = Array(sealed[DeletedAddIndex.headerLength...])
        #expect(!words.contains { Self.holds(body, $0) }, "no entry, nor a block's first in the table")
        #expect(DeletedAddIndex.open(layout, cipher: nil) == nil)
        #expect(DeletedAddIndex.open(layout, cipher: try Self.cipher(cipher.storeID)) == nil)

        try DeletedAddIndex.write(layout, [], coveredSeq: 12, binding: binding, cipher: cipher)
        #expect(try DeletedAddIndex.open(layout, cipher: cipher)?.allEntries() == [])
    }

    /// The deleted-add index of `bytes`, written as `layout`'s sidecar and opened with `cipher`.
    static func reading(_ bytes: [UInt8], _ layout: StoreLayout, _ cipher: StoreCipher) throws -> DeletedAddIndex? {
        try ByteSurgery.write(bytes, to: DeletedAddIndex.path(layout))
        return DeletedAddIndex.open(layout, cipher: cipher)
    }

    @Test("A sealed deleted-add index: a flipped table does not open; a flipped block, or a block moved to another's place with the table agreeing, is damage when read, the other blocks still read")
    func deletedAddsRefused() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let layout = StoreLayout(directory: dir.path)
        let path = DeletedAddIndex.path(layout)
        let cipher = try Self.cipher()
        let binding = LogBinding(storeID: cipher.storeID, check: 5)
        try DeletedAddIndex.write(layout, Self.deletedAdds, coveredSeq: 40_000, binding: binding, cipher: cipher)
        let pristine = try ByteSurgery.read(path)
        let index = try #require(DeletedAddIndex.open(layout, cipher: cipher))
        let tableStart = DeletedAddIndex.headerLength
        let tableEnd = index.offset(ofBlock: 0)
        let blockLength = index.offset(ofBlock: 1) - index.offset(ofBlock: 0)
        #expect(tableEnd - tableStart == 3 * DeletedAddIndex.tableEntryLength + StoreCipher.overhead && blockLength == 8_192 + StoreCipher.overhead)

        /// The file with its table replaced by `table` (plaintext), sealed and checksummed as a writer would.
        func withTable(_ bytes: [UInt8], _ table: [UInt8]) -> [UInt8] {
            let sealedTable = cipher.seal(table, .derivedFile, place: SmallFile.place(bytes[0..<DeletedAddIndex.placeLength], unit: 0))
            var out = bytes
            out.replaceSubrange(tableStart..<tableEnd, with: sealedTable)
            return DeletedAddIndex.file.resealed(out, at: 28, with: withUnsafeBytes(of: CRC32C.checksum(sealedTable[...]).littleEndian, Array.init))
        }
        let table = try #require(cipher.open(Array(pristine[tableStart..<tableEnd]), .derivedFile, place: SmallFile.place(pristine[0..<DeletedAddIndex.placeLength], unit: 0)))
        #expect(withTable(pristine, table) != pristine)
        #expect(try Self.reading(withTable(pristine, table), layout, cipher) != nil, "the test's own resealing opens")

        for at in [tableStart, tableStart + 30, tableEnd - 1] {
            let damaged = Self.flipped(pristine, at: at)
            let recrc = DeletedAddIndex.file.resealed(damaged, at: 28, with: withUnsafeBytes(of: CRC32C.checksum(damaged[tableStart..<tableEnd]).littleEndian, Array.init))
            #expect(try Self.reading(recrc, layout, cipher) == nil, "flipped table byte \(at)")
        }

        // Block 2 flipped (its CRC-32C in the table made to match): blocks 0 and 1 still read.
        var damaged = Self.flipped(pristine, at: index.offset(ofBlock: 2) + 40)
        var plainTable = table
        let entry = DeletedAddIndex.tableEntryLength
        plainTable.replaceSubrange(2 * entry + 8..<2 * entry + 12, with: withUnsafeBytes(of: CRC32C.checksum(damaged[index.offset(ofBlock: 2)...]).littleEndian, Array.init))
        damaged = withTable(damaged, plainTable)
        let flippedIndex = try #require(try Self.reading(damaged, layout, cipher))
        #expect(try flippedIndex.block(0) == Array(Self.deletedAdds[0..<1024]))
        let flippedError = #expect(throws: HealthLogError.self) { try flippedIndex.block(2) }
        #expect(flippedError?.code == .corrupt && flippedError?.message.contains("uuids/deleted-adds at byte \(index.offset(ofBlock: 2)): block 3 is damaged") == true)

        // Blocks 0 and 1 swapped, the table's checksums and first entries swapped to agree.
        var swapped = pristine
        let first = Array(pristine[index.offset(ofBlock: 0)..<index.offset(ofBlock: 1)])
        let second = Array(pristine[index.offset(ofBlock: 1)..<index.offset(ofBlock: 2)])
        swapped.replaceSubrange(index.offset(ofBlock: 0)..<index.offset(ofBlock: 1), with: second)
        swapped.replaceSubrange(index.offset(ofBlock: 1)..<index.offset(ofBlock: 2), with: first)
        var swappedTable = table
        swappedTable.replaceSubrange(0..<entry, with: table[entry..<2 * entry])
        swappedTable.replaceSubrange(entry..<2 * entry, with: table[0..<entry])
        let moved = try #require(try Self.reading(withTable(swapped, swappedTable), layout, cipher))
        for k in 0..<2 {
            let error = #expect(throws: HealthLogError.self) { try moved.block(k) }
            #expect(error?.code == .corrupt, "block \(k)")
        }
        #expect(try moved.block(2) == Array(Self.deletedAdds[2048...]))

        // Copied to another store: nothing opens.
        try ByteSurgery.write(pristine, to: path)
        #expect(DeletedAddIndex.open(layout, cipher: try Self.cipher()) == nil)
        #expect(DeletedAddIndex.open(layout, cipher: cipher) != nil)
    }

    @Test("In a store, runs and a sync table written sealed serve lookups; one flipped, left in the clear, or sealed for another store is ignored and rebuilt sealed")
    func inStore() throws {
        let fixture = try IndexFixture.shared.get()
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try IndexFixture.restore(IndexFixture.primary(fixture.pristine), into: dir.file("store"))
        let layout = StoreLayout(directory: store.directory)
        let snapshot = try LogSnapshot(layout)
        let cipher = try Self.cipher(snapshot.meta.storeID)
        let uuids = (Array(1...215) + [1010, 1020]).map { SampleUUID(IndexFixture.uuid($0))! }
        let runsDirectory = store.directory + "/uuids"
        func runNames() throws -> [String] { try DirectoryListing.names(in: runsDirectory).filter { $0.hasSuffix(".run") }.sorted() }
        /// The answers of a writer's index opened now, and the run files it left.
        func lookups() throws -> (found: [UUIDRunSet.Found?], files: [String: [UInt8]]) {
            let set = try UUIDRunSet(layout, snapshot: snapshot, cipher: cipher, chunkEvents: 60)
            let found = try set.lookup(all: uuids)
            return (found, try Dictionary(uniqueKeysWithValues: runNames().map { ($0, try ByteSurgery.read(runsDirectory + "/" + $0)) }))
        }
        let plainSet = try UUIDRunSet(layout, snapshot: snapshot, cipher: nil, chunkEvents: 60)
        let expected = try plainSet.lookup(all: uuids)
        let plainFiles = try Dictionary(uniqueKeysWithValues: runNames().map { ($0, try ByteSurgery.read(runsDirectory + "/" + $0)) })
        #expect(plainFiles.count > 1)
        #expect(expected[9] != nil && expected[212] == nil)

        // The plaintext runs are not taken: rebuilt sealed, with the same answers.
        let sealed = try lookups()
        #expect(sealed.found == expected)
        #expect(Set(sealed.files.keys) == Set(plainFiles.keys))
        for (name, bytes) in sealed.files {
            #expect(bytes != plainFiles[name] && UUIDFingerprintRun(path: runsDirectory + "/" + name, cipher: cipher) != nil, "\(name)")
            #expect(UUIDFingerprintRun(path: runsDirectory + "/" + name, cipher: nil) == nil)
        }
        // Taken as they are when sound.
        #expect(try lookups().files == sealed.files)
        // One flipped (its checksum made to match), and one sealed for another store: rebuilt.
        let names = try runNames()
        let flippedName = names[0]
        let flipped = Self.flipped(sealed.files[flippedName]!, at: UUIDFingerprintRun.headerLength + 40)
        try ByteSurgery.write(
            UUIDFingerprintRun.file.resealed(flipped, at: 36, with: withUnsafeBytes(of: CRC32C.checksum(flipped[64...]).littleEndian, Array.init)),
            to: runsDirectory + "/" + flippedName)
        let foreignName = names[names.count - 1]
        let foreignRun = try #require(UUIDFingerprintRun(path: runsDirectory + "/" + foreignName, cipher: cipher))
        let foreignCipher = try Self.cipher()
        var foreignEncoder = UUIDFingerprintRun.Encoder(count: foreignRun.count, from: foreignRun.fromSeq, to: foreignRun.toSeq)
        for key in foreignRun.keys() { foreignEncoder.append(key) }
        try ByteSurgery.write(foreignEncoder.takeFileBytes(binding: foreignRun.binding, cipher: foreignCipher), to: runsDirectory + "/" + foreignName)
        let rebuilt = try lookups()
        #expect(rebuilt.found == expected)
        #expect(rebuilt.files.keys.allSatisfy { UUIDFingerprintRun(path: runsDirectory + "/" + $0, cipher: cipher) != nil })

        // The sync table: sealed, read back; flipped, rebuilt from the log with the same entries.
        let table = try SyncTable.load(layout, snapshot: snapshot, cipher: nil)
        #expect(table.entries.count > 10)
        try table.write(layout, binding: try #require(snapshot.binding(at: table.coveredSeq)), cipher: cipher)
        let sealedTable = try ByteSurgery.read(SyncTable.path(layout))
        #expect(!Self.holds(sealedTable, Array("sync-10".utf8)))
        #expect(try SyncTable.load(layout, snapshot: snapshot, cipher: cipher).entries == table.entries)
        #expect(SyncTable.read(layout, cipher: cipher)?.entries == table.entries)
        try ByteSurgery.write(Self.flipped(sealedTable, at: sealedTable.count - 3), to: SyncTable.path(layout))
        #expect(SyncTable.read(layout, cipher: cipher) == nil)
        #expect(try SyncTable.load(layout, snapshot: snapshot, cipher: cipher).entries == table.entries)
    }
}

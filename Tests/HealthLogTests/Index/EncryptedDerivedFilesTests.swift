import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// An encrypted store from the outside: after appends with sync identifiers and deletes,
/// `verify`, `reindex`, `compact` and more appends, no file anywhere under the store holds
/// a sample's UUID (as text or raw bytes), type, sync identifier, source or device; its
/// derived files are used (verify finds them sound) and one damaged is rebuilt, never a
/// reason to refuse.
@Suite("Encrypted store: derived files")
struct EncryptedDerivedFilesTests {
    /// The samples' UUIDs: random, so their raw bytes cannot occur by chance.
    static let uuids: [SampleUUID] = {
        var random = SeededRandom(state: 2024)
        return (0..<400).map { _ in SampleUUID(high: random.next(), low: random.next()) }
    }()

    /// Sample `n`: a heart rate or a blood glucose from a named source and device, with the
    /// sync identifier `secret-sync-ID` at a version when given (by default, every fifth
    /// sample its own at version 1).
    static func sample(_ n: Int, sync: (id: Int, version: Int)? = nil) -> String {
        let sync = sync ?? (n % 5 == 0 ? (n, 1) : nil)
        let type = n % 2 == 0 ? "HKQuantityTypeIdentifierHeartRate\",\"value\":\(60 + n % 40),\"unit\":\"count/min" : "HKQuantityTypeIdentifierBloodGlucose\",\"value\":\(90 + n % 30),\"unit\":\"mg/dL"
        let metadata = sync.map { #","metadata":{"HKMetadataKeySyncIdentifier":"secret-sync-\#($0.id)","HKMetadataKeySyncVersion":\#($0.version)}"# } ?? ""
        let minute = String(format: "%02d", n % 60)
        return #"{"uuid":"\#(uuids[n].description)","type":"\#(type)","start":"2024-05-0\#(1 + n / 100)T10:\#(minute):00Z","source":"SecretSourceWatch","device":"SecretDeviceModel"\#(metadata)}"#
    }

    /// A delete of sample `n`.
    static func delete(_ n: Int) -> String { #"{"op":"delete","uuid":"\#(uuids[n].description.lowercased())"}"# }

    /// Lines as NDJSON bytes.
    static func ndjson(_ lines: [String]) -> [UInt8] { Array((lines.joined(separator: "\n") + "\n").utf8) }

    /// The appends: three of fresh samples with deletes among them and a sync identifier's
    /// sample replaced by a newer version.
    static let appends: [[String]] = [
        (0..<150).map { sample($0) },
        (150..<250).map { sample($0) } + [delete(3), delete(10), delete(120)],
        (250..<300).map { sample($0) } + [sample(300, sync: (5, 2)), delete(160)],
    ]

    /// What no file may hold: every UUID's text (both cases), its 16 bytes and each half in
    /// either byte order, the types, sync identifiers, source and device.
    static var secrets: [(String, [UInt8])] {
        var out: [(String, [UInt8])] = []
        for uuid in uuids.prefix(310) {
            let text = uuid.description
            let high = withUnsafeBytes(of: uuid.high.bigEndian, Array.init)
            let low = withUnsafeBytes(of: uuid.low.bigEndian, Array.init)
            for (what, bytes) in [("text", Array(text.utf8)), ("lower", Array(text.lowercased().utf8)), ("raw", high + low), ("high", high), ("low", low), ("high LE", Array(high.reversed())), ("low LE", Array(low.reversed()))] {
                out.append(("\(text) \(what)", bytes))
            }
        }
        for word in ["HeartRate", "BloodGlucose", "secret-sync", "SecretSourceWatch", "SecretDeviceModel", "count/min", "mg/dL"] { out.append((word, Array(word.utf8))) }
        return out
    }

    /// The secrets found in the files under `directory` (each named with its file).
    static func leaks(_ directory: String) throws -> [String] {
        let files = try ByteSurgery.image(of: directory)
        let secrets = Self.secrets
        var found: [String] = []
        for (name, bytes) in files.sorted(by: { $0.key < $1.key }) {
            bytes.withUnsafeBytes { raw in
                for (what, needle) in secrets where ByteSearch.contains(needle, in: raw) { found.append("\(name): \(what)") }
            }
        }
        return found
    }

    /// Every replay the tests compare: raw and in HealthKit's view, from several anchors.
    static func answers(_ store: HealthStore) throws -> [String] {
        let head = try store.headAnchor()
        var out: [String] = []
        for seq in Set([0, 100, 200, head.seq - 2]).sorted() {
            for raw in [false, true] {
                _ = try store.replay(ReplayRequest(anchor: QueryAnchor(seq: seq, storeTag: head.storeTag, generation: head.generation), raw: raw)) {
                    out.append("\(seq) \(raw): " + String(decoding: $0, as: UTF8.self))
                }
            }
        }
        return out
    }

    /// An encrypted store and a plaintext one in `dir`, each given ``appends`` in turn;
    /// `afterEach` sees the encrypted one after every append.
    static func stores(in dir: TemporaryDirectory, afterEach: (HealthStore) throws -> Void = { _ in }) throws -> (sealed: HealthStore, plain: HealthStore) {
        let store = try EncryptedSegmentTests.makeStore(dir.file("sealed"), options: IndexFixture.options)
        let plain = HealthStore(directory: dir.file("plain"), options: IndexFixture.options)
        for lines in Self.appends {
            for target in [store, plain] { _ = try target.append(ndjson: Self.ndjson(lines)) }
            try afterEach(store)
        }
        return (store, plain)
    }

    /// The store's `uuids/` files.
    static func derived(_ store: HealthStore) throws -> [String] {
        try DirectoryListing.names(in: store.directory + "/uuids").sorted()
    }

    @Test("No file of an encrypted store (segment indexes' sealed copies of the tables included) holds a UUID, type, sync identifier, source or device after appends, verify, reindex, compact and another append; the derived files are there and sound")
    func nothingLeaks() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (store, plain) = try Self.stores(in: dir) { (sealed: HealthStore) throws in #expect(try Self.leaks(sealed.directory) == []) }
        #expect(try Self.leaks(plain.directory).count > 300, "the scan finds what a plaintext store shows")
        let names = try Self.derived(store)
        #expect(names.contains("sync") && names.contains("deleted-adds") && names.contains { $0.hasSuffix(".run") }, "\(names)")
        #expect(try Self.answers(store) == Self.answers(plain))
        let report = try store.verify()
        #expect(report.isSound && report.notes.isEmpty, "\(report)")

        _ = try store.reindex()
        #expect(try Self.leaks(store.directory) == [])
        #expect(try store.verify().problems.isEmpty)

        for target in [store, plain] { _ = try target.compact(horizon: .anchor(QueryAnchor(seq: 200, storeTag: try target.headAnchor().storeTag, generation: 0))) }
        for target in [store, plain] { _ = try target.append(ndjson: Self.ndjson([Self.sample(301), Self.delete(301), Self.sample(302, sync: (5, 3))])) }
        #expect(try SealedTableCopyTests.indexes(store).allSatisfy { !$0.1.sealedCopy.isEmpty }, "the scan covers the segment indexes' sealed copies")
        #expect(try Self.leaks(store.directory) == [])
        #expect(try Self.answers(store) == Self.answers(plain))
        let after = try store.verify()
        #expect(after.isSound && after.notes.isEmpty, "\(after)")
    }

    @Test("A damaged sealed run, sync table or deleted-add index of an encrypted store is reported, never refuses a read or an append, and the next append rebuilds it")
    func damagedRebuilt() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (store, plain) = try Self.stores(in: dir)
        let uuidsDirectory = store.directory + "/uuids"
        let damaged = try Self.derived(store).filter { $0 == "sync" || $0 == "deleted-adds" || $0.hasSuffix(".run") }
        for name in damaged {
            let path = uuidsDirectory + "/" + name
            let bytes = try ByteSurgery.read(path)
            try ByteSurgery.flip(path, at: bytes.count - 5, mask: 0x01)
        }
        let before = try store.verify()
        #expect(before.problems.count == damaged.count, "\(before.problems)")
        #expect(try Self.answers(store) == Self.answers(plain), "reads fall back to the log")

        let reused = #expect(throws: HealthLogError.self) { try store.append(ndjson: Self.ndjson([Self.sample(7)])) }
        #expect(reused?.message.contains("already in the store") == true, "\(reused?.message ?? "")")
        for target in [store, plain] {
            _ = try target.append(ndjson: Self.ndjson([Self.sample(305), Self.delete(20), Self.sample(306, sync: (25, 2))]))
        }
        #expect(try Self.answers(store) == Self.answers(plain))
        let after = try store.verify()
        #expect(after.isSound && after.notes.isEmpty, "\(after)")
        #expect(try Self.leaks(store.directory) == [])
    }
}

import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// `recover` of an encrypted store: it needs the key, opens every sealed unit where it
/// lies, and builds a store that is encrypted with the same key and key slots, every
/// salvaged batch sealed again for its new place.
@Suite("Encrypted recover")
struct EncryptedRecoverTests {
    /// An encrypted store of 1,300 events (with deletes) over several small segments, two
    /// key slots, and what it replays.
    struct Fixture {
        /// The scratch directory.
        let dir: TemporaryDirectory
        /// The store, with its key.
        let store: HealthStore
        /// Its cipher.
        let cipher: StoreCipher
        /// Its key slots' names and bytes.
        let slots: [String: [UInt8]]
        /// Every line `replay --raw` delivered before any damage.
        let raw: [String]

        init() throws {
            dir = try TemporaryDirectory()
            store = try EncryptedSegmentTests.makeStore(dir.file("store"), options: EncryptedSegmentTests.smallSegments)
            _ = try store.append(ndjson: CompactionTests.lines(1...1200))
            _ = try store.append(ndjson: CompactionTests.lines(1201...1300, deleting: [3, 8, 1250]))
            cipher = try #require(try store.layout.cipher(try StoreMeta.read(store.layout)))
            #expect(mkdir(dir.file("store/keys"), 0o700) == 0)
            var slots: [String: [UInt8]] = [:]
            for name in ["0001.slot", "0002.slot"] {
                slots[name] = (0..<160).map { _ in UInt8.random(in: 0...255) }
                try ByteSurgery.write(slots[name]!, to: dir.file("store/keys/" + name))
                chmod(dir.file("store/keys/" + name), 0o600)
            }
            self.slots = slots
            raw = try CompactionTests.raw(store)
        }

        /// The recovered store, opened with the same key.
        var copy: HealthStore {
            HealthStore(directory: dir.file("recovered"), options: StoreOptions(), keys: StoreKeys(cipher: cipher))
        }

        /// The sequence number a raw line starts with.
        static func seq(_ line: String) -> UInt64? {
            line.split(separator: ",").first?.split(separator: ":").last.flatMap { UInt64($0) }
        }
    }

    @Test("A flipped byte in one sealed frame loses that batch only; the new store is encrypted with the same key and slots, replays every other event as the source did, verifies, and holds no type name or UUID in its segments")
    func flippedSealedFrame() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let snapshot = try LogSnapshot(fixture.store.layout, usingIndexes: false)
        #expect(snapshot.segments.count >= 4, "several segments")
        let segment = snapshot.segments[1]
        let hit = try snapshot.batches(inSegment: 1)[1]
        #expect(hit.header.isSealed)
        try ByteSurgery.flip(fixture.dir.file("store/" + segment.displayPath), at: hit.groupOffsets[0] + 60, mask: 0x10)
        let damaged = try RestoreFixture.tree(fixture.dir.file("store"))

        let report = try fixture.store.recover(to: fixture.dir.file("recovered"))

        let lost = hit.header.firstSeq...hit.header.lastSeq
        #expect(report.lost == [lost])
        #expect(report.unreadable.count == 1)
        let region = try #require(report.unreadable.first)
        #expect(region.file == segment.displayPath && region.offset == hit.offset && region.length == hit.end - hit.offset && region.seqs == lost, "\(region)")
        #expect(try RestoreFixture.tree(fixture.dir.file("store")) == damaged, "recover writes nothing into the damaged store")

        let layout = StoreLayout(directory: fixture.dir.file("recovered"))
        let meta = try StoreMeta.read(layout)
        #expect(meta.isEncrypted && meta.storeID == snapshot.meta.storeID)
        let keyless = try #require(throws: HealthLogError.self) { try RestoreFixture.seqs(HealthStore(directory: layout.directory)) }
        #expect(keyless.code == .keyRequired)
        let survivors = fixture.raw.filter { Fixture.seq($0).map { !lost.contains($0) } ?? true }
        #expect(survivors.count == fixture.raw.count - lost.count)
        #expect(try CompactionTests.raw(fixture.copy) == survivors)
        let check = try fixture.copy.verify()
        #expect(check.isSound, "\(check.problems)")

        #expect(try ByteSurgery.mode(layout.keySlots) == 0o700)
        for (name, bytes) in fixture.slots {
            #expect(try ByteSurgery.read(layout.keySlots + "/" + name) == bytes, "\(name)")
            #expect(try ByteSurgery.mode(layout.keySlots + "/" + name) == 0o600, "\(name)")
        }
        let needles = [Array("HeartRate".utf8), Array("StepCount".utf8), Array(CompactionTests.uuid(123).utf8), Array("00000000-0000-4000-8000-".utf8)]
        let files = try DirectoryFiles.contents(layout.directory).filter { $0.0.hasPrefix("segments/") }
        #expect(files.contains { $0.0.hasSuffix(".log.lz4") } && files.contains { $0.0.hasSuffix(".idx") })
        for (name, bytes) in files {
            #expect(try ByteSurgery.mode(layout.directory + "/" + name) == 0o600, "\(name)")
            for needle in needles {
                #expect(EncryptedSegmentTests.find(needle, in: bytes) == nil, "\(name) holds \(String(decoding: needle, as: UTF8.self))")
            }
        }
    }

    @Test("Every batch of the new store is sealed for its own place: none is a copy of the source's bytes")
    func batchesResealed() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        var options = EncryptedSegmentTests.smallSegments
        options.segmentBytes = 40_000
        let store = HealthStore(directory: fixture.dir.file("store"), options: options, keys: StoreKeys(cipher: fixture.cipher))
        let report = try store.recover(to: fixture.dir.file("recovered"))
        #expect(report.isComplete && report.unreadable.isEmpty)
        let source = try LogSnapshot(fixture.store.layout, usingIndexes: false)
        let copy = try LogSnapshot(fixture.copy.layout, usingIndexes: false)
        #expect(copy.segments.count < source.segments.count, "the batches moved to other segments")
        let sourceBatches = try source.allBatches()
        let copyBatches = try copy.allBatches()
        #expect(copyBatches.map(\.header.firstSeq) == sourceBatches.map(\.header.firstSeq))
        #expect(copyBatches.allSatisfy { $0.header.isSealed })
        func payloads(_ snapshot: LogSnapshot, _ batches: [BatchRef]) throws -> Set<[UInt8]> {
            Set(try batches.map { try #require(try snapshot.segments[$0.segment].headerPayload(at: $0.offset)) })
        }
        #expect(try payloads(copy, copyBatches).isDisjoint(with: payloads(source, sourceBatches)))
        #expect(try CompactionTests.raw(fixture.copy) == fixture.raw)
    }

    @Test("A segment moved to another name keeps its checksums but opens none of its units: its batches are lost, each reported with its numbers and why")
    func movedSegment() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let snapshot = try LogSnapshot(fixture.store.layout, usingIndexes: false)
        let name = snapshot.segments[2].name
        let batches = try snapshot.batches(inSegment: 2)
        let layout = fixture.store.layout
        #expect(rename(layout.segment(baseSeq: name.baseSeq), layout.segment(baseSeq: name.baseSeq + 1)) == 0)
        let report = try fixture.store.recover(to: fixture.dir.file("recovered"))
        let lost = batches.first!.header.firstSeq...batches.last!.header.lastSeq
        #expect(report.lost == [lost])
        #expect(report.unreadable.map(\.offset) == batches.map(\.offset))
        #expect(report.unreadable.map(\.seqs) == batches.map { $0.header.firstSeq...$0.header.lastSeq })
        #expect(report.unreadable.allSatisfy { $0.reason.contains("does not authenticate") }, "\(report.unreadable)")
        #expect(try CompactionTests.raw(fixture.copy) == fixture.raw.filter { Fixture.seq($0).map { !lost.contains($0) } ?? true })
        #expect(try fixture.copy.verify().isSound)
    }

    @Test("Without the key, recover of an encrypted store is refused as key required and writes nothing, with meta readable or not; with meta unreadable and the key, the new store is encrypted")
    func keyRequired() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let keyless = HealthStore(directory: fixture.dir.file("store"), options: StoreOptions())
        let before = try FileManager.default.contentsOfDirectory(atPath: fixture.dir.path).sorted()
        let store = try RestoreFixture.tree(fixture.dir.file("store"))
        for damagedMeta in [false, true] {
            if damagedMeta { try ByteSurgery.write(Array("garbage\n".utf8), to: fixture.dir.file("store/meta")) }
            let error = try #require(throws: HealthLogError.self, "meta damaged: \(damagedMeta)") { try keyless.recover(to: fixture.dir.file("recovered")) }
            #expect(error.code == .keyRequired, "\(error)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.dir.path).sorted() == before)
        }
        #expect(try RestoreFixture.tree(fixture.dir.file("store")).filter { $0.key != "meta" } == store.filter { $0.key != "meta" })

        let report = try fixture.store.recover(to: fixture.dir.file("recovered"))
        #expect(report.isComplete && report.notes.contains { $0.contains("meta is unreadable") })
        #expect(try StoreMeta.read(fixture.copy.layout).isEncrypted)
        #expect(try CompactionTests.raw(fixture.copy) == fixture.raw)
        #expect(try fixture.copy.verify().isSound)
    }

    @Test("When meta says plaintext but the batches are sealed, recover asks for the key (keyRequired, nothing written); with it, every event comes back in an encrypted store")
    func plaintextMetaOverSealedBatches() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let id = try StoreMeta.read(fixture.store.layout).storeID
        try ByteSurgery.write(Array(StoreMeta.new(id, encrypted: false).text.utf8), to: fixture.dir.file("store/meta"))
        let before = try FileManager.default.contentsOfDirectory(atPath: fixture.dir.path).sorted()
        let keyless = HealthStore(directory: fixture.dir.file("store"), options: StoreOptions())
        let error = try #require(throws: HealthLogError.self) { try keyless.recover(to: fixture.dir.file("recovered")) }
        #expect(error.code == .keyRequired, "\(error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.dir.path).sorted() == before)
        let report = try fixture.store.recover(to: fixture.dir.file("recovered"))
        #expect(report.isComplete && report.unreadable.isEmpty, "\(report.unreadable)")
        #expect(try StoreMeta.read(fixture.copy.layout).isEncrypted)
        #expect(try CompactionTests.raw(fixture.copy) == fixture.raw)
        #expect(try fixture.copy.verify().isSound)
    }
}

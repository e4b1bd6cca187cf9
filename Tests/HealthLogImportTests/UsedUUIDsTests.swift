import Foundation
import HealthLog
import HealthLogTestSupport
import Testing

@testable import HealthLogImport

/// The import's read-only look into the UUID index and the append that trusts it: a record
/// the store holds is left out of the appends, and a vouched append still catches what the
/// vouch does not cover (another writer's append, a UUID twice in one append).
@Suite("Import: UUIDs the store has used")
struct UsedUUIDsTests {
    /// An add line for a step count of `value` with UUID `uuid`.
    static func add(_ uuid: String, value: Int) -> String {
        "{\"op\":\"add\",\"uuid\":\"\(uuid)\",\"type\":\"HKQuantityTypeIdentifierStepCount\",\"start\":\"2024-01-01T08:00:00Z\",\"end\":\"2024-01-01T08:01:00Z\",\"value\":\(value),\"unit\":\"count\"}\n"
    }

    static let live = "11111111-1111-4111-8111-111111111111"
    static let deleted = "22222222-2222-4222-8222-222222222222"
    static let unused = "33333333-3333-4333-8333-333333333333"
    static let other = "44444444-4444-4444-8444-444444444444"

    @Test("The lookup tells a live, a deleted and an unused UUID apart, as of the head it opened at; a store not created yet has used none")
    func states() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        let empty = try #require(try store.usedUUIDs())
        #expect(empty.headSeq == 0)
        #expect(empty.state(of: try #require(SampleUUID(Self.live))) == .unused)
        _ = try store.append(ndjson: Array((Self.add(Self.live, value: 1) + Self.add(Self.deleted, value: 2)).utf8))
        _ = try store.append(ndjson: Array("{\"op\":\"delete\",\"uuid\":\"\(Self.deleted)\"}\n".utf8))
        let used = try #require(try store.usedUUIDs())
        #expect(used.headSeq == 3)
        #expect(used.state(of: try #require(SampleUUID(Self.live))) == .live)
        #expect(used.state(of: try #require(SampleUUID(Self.deleted))) == .deleted)
        #expect(used.state(of: try #require(SampleUUID(Self.unused))) == .unused)
        _ = try store.append(ndjson: Array(Self.add(Self.unused, value: 3).utf8))
        #expect(used.state(of: try #require(SampleUUID(Self.unused))) == .unused, "as of the head it opened at")
        #expect(try store.usedUUIDs()?.state(of: try #require(SampleUUID(Self.unused))) == .live)
    }

    @Test("No lookup when the UUID index does not cover the whole log")
    func indexBehind() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        _ = try store.append(ndjson: Array(Self.add(Self.live, value: 1).utf8))
        let runs = try FileManager.default.contentsOfDirectory(atPath: dir.file("store/uuids")).filter { $0.hasSuffix(".run") }
        #expect(!runs.isEmpty)
        for run in runs { try FileManager.default.removeItem(atPath: dir.file("store/uuids/" + run)) }
        #expect(try store.usedUUIDs() == nil)
    }

    @Test("No lookup when a run of the UUID index fails its checksum: nothing is taken for used or unused on a damaged index")
    func damagedRun() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        _ = try store.append(ndjson: Array(Self.add(Self.live, value: 1).utf8))
        #expect(try store.usedUUIDs()?.state(of: try #require(SampleUUID(Self.live))) == .live)
        let run = try #require(try FileManager.default.contentsOfDirectory(atPath: dir.file("store/uuids")).first { $0.hasSuffix(".run") })
        var bytes = try ByteSurgery.read(dir.file("store/uuids/" + run))
        bytes[bytes.count - 1] ^= 0xFF
        try ByteSurgery.write(bytes, to: dir.file("store/uuids/" + run))
        #expect(try store.usedUUIDs() == nil)
    }

    @Test("A vouched append skips a UUID used earlier in itself, and checks in full once the head moved")
    func vouchedAppend() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        let first = try store.appendImporting(ndjson: Array((Self.add(Self.live, value: 1) + Self.add(Self.live, value: 1)).utf8), addsUnusedAsOfHead: 0)
        #expect(first.added == 1 && first.alreadyPresent == 1)
        // Another writer appended since head 0: the stale vouch is not taken.
        let stale = try store.appendImporting(ndjson: Array((Self.add(Self.live, value: 1) + Self.add(Self.other, value: 4)).utf8), addsUnusedAsOfHead: 0)
        #expect(stale.added == 1 && stale.alreadyPresent == 1)
        let count = try store.usedUUIDs()?.headSeq
        #expect(count == 2)
    }

    @Test("Importing again leaves what the store holds out of the appends and reports as before: live and deleted")
    func importAgain() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = PackageFiles.appleHealthExport("aleksi-applehealth.xml")
        let store = HealthStore(directory: dir.file("store"))
        let first = try store.importExport(at: path)
        var uuids: [SampleUUID] = []
        _ = try store.replay(ReplayRequest(anchor: .beginning)) { line in
            let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]
            if let text = object?["uuid"] as? String, let uuid = SampleUUID(text) { uuids.append(uuid) }
        }
        #expect(uuids.count == first.summary.added)
        _ = try store.delete([uuids[0]])
        let used = try #require(try store.usedUUIDs())
        #expect(used.state(of: uuids[0]) == .deleted)
        #expect(used.state(of: uuids[1]) == .live)
        let again = try store.importExport(at: path)
        #expect(again.summary.added == 0)
        #expect(again.summary.deletedEarlier == 1)
        #expect(again.summary.alreadyPresent == first.summary.added - 1 + first.summary.alreadyPresent)
        #expect(again.typeCounts == first.typeCounts)
        #expect(again.correlationMembersAlsoTopLevel == first.correlationMembersAlsoTopLevel)
    }

    @Test("Thousands of UUIDs from three appends (many of the lookup's kept-sample stretches): every one is found as live or deleted and random others as unused, also by a lookup sharing the runs once their files are gone")
    func manyUUIDs() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        var random = SeededRandom(state: 3)
        func uuid() -> String {
            SampleUUID(high: random.next() & 0xFFFF_FFFF_FFFF_0FFF | 0x4000, low: random.next() & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000).description
        }
        let first = (0..<2_500).map { _ in uuid() }
        let second = (0..<700).map { _ in uuid() }
        _ = try store.append(ndjson: Array(first.enumerated().map { Self.add($0.element, value: $0.offset) }.joined().utf8))
        _ = try store.append(ndjson: Array(second.enumerated().map { Self.add($0.element, value: $0.offset) }.joined().utf8))
        let deleted = Set(stride(from: 0, to: first.count, by: 7).map { first[$0] } + stride(from: 0, to: second.count, by: 5).map { second[$0] })
        _ = try store.append(ndjson: Array(deleted.sorted().map { "{\"op\":\"delete\",\"uuid\":\"\($0)\"}\n" }.joined().utf8))
        let used = try #require(try store.usedUUIDs())
        for text in first + second {
            #expect(used.state(of: try #require(SampleUUID(text))) == (deleted.contains(text) ? .deleted : .live))
        }
        for _ in 0..<300 { #expect(used.state(of: try #require(SampleUUID(uuid()))) == .unused) }
        // A lookup sharing the runs of another uses the runs that one opened: with the run
        // files gone (a lookup of its own then finds no index), it still opens and answers
        // the same, in log order and backwards.
        let uuids = store.directory + "/uuids"
        let runFiles = try FileManager.default.contentsOfDirectory(atPath: uuids).filter { $0.hasSuffix(".run") }
        #expect(!runFiles.isEmpty)
        for name in runFiles { try ByteSurgery.remove(uuids + "/" + name) }
        #expect(try store.usedUUIDs() == nil, "no runs to open")
        let sharing = try #require(try store.usedUUIDs(sharing: used))
        #expect(sharing.headSeq == used.headSeq)
        for text in first + second + (first + second).reversed() {
            #expect(sharing.state(of: try #require(SampleUUID(text))) == (deleted.contains(text) ? .deleted : .live))
        }
    }

    @Test("A lookup sharing another's runs after the head moved opens the runs again and answers as of the new head")
    func sharingAfterAppend() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        _ = try store.append(ndjson: Array(Self.add(Self.live, value: 1).utf8))
        let used = try #require(try store.usedUUIDs())
        _ = try store.append(ndjson: Array(Self.add(Self.other, value: 2).utf8))
        let sharing = try #require(try store.usedUUIDs(sharing: used))
        #expect((used.headSeq, sharing.headSeq) == (1, 2))
        #expect(used.state(of: try #require(SampleUUID(Self.other))) == .unused)
        #expect(sharing.state(of: try #require(SampleUUID(Self.other))) == .live)
        #expect(sharing.state(of: try #require(SampleUUID(Self.live))) == .live)
    }
}

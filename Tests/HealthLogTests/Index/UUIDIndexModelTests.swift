import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// The fingerprint UUID index against a model: random appends of adds and deletes (some
/// deleting samples of the same append), compactions, and UUIDs that share a fingerprint
/// with a stored one. After every step each lookup (the writer's ``UUIDRunSet``, one by one
/// and all together, and the import's ``UUIDRunReader``) answers what a dictionary of every
/// event says: the add and delete sequence numbers of a used UUID, nothing for any other.
@Suite("UUID index against a model")
struct UUIDIndexModelTests {
    /// Small batches and segments, and a chunk of 5 events, so appends spill partial runs,
    /// merge tiers and fingerprint blocks span several batches.
    static var options: StoreOptions {
        var options = StoreOptions()
        options.sync = false
        options.batchBytes = 1_500
        options.segmentBytes = 8_000
        options.appendChunkEvents = 5
        return options
    }

    /// An add of `uuid`.
    static func add(_ uuid: SampleUUID, _ n: Int) -> String {
        #"{"uuid":"\#(uuid)","type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T00:\#(String(format: "%02d", n % 60)):00Z","value":\#(60 + n % 40),"unit":"count/min","source":"Watch"}"#
    }

    /// A delete of `uuid`.
    static func delete(_ uuid: SampleUUID) -> String { #"{"op":"delete","uuid":"\#(uuid)"}"# }

    /// The model: every used UUID's add and delete sequence numbers.
    struct Model {
        var events: [SampleUUID: UUIDRunSet.Found] = [:]
        var live: [SampleUUID] = []
        var head: UInt64 = 0
    }

    @Test("Lookups after random appends, deletes and compactions answer as the model", arguments: [1, 2, 3])
    func randomHistory(_ seed: UInt64) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"), options: Self.options)
        var random = SeededRandom(state: seed * 7_919)
        var model = Model()
        let pairs = FingerprintCollisions.shared
        var n = 0
        for round in 0..<10 {
            var lines: [String] = []
            var fresh: [SampleUUID] = round == 0 ? pairs.map(\.0) : []
            fresh += (0..<random.int(1...70)).map { _ in SampleUUID(high: random.next(), low: random.next()) }
            for uuid in fresh {
                n += 1
                lines.append(Self.add(uuid, n))
                model.head += 1
                model.events[uuid] = UUIDRunSet.Found(addSeq: model.head, deleteSeq: 0)
                model.live.append(uuid)
                // Now and then a delete of a live sample, of this append or an earlier one.
                if random.chance(25), !model.live.isEmpty {
                    let gone = model.live.remove(at: random.int(0...model.live.count - 1))
                    lines.append(Self.delete(gone))
                    model.head += 1
                    model.events[gone]!.deleteSeq = model.head
                }
            }
            let summary = try store.append(ndjson: Array(lines.map { $0 + "\n" }.joined().utf8))
            #expect(summary.anchor.seq == model.head)
            if round % 3 == 2 {
                _ = try store.compact(horizon: .anchor(summary.anchor))
            }
            try Self.check(store, model, absent: pairs.map(\.1), random: &random)
        }
        // A UUID sharing a fingerprint with a stored one is unused: an add of it is taken.
        let partner = pairs[0].1
        let summary = try store.append(ndjson: Array((Self.add(partner, 1) + "\n").utf8))
        model.head += 1
        #expect(summary.anchor.seq == model.head)
        model.events[partner] = UUIDRunSet.Found(addSeq: model.head, deleteSeq: 0)
        try Self.check(store, model, absent: pairs.dropFirst().map(\.1), random: &random)
        // Used UUIDs, live, deleted or compacted, are refused.
        for used in [pairs[0].0, partner] + model.events.keys.filter({ model.events[$0]!.deleteSeq != 0 }).prefix(5) {
            #expect(throws: HealthLogError.self) { try store.append(ndjson: Array((Self.add(used, 2) + "\n").utf8)) }
        }
        #expect(try store.verify().isSound)
    }

    /// Checks every lookup of `store` against `model`, and that the UUIDs `absent` and some
    /// random ones are found nowhere.
    static func check(_ store: HealthStore, _ model: Model, absent: [SampleUUID], random: inout SeededRandom) throws {
        let layout = StoreLayout(directory: store.directory)
        let snapshot = try LogSnapshot(layout)
        #expect(snapshot.headSeq == model.head)
        let runs = try UUIDRunSet(layout, snapshot: snapshot, cipher: nil)
        #expect(runs.coveredSeq == model.head)
        let reader = try #require(UUIDRunReader(layout, snapshot: snapshot))
        let unused = absent + (0..<50).map { _ in SampleUUID(high: random.next(), low: random.next()) }
        let logged = LoggedUUIDs(snapshot)
        for (uuid, found) in model.events {
            #expect(try runs.lookup(uuid) == found, "\(uuid)")
            #expect(try reader.isDeleted(uuid) == (found.deleteSeq != 0))
            // With room for one candidate on the stack, a UUID of several events (an add and
            // its delete, a fingerprint shared) takes the heap's room: the same answer.
            #expect(try UUIDRunSet.search(uuid, in: runs.runs, logged, onStack: 1) == found, "\(uuid)")
        }
        for uuid in unused {
            #expect(try runs.lookup(uuid) == nil, "\(uuid)")
            #expect(try reader.isDeleted(uuid) == nil)
        }
        var all = Array(model.events.keys) + unused
        all.shuffle(using: &random)
        #expect(try runs.lookup(all: all) == all.map { model.events[$0] })
        // A compaction's lookups: each deleted UUID with its delete known, the add still found
        // (also where the delete shares its block with another event of the fingerprint).
        var deleted = model.events.filter { $0.value.deleteSeq != 0 }.map { ($0.key, $0.value) }
        deleted.shuffle(using: &random)
        #expect(!deleted.isEmpty)
        let adds = try runs.lookup(all: deleted.map(\.0), known: deleted.map(\.1.deleteSeq)).map { $0?.addSeq }
        #expect(adds == deleted.map(\.1.addSeq))
        for (uuid, found) in deleted {
            #expect(try UUIDRunSet.search(uuid, in: runs.runs, logged, skipping: found.deleteSeq, onStack: 1)?.addSeq == found.addSeq, "\(uuid)")
        }
        // In log order (a re-import's), with now and then an unused UUID between, through a
        // reader of its own and one sharing the first one's runs: opened while the runs'
        // directory is moved away (a reader of its own then opens none), it uses those.
        let inLogOrder = model.events.sorted { $0.value.addSeq < $1.value.addSeq }
        try FileManager.default.moveItem(atPath: layout.directory + "/uuids", toPath: layout.directory + "/uuids-away")
        #expect(UUIDRunReader(layout, snapshot: try LogSnapshot(layout)) == nil)
        let sharing = UUIDRunReader(layout, snapshot: try LogSnapshot(layout), sharing: reader)
        try FileManager.default.moveItem(atPath: layout.directory + "/uuids-away", toPath: layout.directory + "/uuids")
        let shared = try #require(sharing)
        let ordered = try #require(UUIDRunReader(layout, snapshot: try LogSnapshot(layout)))
        let writer = try UUIDRunSet(layout, snapshot: try LogSnapshot(layout), cipher: nil)
        for (k, (uuid, found)) in inLogOrder.enumerated() {
            #expect(try writer.lookup(uuid) == found, "\(uuid)")
            #expect(try ordered.isDeleted(uuid) == (found.deleteSeq != 0), "\(uuid)")
            #expect(try shared.isDeleted(uuid) == (found.deleteSeq != 0), "\(uuid)")
            if k % 7 == 3 {
                #expect(try writer.lookup(unused[k % unused.count]) == nil)
                #expect(try ordered.isDeleted(unused[k % unused.count]) == nil)
            }
        }
    }
}

import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// Replays over many batches (decoded ahead on a second thread) deliver what HealthKit's view
/// asks, in order, with the limit and the errors of a replay reading one batch at a time.
@Suite("Replay pipeline")
struct ReplayPipelineTests {
    /// A store of many small batches: heart rates and step counts, every seventh sample
    /// deleted by a later append, some UUIDs written in lower case.
    struct Fixture {
        let dir: TemporaryDirectory
        let store: HealthStore
        /// Every event as appended: (seq, uuid, isDelete), in sequence order.
        var events: [(seq: UInt64, uuid: String, isDelete: Bool)] = []

        /// The store; with `segmentBytes` small, its early segments are sealed and read from
        /// their sidecars.
        init(segmentBytes: Int = FormatConstants.defaultSegmentBytes) throws {
            dir = try TemporaryDirectory()
            var options = StoreOptions()
            options.batchBytes = 2000
            options.segmentBytes = segmentBytes
            store = HealthStore(directory: dir.file("store"), options: options)
            var seq: UInt64 = 0
            var added: [String] = []
            for round in 0..<4 {
                var lines: [String] = []
                for k in 0..<150 {
                    let n = round * 150 + k
                    let uuid = String(format: "%08X-0000-4000-8000-%012X", UInt32(truncatingIfNeeded: n &* 2_654_435_761), n)
                    let written = n % 5 == 0 ? uuid.lowercased() : uuid
                    let type = n % 3 == 0 ? "StepCount" : "HeartRate"
                    let unit = n % 3 == 0 ? "count" : "count/min"
                    lines.append(#"{"uuid":"\#(written)","type":"\#(type)","start":"2024-01-01T00:00:\#(String(format: "%02d", n % 60))Z","value":\#(60 + n % 40),"unit":"\#(unit)"}"#)
                    seq += 1
                    events.append((seq, uuid, false))
                    added.append(uuid)
                }
                // Deletes of samples from this round and the ones before.
                for (i, uuid) in added.enumerated() where i % 7 == round {
                    lines.append(#"{"op":"delete","uuid":"\#(uuid)"}"#)
                    seq += 1
                    events.append((seq, uuid, true))
                }
                added.removeAll { uuid in events.contains { $0.isDelete && $0.uuid == uuid } }
                _ = try store.append(ndjson: Array((lines.joined(separator: "\n") + "\n").utf8))
            }
        }

        /// HealthKit's view after `anchor`: every event after it, leaving out the adds of
        /// samples a delete after it removed.
        func expected(after anchor: UInt64, limit: Int = 0, types: Set<String> = []) throws -> [UInt64] {
            let deletedLater = Set(events.filter { $0.isDelete && $0.seq > anchor }.map(\.uuid))
            let typeOf = types.isEmpty ? [:] : Dictionary(uniqueKeysWithValues: try raw().map { ($0.seq, $0.type) })
            var out: [UInt64] = []
            for event in events where event.seq > anchor && (event.isDelete || !deletedLater.contains(event.uuid)) {
                if !types.isEmpty, !types.contains(typeOf[event.seq] ?? "") { continue }
                out.append(event.seq)
                if limit > 0, out.count == limit { break }
            }
            return out
        }

        /// Every stored event with its type, from a raw replay.
        func raw() throws -> [(seq: UInt64, type: String)] {
            var out: [(UInt64, String)] = []
            _ = try store.replay(ReplayRequest(raw: true)) { line in
                let object = try JSONSerialization.jsonObject(with: Data(line)) as! [String: Any]
                out.append(((object["seq"] as! NSNumber).uint64Value, object["type"] as! String))
            }
            return out
        }

        /// Flips a byte of the first add group's frame of the batch in the middle of the log;
        /// returns that batch and group.
        func damageMiddleBatch() throws -> (batch: CorruptionFixture.Batch, group: Int) {
            let batches = try CorruptionFixture.batches(in: dir.file("store"))
            let victim = batches[batches.count / 2]
            let group = try #require(victim.header.groups.indices.first { !victim.header.groups[$0].isDelete })
            try ByteSurgery.flip(victim.path, at: victim.groupOffsets[group] + 12)
            return (victim, group)
        }

        /// The sequence numbers a replay delivers, with its outcome.
        func replay(_ request: ReplayRequest) throws -> ([UInt64], ReplayOutcome) {
            try CorruptionFixture.replayedSeqs(store, request)
        }
    }

    @Test("A replay over many batches hides the adds of samples deleted later, upper or lower case, and keeps the order")
    func hidesDeletedAcrossBatches() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let snapshot = try LogSnapshot(StoreLayout(directory: fixture.dir.file("store")))
        #expect(try snapshot.allBatches().count > 20)
        for anchor: UInt64 in [0, 1, 149, 300, 500] {
            let (seqs, _) = try fixture.replay(ReplayRequest(anchor: QueryAnchor(seq: anchor, storeTag: snapshot.meta.storeID.tag)))
            #expect(seqs == (try fixture.expected(after: anchor)), "from \(anchor)")
        }
        let (raw, _) = try fixture.replay(ReplayRequest(raw: true))
        #expect(raw == fixture.events.map(\.seq))
    }

    @Test("Pages of a limited replay, each from the last one's anchor, add up to the whole replay, also of one type")
    func pagesAddUp() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        for types: Set<String> in [[], ["HKQuantityTypeIdentifierHeartRate"]] {
            var anchor = QueryAnchor.beginning
            var pages: [UInt64] = []
            while true {
                let (page, outcome) = try fixture.replay(ReplayRequest(anchor: anchor, types: types, limit: 37))
                #expect(page == (try fixture.expected(after: anchor.seq, limit: 37, types: types)))
                pages += page
                anchor = outcome.newAnchor
                if page.count < 37 { break }
            }
            #expect(pages == (try fixture.expected(after: 0, types: types)))
        }
    }

    @Test("Pages over sealed segments, whose first batches fall short of the limit when later deletes hide adds, add up to the whole replay")
    func pagesOverSealedSegments() throws {
        let fixture = try Fixture(segmentBytes: 20_000)
        defer { fixture.dir.remove() }
        let layout = StoreLayout(directory: fixture.dir.file("store"))
        #expect(try LogSnapshot(layout).prefixSegmentCount >= 3, "sealed segments are taken on their index's word")
        #expect(DeletedAddIndex.open(layout, head: try LogSnapshot(layout).headSeq, cipher: nil) != nil, "the deleted adds are looked up, not read")
        for types: Set<String> in [[], ["HKQuantityTypeIdentifierHeartRate"]] {
            for limit in [1, 37, 160] {
                var anchor = QueryAnchor.beginning
                var pages: [UInt64] = []
                while true {
                    let (page, outcome) = try fixture.replay(ReplayRequest(anchor: anchor, types: types, limit: limit))
                    #expect(page == (try fixture.expected(after: anchor.seq, limit: limit, types: types)), "limit \(limit) from \(anchor.seq)")
                    pages += page
                    anchor = outcome.newAnchor
                    if page.count < limit { break }
                }
                #expect(pages == (try fixture.expected(after: 0, types: types)), "limit \(limit)")
                let (raw, _) = try fixture.replay(ReplayRequest(types: types, limit: limit, raw: true))
                #expect(raw == Array(try fixture.raw().filter { types.isEmpty || types.contains($0.type) }.map(\.seq).prefix(limit)), "raw, limit \(limit)")
            }
        }
    }

    @Test("A damaged frame in a later batch fails the replay naming its place, after the batches before it were delivered")
    func damageInALaterBatch() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let (victim, group) = try fixture.damageMiddleBatch()
        var delivered: [UInt64] = []
        #expect {
            _ = try fixture.store.replay(ReplayRequest(raw: true)) { line in
                let object = try JSONSerialization.jsonObject(with: Data(line)) as! [String: Any]
                delivered.append((object["seq"] as! NSNumber).uint64Value)
            }
        } throws: { error in
            "\(error)".contains("segments/") && "\(error)".contains("at byte \(victim.groupOffsets[group])")
                && "\(error)".contains("frame checksum mismatch")
        }
        #expect(delivered == Array(1..<victim.header.firstSeq))
    }

    /// Every batch of the fixture's store with all its groups, as a replay from 0 reads them.
    static func wholeLog(_ snapshot: LogSnapshot) throws -> [(batch: BatchRef, groups: [Int])] {
        try snapshot.allBatches().map { ($0, Array($0.header.groups.indices)) }
    }

    /// What a pipeline delivers: each batch's offset and its lines (sequence number, hidden),
    /// until the end or the first error, which is returned too.
    static func drain(_ pipeline: ReplayPipeline) -> (batches: [(offset: Int, lines: [(UInt64, Bool)])], error: (any Error)?) {
        var batches: [(Int, [(UInt64, Bool)])] = []
        do {
            while let slot = try pipeline.next() {
                batches.append((slot.batch.offset, slot.lines.lines.map { ($0.seq, $0.isHidden) }))
            }
        } catch {
            return (batches, error)
        }
        return (batches, nil)
    }

    @Test("Two threads decoding a long replay, each claiming the next batch, deliver every batch's lines in order, as one thread does")
    func bothThreadsDecode() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let snapshot = try LogSnapshot(StoreLayout(directory: fixture.dir.file("store")))
        let work = try Self.wholeLog(snapshot)
        #expect(work.count > 20)
        var deleted = DeletedSamples(capacity: fixture.events.count)
        for event in fixture.events where event.isDelete { deleted.insert(try #require(SampleUUID(event.uuid))) }
        var outcomes: [[(offset: Int, lines: [(UInt64, Bool)])]] = []
        for threadFrom in [0, Int.max] {
            let pipeline = try ReplayPipeline(snapshot, work, limitEnd: nil, threadFrom: threadFrom)
            #expect(pipeline.isThreaded == (threadFrom == 0))
            pipeline.publish(deleted)
            let (batches, error) = Self.drain(pipeline)
            #expect(error == nil)
            outcomes.append(batches)
        }
        let (threaded, inPlace) = (outcomes[0], outcomes[1])
        #expect(threaded.map(\.offset) == work.map(\.batch.offset))
        #expect(threaded.count == inPlace.count)
        for (a, b) in zip(threaded, inPlace) {
            #expect(a.offset == b.offset && a.lines.map(\.0) == b.lines.map(\.0) && a.lines.map(\.1) == b.lines.map(\.1), "batch at \(a.offset)")
        }
        #expect(inPlace.flatMap(\.lines).contains { $0.1 }, "some adds are hidden")
        #expect(inPlace.flatMap(\.lines).map(\.0) == fixture.events.map(\.seq))
    }

    @Test("With two threads decoding, a damaged frame is thrown when its batch is taken, after every batch before it")
    func damageWithTwoThreads() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let path = fixture.dir.file("store")
        let (victim, group) = try fixture.damageMiddleBatch()
        let snapshot = try LogSnapshot(StoreLayout(directory: path))
        let work = try Self.wholeLog(snapshot)
        let pipeline = try ReplayPipeline(snapshot, work, limitEnd: nil, threadFrom: 0)
        #expect(pipeline.isThreaded)
        pipeline.publish(DeletedSamples(capacity: 0))
        let (delivered, error) = Self.drain(pipeline)
        #expect(delivered.flatMap(\.lines).map(\.0) == Array(1..<victim.header.firstSeq))
        let message = "\(error.map { "\($0)" } ?? "")"
        #expect(message.contains("at byte \(victim.groupOffsets[group])") && message.contains("frame checksum mismatch"), "\(message)")
    }

    @Test("A pipeline given up midway stops its decoder thread, and a limited one decodes past its expected end when taken")
    func givenUpAndExtended() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let snapshot = try LogSnapshot(StoreLayout(directory: fixture.dir.file("store")))
        let work = try Self.wholeLog(snapshot)
        for _ in 0..<20 {
            let pipeline = try ReplayPipeline(snapshot, work, limitEnd: nil, threadFrom: 0)
            pipeline.publish(DeletedSamples(capacity: 0))
            #expect(try pipeline.next()?.batch.offset == work[0].batch.offset)
        }
        let limited = try ReplayPipeline(snapshot, Array(work.prefix(4)), limitEnd: 2, threadFrom: 0)
        #expect(limited.isThreaded)
        limited.extend(Array(work.dropFirst(4)))
        limited.publish(DeletedSamples(capacity: 0))
        let (batches, error) = Self.drain(limited)
        #expect(error == nil)
        #expect(batches.map(\.offset) == work.map(\.batch.offset))
    }

    @Test("The deleted-sample filter finds a UUID whatever the case of its text, and not another with the same first digits")
    func filterReadsTheText() throws {
        let uuid = try #require(SampleUUID("1A2B3C4D-0000-4000-8000-00000000000A"))
        var deleted = DeletedSamples(capacity: 1)
        deleted.insert(uuid)
        for (text, isIn) in [
            ("1A2B3C4D-0000-4000-8000-00000000000A", true), ("1a2b3c4d-0000-4000-8000-00000000000a", true),
            ("1A2B3C4D-0000-4000-8000-00000000000B", false), ("2A2B3C4D-0000-4000-8000-00000000000A", false),
        ] {
            let line = Array(#"{"seq":12,"op":"add","uuid":"\#(text)","type":"HKQuantityTypeIdentifierHeartRate"}"#.utf8) + [10]
            let found = line.withUnsafeBytes { raw in
                deleted.contains(BatchLines.Line(seq: 12, start: 0, end: line.count, isDelete: false), in: raw)
            }
            #expect(found == isIn, "\(text)")
        }
    }
}

import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// `compact` and anchor rule 8 (expiry) through the library: what is dropped, which anchors
/// expire, UUIDs never reused, and a reader whose snapshot began before the compaction.
@Suite("Compaction")
struct CompactionTests {
    /// Small segments and batches, so the log spans many segments and only some hold a delete.
    static var options: StoreOptions {
        var options = StoreOptions()
        options.segmentBytes = 4_000
        options.batchBytes = 1_500
        return options
    }

    /// The UUID of sample `n`.
    static func uuid(_ n: Int) -> String {
        let digits = String(n)
        return "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - digits.count) + digits
    }

    /// Adds of samples `range` (heart rates and steps), then deletes of `deleting`.
    static func lines(_ range: ClosedRange<Int>, deleting: [Int] = []) -> [UInt8] {
        var text = ""
        for n in range {
            let type = n % 2 == 0 ? "HKQuantityTypeIdentifierHeartRate\",\"unit\":\"count/min" : "HKQuantityTypeIdentifierStepCount\",\"unit\":\"count"
            text += #"{"uuid":"\#(uuid(n))","type":"\#(type)","start":"2024-03-01T08:00:00Z","value":\#(n)}"# + "\n"
        }
        for n in deleting { text += #"{"op":"delete","uuid":"\#(uuid(n))"}"# + "\n" }
        return Array(text.utf8)
    }

    /// Every line `replay --raw` delivers from `anchor`, through `snapshot` when given.
    static func raw(_ store: HealthStore, from anchor: QueryAnchor = .beginning) throws -> [String] {
        var out: [String] = []
        _ = try store.replay(ReplayRequest(anchor: anchor, raw: true)) { out.append(String(decoding: $0, as: UTF8.self)) }
        return out
    }

    @Test("Compaction drops deleted samples with their deletes, keeps every other line byte for byte, and leaves the head, the next number and lz4-readable segments")
    func dropsDeletedHistory() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"), options: Self.options)
        _ = try store.append(ndjson: Self.lines(1...200))
        let horizon = try store.append(ndjson: Self.lines(201...210, deleting: [3, 50, 205])).anchor
        _ = try store.append(ndjson: Self.lines(211...220, deleting: [100]))
        let before = try Self.raw(store)
        let report = try store.compact(horizon: .anchor(horizon))
        #expect(report.generation == 1 && report.horizonSeq == horizon.seq)
        #expect(report.deletesDropped == 3 && report.eventsDropped == 6)
        #expect(report.segmentsRewritten >= 2 && report.segmentsRewritten < report.segments)
        #expect(report.bytesAfter < report.bytesBefore)
        let gone = [3, 50, 205].map { Self.uuid($0) }
        #expect(try Self.raw(store) == before.filter { line in !gone.contains { line.contains($0) } })
        #expect(try store.headAnchor().seq == 224)
        let check = try store.verify()
        #expect(check.isSound, "\(check.problems)")
        #expect(try store.stats().events == 224 - 6 && check.events == 224 - 6)
        let next = try store.append(ndjson: Self.lines(300...300))
        #expect(next.anchor.seq == 225)
        let again = try store.compact(horizon: .anchor(horizon))
        #expect(again.generation == 0 && again.eventsDropped == 0, "nothing new below the same horizon")
    }

    @Test("A plan past its memory (stretches of 4 dropped events in a scratch file, sealed for an encrypted store) drops exactly what a plan in memory drops, and the compacted UUIDs stay refused after a reindex", arguments: [false, true])
    func planInStretches(_ encrypted: Bool) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var small = Self.options
        small.compactionResidentKeys = 4
        let stores = try [Self.options, small].enumerated().map { k, options in
            encrypted ? try EncryptedSegmentTests.makeStore(dir.file("store\(k)"), options: options) : HealthStore(directory: dir.file("store\(k)"), options: options)
        }
        let deleted = Array(stride(from: 3, through: 290, by: 7))
        var reports: [CompactReport] = []
        for store in stores {
            _ = try store.append(ndjson: Self.lines(1...300))
            _ = try store.append(ndjson: Self.lines(301...320, deleting: deleted))
            reports.append(try store.compact(horizon: .anchor(try store.headAnchor())))
        }
        #expect(reports[0].deletesDropped == deleted.count && reports[0].eventsDropped == 2 * deleted.count)
        #expect(reports[1].deletesDropped == reports[0].deletesDropped && reports[1].eventsDropped == reports[0].eventsDropped)
        #expect(reports[1].segmentsRewritten == reports[0].segmentsRewritten && reports[1].bytesAfter == reports[0].bytesAfter)
        #expect(try Self.raw(stores[1]) == Self.raw(stores[0]))
        #expect(try stores[1].verify().isSound)
        _ = try stores[1].reindex()
        let again = #expect(throws: HealthLogError.self) { try stores[1].append(ndjson: Self.lines(deleted[5]...deleted[5])) }
        #expect(again?.code == .badInput && again?.message.contains("a UUID is used once") == true)
    }

    @Test("Rule 8: an anchor from before the compaction below its horizon is expired with the advice to resync from 0; at or above it, from after it, or 0, it works")
    func anchorsExpire() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"), options: Self.options)
        _ = try store.append(ndjson: Self.lines(1...100))
        let old = try store.append(ndjson: Self.lines(101...110, deleting: [7])).anchor
        let oldLow = QueryAnchor(seq: 40, storeTag: old.storeTag)
        _ = try store.compact(horizon: .anchor(old))
        let expired = #expect(throws: HealthLogError.self) { try Self.raw(store, from: oldLow) }
        #expect(expired?.code == .anchorRefused)
        #expect(expired?.message.contains("expired: compaction of") == true)
        #expect(expired?.message.contains("dropped deleted history up to sequence 111; resync from 0") == true)
        #expect(throws: HealthLogError.self) { try Self.raw(store, from: QueryAnchor(fromValue: 40)) }
        #expect(try Self.raw(store, from: old).isEmpty, "an old anchor at the horizon lost nothing")
        var page: [UInt64] = []
        let resync = try store.replay(ReplayRequest(anchor: .beginning, limit: 5, raw: true)) { _ in page.append(0) }
        #expect(resync.newAnchor.seq == 5 && resync.newAnchor.generation == 1)
        let token = try QueryAnchor(token: resync.newAnchor.token)
        #expect(token == resync.newAnchor, "a version-2 token round-trips")
        #expect(try Self.raw(store, from: token).count == 110 + 1 - 2 - 5, "a resync below the horizon stays valid")
        let after = try store.headAnchor()
        _ = try store.append(ndjson: Self.lines(120...121))
        #expect(try Self.raw(store, from: after).count == 2)
    }

    @Test("A compacted UUID is refused when added again, also after every index is rebuilt from the log")
    func compactedUUIDsStayUsed() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"), options: Self.options)
        let horizon = try store.append(ndjson: Self.lines(1...50, deleting: [9])).anchor
        _ = try store.compact(horizon: .anchor(horizon))
        for round in 0..<2 {
            let reused = #expect(throws: HealthLogError.self) { try store.append(ndjson: Self.lines(9...9)) }
            #expect(reused?.code == .badInput && reused?.message.contains("a UUID is used once") == true, "round \(round): \(reused?.message ?? "")")
            let deleted = #expect(throws: HealthLogError.self) { try store.append(ndjson: Array(#"{"op":"delete","uuid":"\#(Self.uuid(9))"}"#.utf8)) }
            #expect(deleted?.code == .badInput, "round \(round)")
            _ = try store.reindex()
        }
        #expect(try store.verify().isSound)
    }

    /// The superseded files go with the next append after the reader let go; a few more
    /// appends are allowed, because the tests run in one process beside tests that spawn
    /// children, and a child between `fork` and `exec` holds a copy of the reader's locked
    /// descriptor (an `flock` belongs to the open file, not the process) until it execs.
    @Test("A reader whose snapshot began before the compaction reads the old log exactly after it committed; the superseded files go once no snapshot is open")
    func readerDuringCompaction() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"), options: Self.options)
        _ = try store.append(ndjson: Self.lines(1...300))
        let horizon = try store.append(ndjson: Self.lines(301...302, deleting: Array(stride(from: 1, through: 300, by: 10)))).anchor
        let old = try Self.raw(store)
        let layout = StoreLayout(directory: dir.file("store"))
        var reader: LogSnapshot? = try LogSnapshot(layout)
        let report = try store.compact(horizon: .anchor(horizon))
        #expect(report.filesWaitingForReaders == report.segmentsRewritten && report.segmentsRewritten > 0)
        var seen: [String] = []
        _ = try Replayer(snapshot: reader!, request: ReplayRequest(anchor: .beginning, raw: true)).run { seen.append(String(decoding: $0.bytes, as: UTF8.self)) }
        #expect(seen == old, "the old snapshot reads the old log")
        let new = try Self.raw(store)
        #expect(new.count == old.count - 60)
        reader = nil
        var names: [String] = []
        var appended = 0
        for seq in 400..<410 {
            _ = try store.append(ndjson: Self.lines(seq...seq))
            appended += 1
            names = try FileManager.default.contentsOfDirectory(atPath: layout.segments).filter { $0.hasSuffix(".log.lz4") }
            if Set(names.map { $0.prefix(20) }).count == names.count { break }
            usleep(50_000)
        }
        let bases = names.map { $0.prefix(20) }
        #expect(Set(bases).count == bases.count, "one generation per segment is left: \(names.sorted())")
        #expect(try Self.raw(store).dropLast(appended) == new)
    }

    /// The HealthKit-view lines after `anchor`, through a fresh snapshot.
    static func view(_ store: HealthStore, from anchor: QueryAnchor) throws -> [String] {
        var out: [String] = []
        _ = try store.replay(ReplayRequest(anchor: anchor)) { out.append(String(decoding: $0, as: UTF8.self)) }
        return out
    }

    @Test("Seeded: random appends, deletes and compactions; the log loses exactly the deleted samples below each horizon, older anchors below it expire, the others replay as before", arguments: [1, 2, 3] as [UInt64])
    func seededCompactions(_ seed: UInt64) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var random = SeededRandom(state: seed)
        let store = HealthStore(directory: dir.file("store"), options: Self.options)
        var live: [Int] = []
        var next = 1
        var anchors: [QueryAnchor] = [.beginning]
        var committed = 0
        for _ in 0..<12 {
            let adds = random.int(1...30)
            var deleting: [Int] = []
            for _ in 0..<random.int(0...min(5, live.count)) { deleting.append(live.remove(at: random.int(0...live.count - 1))) }
            let appended = try store.append(ndjson: Self.lines(next...(next + adds - 1), deleting: deleting))
            live += Array(next...(next + adds - 1))
            next += adds
            anchors.append(appended.anchor)
            guard random.chance(40) else { continue }
            let horizon = random.pick(anchors)
            let oldRaw = try Self.raw(store)
            let oldViews = try anchors.map { try Self.view(store, from: $0) }
            let report = try store.compact(horizon: .anchor(horizon))
            // Every delete at or before the horizon still in the log goes, with its sample.
            let dropped = Set(oldRaw.filter { $0.contains(#""op":"delete""#) && UInt64($0.dropFirst(7).prefix(while: \.isNumber))! <= horizon.seq }
                .map { String($0.split(separator: "\"")[9]) })
            func isKept(_ line: String) -> Bool { !dropped.contains { line.contains($0) } }
            #expect(report.deletesDropped == dropped.count && (report.generation > 0) == !dropped.isEmpty)
            #expect(try Self.raw(store) == oldRaw.filter(isKept))
            for (anchor, oldView) in zip(anchors, oldViews) {
                if report.generation > 0, anchor.seq > 0, anchor.seq < horizon.seq {
                    let refused = #expect(throws: HealthLogError.self) { try Self.view(store, from: anchor) }
                    #expect(refused?.code == .anchorRefused)
                } else {
                    // From 0 the dropped samples showed only as deleted objects, which are gone;
                    // from at or above the horizon nothing changed.
                    #expect(try Self.view(store, from: anchor) == oldView.filter(isKept))
                }
            }
            anchors = [.beginning, try store.headAnchor()]
            let check = try store.verify()
            #expect(check.isSound, "\(check.problems)")
            if report.generation > 0 { committed += 1 }
        }
        #expect(committed >= 1, "the seed compacted something")
    }

    @Test("A compacted store whose compactions file is lost is damage for readers and writers, and no writer removes the compacted segments")
    func lostCompactionsFile() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"), options: Self.options)
        _ = try store.append(ndjson: Self.lines(1...100))
        let horizon = try store.append(ndjson: Self.lines(101...101, deleting: [1, 99])).anchor
        _ = try store.compact(horizon: .anchor(horizon))
        let segments = dir.file("store/segments")
        let before = try FileManager.default.contentsOfDirectory(atPath: segments).sorted()
        try FileManager.default.removeItem(atPath: dir.file("store/compactions"))
        let read = #expect(throws: HealthLogError.self) { try Self.raw(store) }
        #expect(read?.code == .corrupt, "\(read?.message ?? "")")
        let write = #expect(throws: HealthLogError.self) { try store.append(ndjson: Self.lines(200...200)) }
        #expect(write?.code == .corrupt, "\(write?.message ?? "")")
        #expect(try FileManager.default.contentsOfDirectory(atPath: segments).sorted() == before)
    }

    @Test("A backup of a compacted store lists the compactions record; the store restored from it expires the same anchors and still refuses compacted UUIDs")
    func backupCarriesCompactions() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"), options: Self.options)
        let horizon = try store.append(ndjson: Self.lines(1...60, deleting: [5, 30])).anchor
        _ = try store.backup(to: dir.file("backup"))
        _ = try store.compact(horizon: .anchor(horizon))
        _ = try store.backup(to: dir.file("backup"))
        let copied = try FileManager.default.contentsOfDirectory(atPath: dir.file("backup/segments")).filter { $0.hasSuffix(".log.lz4") }.map { $0.prefix(20) }
        #expect(Set(copied).count == copied.count, "the second backup replaced the superseded segments")
        let manifest = String(decoding: try #require(FileManager.default.contents(atPath: dir.file("backup/manifest"))), as: UTF8.self)
        #expect(manifest.contains("\nfile compactions "), "\(manifest)")
        let restored = HealthStore(directory: dir.file("restored"), options: Self.options)
        _ = try restored.restore(from: dir.file("backup"))
        #expect(try Self.raw(restored) == Self.raw(store))
        let expired = #expect(throws: HealthLogError.self) { try Self.raw(restored, from: QueryAnchor(seq: 10, storeTag: horizon.storeTag)) }
        #expect(expired?.code == .anchorRefused && expired?.message.contains("expired") == true, "\(expired?.message ?? "")")
        let reused = #expect(throws: HealthLogError.self) { try restored.append(ndjson: Self.lines(30...30)) }
        #expect(reused?.code == .badInput)
        #expect(try restored.verify().isSound)
    }

    @Test("recover of a compacted store reads the committed generation, not the superseded files a reader keeps, and carries the compactions record")
    func recoverCompactedStore() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"), options: Self.options)
        _ = try store.append(ndjson: Self.lines(1...120))
        let horizon = try store.append(ndjson: Self.lines(121...121, deleting: [3, 60, 110])).anchor
        let reader = try LogSnapshot(StoreLayout(directory: dir.file("store")))
        let report = try store.compact(horizon: .anchor(horizon))
        #expect(report.filesWaitingForReaders > 0)
        let recovered = try store.recover(to: dir.file("recovered"))
        withExtendedLifetime(reader) {}
        #expect(recovered.lost.isEmpty && recovered.duplicates == 0, "\(recovered)")
        #expect(recovered.events == 124 - 6, "the 3 dropped adds and their 3 deletes are not counted as recovered")
        let copy = HealthStore(directory: dir.file("recovered"), options: Self.options)
        #expect(try Self.raw(copy) == Self.raw(store))
        #expect(throws: HealthLogError.self) { try Self.raw(copy, from: QueryAnchor(seq: 10, storeTag: horizon.storeTag)) }
        #expect(throws: HealthLogError.self) { try copy.append(ndjson: Self.lines(60...60)) }
        #expect(try copy.verify().isSound)
    }

    @Test("A horizon date takes the deletes appended before it; a date before every append drops nothing and commits nothing")
    func dateHorizon() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"), options: Self.options)
        _ = try store.append(ndjson: Self.lines(1...20, deleting: [2, 4]))
        let none = try store.compact(horizon: .date(Timestamp(commandLine: "2001-01-01")!))
        #expect(none.generation == 0 && none.horizonSeq == 0)
        #expect(!FileManager.default.fileExists(atPath: dir.file("store/compactions")))
        let all = try store.compact(horizon: .date(Timestamp(commandLine: "2100-01-01")!))
        #expect(all.generation == 1 && all.deletesDropped == 2 && all.horizonSeq == 22)
        #expect(try Self.raw(store).count == 18)
    }
}

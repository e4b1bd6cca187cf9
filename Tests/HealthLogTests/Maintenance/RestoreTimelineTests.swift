import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// `restore` and anchor rule 7: a new timeline of the same store, anchors before the
/// backup still valid, anchors into discarded history refused, numbers never reused.
@Suite("Restore timelines")
struct RestoreTimelineTests {
    @Test("Over the store with force: anchors at or before the backup work, anchors into the discarded 101…150 are refused, also after new appends pass them")
    func ruleSeven() throws {
        let fixture = try RestoreFixture()
        defer { fixture.dir.remove() }
        let tag = try fixture.store.headAnchor().storeTag
        let discardedAnchor = QueryAnchor(seq: 120, storeTag: tag)
        let report = try fixture.store.restore(from: fixture.backup, force: true)
        #expect(report.keptSeq == 100 && report.firstSeq == 151 && report.replacedStore)
        #expect(try fixture.store.headAnchor().seq == 100)
        #expect(try RestoreFixture.seqs(fixture.store, from: QueryAnchor(seq: 98, storeTag: tag)) == [99, 100])
        #expect(try RestoreFixture.seqs(fixture.store, from: .beginning).count == 100)
        let refused = #expect(throws: HealthLogError.self) { try RestoreFixture.seqs(fixture.store, from: discardedAnchor) }
        #expect(refused?.code == .anchorRefused)
        #expect(refused?.message.contains("names history discarded by the restore of") == true)
        #expect(refused?.message.contains("(sequence 101…150); resync from 0 or from an anchor at or before 100") == true)

        let appended = try fixture.store.append(ndjson: RestoreFixture.lines(30, from: 200))
        #expect(appended.anchor.seq == 180)
        #expect(try RestoreFixture.seqs(fixture.store, from: QueryAnchor(seq: 99, storeTag: tag)) == [100] + Array(151...180))
        #expect(try RestoreFixture.seqs(fixture.store, from: QueryAnchor(seq: 160, storeTag: tag)) == Array(161...180))
        #expect(throws: HealthLogError.self) { try RestoreFixture.seqs(fixture.store, from: discardedAnchor) }
        #expect(throws: HealthLogError.self) { try RestoreFixture.seqs(fixture.store, from: QueryAnchor(fromValue: 150)) }
        let check = try fixture.store.verify()
        #expect(check.isSound, "\(check.problems)")
        #expect(check.events == 130 && check.headSeq == 180)
        #expect(try fixture.store.stats().events == 130)
    }

    @Test("Restoring twice never reuses a number: the second timeline starts above the first's discarded range and its events")
    func restoredTwice() throws {
        let fixture = try RestoreFixture()
        defer { fixture.dir.remove() }
        _ = try fixture.store.restore(from: fixture.backup, force: true)
        _ = try fixture.store.append(ndjson: RestoreFixture.lines(5, from: 300))
        let second = try fixture.store.restore(from: fixture.backup, force: true)
        #expect(second.firstSeq == 156 && second.discarded == 101...155)
        #expect(try fixture.store.append(ndjson: RestoreFixture.lines(1, from: 400)).anchor.seq == 156)
        #expect(try fixture.store.verify().isSound)
    }

    @Test("A backup of a restored store carries its timelines; restoring it keeps the older gap and verifies")
    func backupOfRestored() throws {
        let fixture = try RestoreFixture()
        defer { fixture.dir.remove() }
        _ = try fixture.store.restore(from: fixture.backup, force: true)
        _ = try fixture.store.append(ndjson: RestoreFixture.lines(10, from: 300))
        _ = try fixture.store.backup(to: fixture.dir.file("second"))
        let copy = HealthStore(directory: fixture.dir.file("fresh"))
        let report = try copy.restore(from: fixture.dir.file("second"))
        #expect(report.keptSeq == 160 && report.firstSeq == 161 + Restore.unknownHistoryGap)
        #expect(try RestoreFixture.seqs(copy) == Array(1...100) + Array(151...160))
        #expect(throws: HealthLogError.self) { try RestoreFixture.seqs(copy, from: QueryAnchor(fromValue: 120)) }
        #expect(try copy.append(ndjson: RestoreFixture.lines(1, from: 500)).anchor.seq == 161 + Restore.unknownHistoryGap)
        #expect(try copy.verify().isSound)
    }

    @Test("A gap the timelines do not record is damage: without the timelines file the acknowledged jump is damage")
    func unrecordedGap() throws {
        let fixture = try RestoreFixture()
        defer { fixture.dir.remove() }
        _ = try fixture.store.restore(from: fixture.backup, force: true)
        let synced = HealthStore(directory: fixture.dir.file("store"))
        _ = try synced.append(ndjson: RestoreFixture.lines(10, from: 300))
        try FileManager.default.removeItem(atPath: fixture.dir.file("store/timelines"))
        let check = try synced.verify()
        #expect(!check.isSound)
        #expect(check.problems.first?.contains("batch starts at sequence 151, expected 101") == true, "\(check.problems)")
    }

    @Test("A store never restored is one timeline: no timelines file, and a batch cut from the middle is damage")
    func middleBatchCut() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var options = RestoreFixture.options
        options.segmentBytes = 1 << 20
        let store = HealthStore(directory: dir.file("store"), options: options)
        for round in 0..<3 { _ = try store.append(ndjson: RestoreFixture.lines(20, from: round * 20)) }
        #expect(!FileManager.default.fileExists(atPath: dir.file("store/timelines")))
        let snapshot = try LogSnapshot(StoreLayout(directory: dir.file("store")))
        let batches = try snapshot.allBatches()
        try #require(batches.count >= 3)
        let path = dir.file("store/segments/" + snapshot.segments[0].name.fileName)
        var bytes = try #require(FileManager.default.contents(atPath: path))
        bytes.removeSubrange(batches[1].offset..<batches[1].end)
        try bytes.write(to: URL(fileURLWithPath: path))
        try? FileManager.default.removeItem(atPath: dir.file("store/checkpoint"))
        for index in try FileManager.default.contentsOfDirectory(atPath: dir.file("store/segments")) where index.hasSuffix(".idx") {
            try FileManager.default.removeItem(atPath: dir.file("store/segments/" + index))
        }
        let check = try store.verify()
        #expect(!check.isSound, "a batch cut from the middle leaves a gap no timeline records")
    }
}

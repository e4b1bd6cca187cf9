import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// `recover` of a store that was restored: the restore's discarded range is history, not a
/// loss, and survives in the new store's timelines; damage next to it loses only its batch.
@Suite("Recover timelines")
struct RecoverTimelineTests {
    /// The restore fixture restored over itself (kept 1…100, discarded 101…150), then 151…180
    /// appended.
    private static func restored() throws -> RestoreFixture {
        let fixture = try RestoreFixture()
        _ = try fixture.store.restore(from: fixture.backup, force: true)
        _ = try fixture.store.append(ndjson: RestoreFixture.lines(30, from: 200))
        return fixture
    }

    @Test("A restored store recovers whole: the discarded 101…150 is not reported lost and stays refused for anchors")
    func restoreGapIsNotLost() throws {
        let fixture = try Self.restored()
        defer { fixture.dir.remove() }
        let report = try fixture.store.recover(to: fixture.dir.file("recovered"))
        let copy = HealthStore(directory: fixture.dir.file("recovered"))
        #expect(report.lost.isEmpty && report.isComplete && report.events == 130)
        #expect(try RestoreFixture.seqs(copy) == Array(1...100) + Array(151...180))
        #expect(try Timelines.read(StoreLayout(directory: fixture.dir.file("recovered"))) == Timelines.read(StoreLayout(directory: fixture.dir.file("store"))))
        #expect(throws: HealthLogError.self) { try RestoreFixture.seqs(copy, from: QueryAnchor(fromValue: 120)) }
        #expect(try copy.verify().isSound)
    }

    @Test("With timelines garbage, the restore's jump between batches stored one after the other is discarded history, not lost, and stays refused")
    func garbageTimelinesKeepTheGapDiscarded() throws {
        let fixture = try Self.restored()
        defer { fixture.dir.remove() }
        let layout = StoreLayout(directory: fixture.dir.file("store"))
        try ByteSurgery.write(Array(repeating: 0xA5, count: 60), to: layout.timelines)
        let report = try fixture.store.recover(to: fixture.dir.file("recovered"))
        #expect(report.lost.isEmpty && report.isComplete, "\(report.lost)")
        #expect(report.discarded == [101...150])
        #expect(report.notes.contains { $0.hasPrefix("timelines is unreadable") })
        #expect(report.notes.contains { $0.hasPrefix("sequence 101-150 is history an earlier restore discarded") })
        let copy = HealthStore(directory: fixture.dir.file("recovered"))
        #expect(try RestoreFixture.seqs(copy) == Array(1...100) + Array(151...180))
        let starts = try Timelines.read(StoreLayout(directory: fixture.dir.file("recovered"))).starts
        #expect(starts.count == 1 && starts[0].keptSeq == 100 && starts[0].firstSeq == 151)
        #expect(throws: HealthLogError.self) { try RestoreFixture.seqs(copy, from: QueryAnchor(fromValue: 120)) }
        #expect(try copy.verify().isSound)
    }

    @Test("The first batch after a restore's gap damaged: only its numbers are lost, the gap and the loss are one timeline start")
    func damageNextToTheGap() throws {
        let fixture = try Self.restored()
        defer { fixture.dir.remove() }
        let layout = StoreLayout(directory: fixture.dir.file("store"))
        let snapshot = try LogSnapshot(layout, usingIndexes: false)
        let batch = try #require(try snapshot.batch(containing: 151))
        let name = snapshot.segments[batch.segment].name
        try ByteSurgery.flip(layout.segment(baseSeq: name.baseSeq, generation: name.generation), at: batch.groupOffsets[0] + 8)
        let report = try fixture.store.recover(to: fixture.dir.file("recovered"))
        #expect(report.lost == [151...batch.header.lastSeq])
        let copy = HealthStore(directory: fixture.dir.file("recovered"))
        #expect(try RestoreFixture.seqs(copy) == Array(1...100) + Array((batch.header.lastSeq + 1)...180))
        let starts = try Timelines.read(StoreLayout(directory: fixture.dir.file("recovered"))).starts
        #expect(starts.count == 1 && starts[0].keptSeq == 100 && starts[0].firstSeq == batch.header.lastSeq + 1)
        #expect(try copy.verify().isSound)
    }
}

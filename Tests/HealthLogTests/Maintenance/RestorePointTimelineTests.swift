import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// Point-in-time recovery from a backup that itself holds a restore's gap: the cut drops
/// timeline starts that begin after it, keeps every number above everything issued, and
/// refuses a point inside the backup's own discarded history.
@Suite("Restore to a point in a backup with timelines")
struct RestorePointTimelineTests {
    /// The fixture's store restored from its backup (timeline 151…, 101…150 discarded),
    /// then appends 151…160 and 161…170, backed up again into `second` (head 170).
    private static func secondBackup(_ fixture: PointInTimeFixture) throws -> String {
        _ = try fixture.store.restore(from: fixture.backup, force: true)
        _ = try fixture.store.append(ndjson: RestoreFixture.lines(10, from: 300))
        _ = try fixture.store.append(ndjson: RestoreFixture.lines(10, from: 310))
        _ = try fixture.store.backup(to: fixture.dir.file("second"))
        return fixture.dir.file("second")
    }

    @Test("A cut before the earlier restore's timeline began drops that start: --to 40 leaves one start (40 → 171), 41…170 refused, the next event 171")
    func cutBeforeEarlierTimeline() throws {
        let fixture = try PointInTimeFixture()
        defer { fixture.dir.remove() }
        let second = try Self.secondBackup(fixture)
        let report = try fixture.store.restore(from: second, force: true, to: .anchor(QueryAnchor(fromValue: 40)))
        #expect(report.keptSeq == 40 && report.firstSeq == 171)
        #expect(try PointInTimeFixture.starts(fixture.store) == [[40, 171]])
        #expect(try RestoreFixture.seqs(fixture.store) == Array(1...40))
        for seq: UInt64 in [41, 120, 150, 151, 165, 170] {
            #expect(throws: HealthLogError.self, "\(seq)") { try RestoreFixture.seqs(fixture.store, from: QueryAnchor(fromValue: seq)) }
        }
        #expect(try fixture.store.append(ndjson: RestoreFixture.lines(1, from: 900)).anchor.seq == 171)
        #expect(try fixture.store.verify().isSound)
    }

    @Test("A cut inside the later timeline keeps the earlier start: --to 165 keeps 1…100 and 151…160, starts (100 → 151) and (160 → 171)")
    func cutInsideLaterTimeline() throws {
        let fixture = try PointInTimeFixture()
        defer { fixture.dir.remove() }
        let second = try Self.secondBackup(fixture)
        let report = try fixture.store.restore(from: second, force: true, to: .anchor(QueryAnchor(fromValue: 165)))
        #expect(report.keptSeq == 160 && report.firstSeq == 171 && report.discarded == 161...170)
        #expect(try PointInTimeFixture.starts(fixture.store) == [[100, 151], [160, 171]])
        #expect(try RestoreFixture.seqs(fixture.store) == Array(1...100) + Array(151...160))
        #expect(try RestoreFixture.seqs(fixture.store, from: QueryAnchor(fromValue: 99)) == [100] + Array(151...160))
        #expect(throws: HealthLogError.self) { try RestoreFixture.seqs(fixture.store, from: QueryAnchor(fromValue: 120)) }
        #expect(throws: HealthLogError.self) { try RestoreFixture.seqs(fixture.store, from: QueryAnchor(fromValue: 165)) }
        #expect(try fixture.store.append(ndjson: RestoreFixture.lines(1, from: 900)).anchor.seq == 171)
        let check = try fixture.store.verify()
        #expect(check.isSound && check.events == 111, "\(check.problems)")
    }

    @Test("A cut at the earlier restore's kept head (--to 155, inside the first append after it) keeps 1…100 and one start (100 → 171)")
    func cutAtEarlierKeptHead() throws {
        let fixture = try PointInTimeFixture()
        defer { fixture.dir.remove() }
        let second = try Self.secondBackup(fixture)
        let report = try fixture.store.restore(from: second, force: true, to: .anchor(QueryAnchor(fromValue: 155)))
        #expect(report.keptSeq == 100 && report.firstSeq == 171)
        #expect(try PointInTimeFixture.starts(fixture.store) == [[100, 171]])
        #expect(try RestoreFixture.seqs(fixture.store) == Array(1...100))
        #expect(try fixture.store.verify().isSound)
    }

    @Test("A flipped byte in the backup's timelines is damage (exit 1's category) for a restore with and without --to, and nothing is written")
    func flippedTimelines() throws {
        let fixture = try PointInTimeFixture()
        defer { fixture.dir.remove() }
        let second = try Self.secondBackup(fixture)
        let path = second + "/timelines"
        var bytes = try #require(FileManager.default.contents(atPath: path))
        bytes[20] ^= 1
        try bytes.write(to: URL(fileURLWithPath: path))
        let before = try RestoreFixture.tree(fixture.dir.file("store"))
        for point in [nil, RestorePoint.anchor(QueryAnchor(fromValue: 40)), .anchor(QueryAnchor(fromValue: 120))] {
            let error = #expect(throws: HealthLogError.self) { try fixture.store.restore(from: second, force: true, to: point) }
            #expect(error?.code.category == .store, "\(String(describing: point)): \(String(describing: error))")
        }
        #expect(try RestoreFixture.tree(fixture.dir.file("store")) == before)
    }

    @Test("An anchor inside the backup's own discarded history (101…150) is refused and writes nothing; into an empty directory the cut timeline starts 2^32 above")
    func anchorIntoBackupsDiscardedHistory() throws {
        let fixture = try PointInTimeFixture()
        defer { fixture.dir.remove() }
        let second = try Self.secondBackup(fixture)
        let before = try RestoreFixture.tree(fixture.dir.file("store"))
        let error = #expect(throws: HealthLogError.self) { try fixture.store.restore(from: second, force: true, to: .anchor(QueryAnchor(fromValue: 120))) }
        #expect(error?.code == .anchorRefused && error?.message.contains("had itself discarded") == true, "\(String(describing: error))")
        #expect(try RestoreFixture.tree(fixture.dir.file("store")) == before)
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: fixture.dir.path)).contains { $0.contains(".restore-") })
        let fresh = HealthStore(directory: fixture.dir.file("fresh"))
        let report = try fresh.restore(from: second, to: .anchor(QueryAnchor(fromValue: 160)))
        #expect(report.keptSeq == 160 && report.firstSeq == 171 + Restore.unknownHistoryGap)
        #expect(try fresh.verify().isSound)
    }
}

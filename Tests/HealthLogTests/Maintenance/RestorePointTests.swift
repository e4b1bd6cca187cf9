import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// Point-in-time recovery (`restore --to`): only whole appends that ended at or
/// before the point come back, what came after is discarded history (rule 7), and a point
/// the backup cannot name is refused with nothing written.
@Suite("Restore to a point in time")
struct RestorePointTests {
    @Test("The fixture's appends span several batches, end inside segments and cross segment boundaries, so cuts truncate a segment and drop later ones")
    func fixtureShape() throws {
        let fixture = try PointInTimeFixture()
        defer { fixture.dir.remove() }
        let shape = try fixture.backupShape()
        #expect(shape.endsOfAppend == [20, 40, 60, 80, 100])
        #expect(shape.batches >= 20 && shape.segments >= 3, "\(shape)")
        #expect(shape.endsInsideSegments.contains(40) && shape.appendsAcrossSegments >= 2, "\(shape)")
        #expect(fixture.appendedMillis == fixture.appendedMillis.sorted() && Set(fixture.appendedMillis).count == 5)
    }

    @Test("--to an anchor at an append's end keeps exactly 1…40; anchors after it are refused as discarded, new events start above 150, and the store verifies")
    func anchorAtAppendEnd() throws {
        let fixture = try PointInTimeFixture()
        defer { fixture.dir.remove() }
        let tag = try fixture.store.headAnchor().storeTag
        let report = try fixture.store.restore(from: fixture.backup, force: true, to: .anchor(QueryAnchor(seq: 40, storeTag: tag)))
        #expect(report.keptSeq == 40 && report.backupHeadSeq == 100 && report.firstSeq == 151 && report.discarded == 41...150)
        #expect(try RestoreFixture.seqs(fixture.store) == Array(1...40))
        #expect(try fixture.store.headAnchor().seq == 40)
        #expect(try RestoreFixture.seqs(fixture.store, from: QueryAnchor(seq: 38, storeTag: tag)) == [39, 40])
        for seq: UInt64 in [41, 60, 100, 120, 150] {
            let refused = #expect(throws: HealthLogError.self) { try RestoreFixture.seqs(fixture.store, from: QueryAnchor(seq: seq, storeTag: tag)) }
            #expect(refused?.code == .anchorRefused && refused?.message.contains("resync from 0 or from an anchor at or before 40") == true, "\(seq): \(String(describing: refused))")
        }
        #expect(try PointInTimeFixture.starts(fixture.store) == [[40, 151]])
        #expect(try fixture.store.verify().isSound)
        #expect(try fixture.store.append(ndjson: RestoreFixture.lines(10, from: 500)).anchor.seq == 160)
        #expect(try RestoreFixture.seqs(fixture.store, from: QueryAnchor(seq: 40, storeTag: tag)) == Array(151...160))
        let check = try fixture.store.verify()
        #expect(check.isSound && check.events == 50, "\(check.problems)")
    }

    @Test("An anchor inside an append drops that append whole: --to 50 keeps 1…40, and 50 itself is then refused")
    func anchorInsideAppend() throws {
        let fixture = try PointInTimeFixture()
        defer { fixture.dir.remove() }
        let report = try fixture.store.restore(from: fixture.backup, force: true, to: .anchor(QueryAnchor(fromValue: 50)))
        #expect(report.keptSeq == 40)
        #expect(try RestoreFixture.seqs(fixture.store) == Array(1...40))
        #expect(throws: HealthLogError.self) { try RestoreFixture.seqs(fixture.store, from: QueryAnchor(fromValue: 50)) }
        #expect(try fixture.store.verify().isSound)
    }

    @Test("--to a date keeps the appends committed at or before it: the third append's time keeps 1…60, a microsecond before it 1…40, the backup's head time all 100")
    func date() throws {
        let fixture = try PointInTimeFixture()
        defer { fixture.dir.remove() }
        let third = fixture.appendedMillis[2] * 1000
        for (micros, kept) in [(third, 60), (third + 999, 60), (third - 1, 40), (fixture.appendedMillis[4] * 1000, 100)] as [(Int64, UInt64)] {
            let report = try fixture.store.restore(from: fixture.backup, force: true, to: .date(Timestamp(microseconds: micros)))
            #expect(report.keptSeq == kept, "\(micros)")
            #expect(try RestoreFixture.seqs(fixture.store) == Array(1...kept))
            #expect(try fixture.store.verify().isSound)
        }
    }

    @Test("A date before the first append is refused (anchorRefused, the store untouched); the anchor 0 keeps nothing: an empty timeline of the same store whose next event is numbered above everything issued")
    func dateBeforeEverything() throws {
        let fixture = try PointInTimeFixture()
        defer { fixture.dir.remove() }
        let refusal = #expect(throws: HealthLogError.self) {
            try fixture.store.restore(from: fixture.backup, force: true, to: .date(Timestamp(commandLine: "2020-01-01")!))
        }
        #expect(refusal?.code == .anchorRefused && refusal?.message.contains("would keep no event") == true, "\(String(describing: refusal))")
        #expect(try RestoreFixture.seqs(fixture.store).count == 150)
        let report = try fixture.store.restore(from: fixture.backup, force: true, to: .anchor(QueryAnchor(fromValue: 0)))
        #expect(report.keptSeq == 0 && report.firstSeq == 151)
        #expect(try RestoreFixture.seqs(fixture.store).isEmpty && (try fixture.store.headAnchor().seq) == 0)
        #expect(throws: HealthLogError.self) { try RestoreFixture.seqs(fixture.store, from: QueryAnchor(fromValue: 1)) }
        #expect(try fixture.store.verify().isSound)
        #expect(try fixture.store.append(ndjson: RestoreFixture.lines(3, from: 500)).anchor.seq == 153)
        #expect(try RestoreFixture.seqs(fixture.store) == [151, 152, 153])
        #expect(try fixture.store.verify().isSound)
    }

    @Test("A cut at a sealed segment's end keeps that segment whole with its index, drops the later ones, and the next append rolls a new segment")
    func cutAtSegmentEnd() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var options = RestoreFixture.options
        options.segmentBytes = 600
        let store = HealthStore(directory: dir.file("store"), options: options)
        for append in 0..<4 { _ = try store.append(ndjson: RestoreFixture.lines(5, from: append * 5)) }
        _ = try store.backup(to: dir.file("backup"))
        let names = { try FileManager.default.contentsOfDirectory(atPath: dir.file("store/segments")).sorted() }
        #expect(try names().filter { $0.hasSuffix(".log.lz4") }.count == 4, "one segment per append")
        let report = try store.restore(from: dir.file("backup"), force: true, to: .anchor(QueryAnchor(fromValue: 10)))
        #expect(report.keptSeq == 10)
        #expect(try names() == ["00000000000000000001.0000.idx", "00000000000000000001.0000.log.lz4", "00000000000000000006.0000.idx", "00000000000000000006.0000.log.lz4"])
        #expect(try store.verify().isSound)
        #expect(try store.append(ndjson: RestoreFixture.lines(5, from: 100)).anchor.seq == 25)
        #expect(try names().contains("00000000000000000021.0000.log.lz4"))
        #expect(try RestoreFixture.seqs(store) == Array(1...10) + Array(21...25))
        #expect(try store.verify().isSound)
    }

    /// A point the backup cannot name.
    enum Refused: String, CaseIterable, CustomTestStringConvertible {
        case foreignAnchor, pastTheHead, dateAfterTheBackup
        var testDescription: String { rawValue }
    }

    @Test("A foreign anchor, one past the backup's head and a date after the backup was taken are refused (anchorRefused) and write nothing", arguments: Refused.allCases)
    func refused(_ refusal: Refused) throws {
        let fixture = try PointInTimeFixture()
        defer { fixture.dir.remove() }
        let point: RestorePoint
        switch refusal {
        case .foreignAnchor:
            let other = HealthStore(directory: fixture.dir.file("other"))
            point = .anchor(try other.append(ndjson: RestoreFixture.lines(1, from: 0)).anchor)
        case .pastTheHead: point = .anchor(QueryAnchor(seq: 101, storeTag: try fixture.store.headAnchor().storeTag))
        case .dateAfterTheBackup: point = .date(Timestamp(microseconds: (Clock.nowMillis() + 60_000) * 1000))
        }
        let before = try RestoreFixture.tree(fixture.dir.file("store"))
        for (target, force) in [("store", true), ("missing", false)] {
            let error = #expect(throws: HealthLogError.self) { try HealthStore(directory: fixture.dir.file(target)).restore(from: fixture.backup, force: force, to: point) }
            #expect(error?.code == .anchorRefused && error?.message.lowercased().contains("nothing was restored") == true, "\(String(describing: error))")
        }
        #expect(try RestoreFixture.tree(fixture.dir.file("store")) == before)
        let left = try FileManager.default.contentsOfDirectory(atPath: fixture.dir.path)
        #expect(!left.contains("missing") && !left.contains { $0.contains(".restore-") }, "\(left)")
    }

    @Test("RestorePoint parses dates, instants, tokens and bare numbers; anything else is anchorRefused")
    func parsing() throws {
        #expect(try RestorePoint(parsing: "2026-11-30") == .date(Timestamp(commandLine: "2026-11-30")!))
        #expect(try RestorePoint(parsing: "2026-11-30T12:00:00Z") == .date(Timestamp(iso8601: "2026-11-30T12:00:00Z")!))
        #expect(try RestorePoint(parsing: "42") == .anchor(QueryAnchor(fromValue: 42)))
        let token = QueryAnchor(seq: 7, storeTag: 99).token
        #expect(try RestorePoint(parsing: token) == .anchor(QueryAnchor(seq: 7, storeTag: 99)))
        for bad in ["2026-13-01", "yesterday", "-1", ""] {
            let error = #expect(throws: HealthLogError.self) { try RestorePoint(parsing: bad) }
            #expect(error?.code == .anchorRefused, "\(bad)")
        }
    }
}

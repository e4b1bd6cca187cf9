import Foundation
import HealthLogTestSupport
@testable import HealthLog
import Testing

/// `HealthStore.appendHistory()` and `previewRestore(from:to:)`: every append listed once,
/// newest first, with what made it, and a restore that says what it keeps before it acts.
@Suite("append history")
struct AppendHistoryTests {
    @Test("Appends spanning many batches are listed once each, newest first, with their counts, origin, commit time and the anchor just past them")
    func listsAppends() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var options = RestoreFixture.options
        options.origin = AppendOrigin(command: "append", file: "week-1.ndjson")
        let store = HealthStore(directory: dir.file("store"), options: options)
        _ = try store.append(ndjson: RestoreFixture.lines(60, from: 0))
        let plain = HealthStore(directory: dir.file("store"), options: RestoreFixture.options)
        let known = #"{"uuid":"00000000-0000-4000-8000-000000000001","type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T08:00:00Z","value":70,"unit":"count/min"}"# + "\n"
        let second = try plain.append(ndjson: Array(known.utf8) + RestoreFixture.lines(4, from: 60)).anchor
        options.origin = AppendOrigin(command: "delete")
        _ = try HealthStore(directory: dir.file("store"), options: options).delete([try #require(SampleUUID("00000000-0000-4000-8000-000000000001"))])
        let history = try store.appendHistory()
        #expect(history.map(\.firstSeq) == [66, 61, 1] && history.map(\.lastSeq) == [66, 65, 60])
        #expect(history.map(\.added) == [0, 5, 60] && history.map(\.deleted) == [1, 0, 0])
        #expect(history.map(\.origin) == [AppendOrigin(command: "delete"), nil, AppendOrigin(command: "append", file: "week-1.ndjson")])
        #expect(history[1].committedAt == nil && history[2].committedAt != nil)
        #expect(history[2].committedAt! >= history[2].appendedAt)
        #expect(history[1].anchor == second)
        #expect(try RestoreFixture.seqs(store, from: history[2].anchor) == Array(61...66))
    }

    @Test("A store that does not exist has no history")
    func noStore() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        #expect(try HealthStore(directory: dir.file("none")).appendHistory().isEmpty)
    }

    @Test("The preview of a restore to an append's anchor keeps it and those before, discards the rest and the store's own later events, and writes nothing")
    func preview() throws {
        let fixture = try PointInTimeFixture()
        defer { fixture.dir.remove() }
        let before = try RestoreFixture.tree(fixture.dir.path)
        let history = try HealthStore(directory: fixture.backup).appendHistory()
        let preview = try fixture.store.previewRestore(from: fixture.backup, to: .anchor(history[3].anchor))
        #expect(preview.keptSeq == 40 && preview.backupHeadSeq == 100 && preview.storeHeadSeq == 150)
        #expect(preview.kept.map(\.lastSeq) == [40, 20] && preview.discarded.map(\.lastSeq) == [100, 80, 60])
        #expect(try RestoreFixture.tree(fixture.dir.path) == before)
        let whole = try fixture.store.previewRestore(from: fixture.backup)
        #expect(whole.keptSeq == 100 && whole.discarded.isEmpty)
    }

    @Test("A date after an append began and before it committed does not keep it: the cut follows the commit time its origin records")
    func dateCutFollowsCommit() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var options = RestoreFixture.options
        options.origin = AppendOrigin(command: "append")
        let store = HealthStore(directory: dir.file("store"), options: options)
        _ = try store.append(ndjson: RestoreFixture.lines(5, from: 0))
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        let date = Clock.nowMillis() + 20
        let (readEnd, writeEnd) = (fds[0], fds[1])
        let feeder = Thread {
            let lines = RestoreFixture.lines(5, from: 5)
            _ = lines.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
            while Clock.nowMillis() <= date + 1 { usleep(1_000) }
            close(writeEnd)
        }
        feeder.start()
        _ = try store.append([LineReader(fileDescriptor: readEnd, name: nil)])
        close(readEnd)
        let history = try store.appendHistory()
        #expect(history[0].appendedAt.microseconds <= date * 1000 && history[0].committedAt!.microseconds > date * 1000)
        _ = try store.backup(to: dir.file("backup"))
        let report = try store.restore(from: dir.file("backup"), force: true, to: .date(Timestamp(microseconds: date * 1000)))
        #expect(report.keptSeq == 5)
    }

    @Test("A point that keeps no event is refused before anything is copied, unless it is the anchor 0")
    func keepingNothingRefused() throws {
        let fixture = try PointInTimeFixture()
        defer { fixture.dir.remove() }
        let early = RestorePoint.date(Timestamp(microseconds: (fixture.appendedMillis[0] - 1) * 1000))
        let refusal = #expect(throws: HealthLogError.self) { try fixture.store.previewRestore(from: fixture.backup, to: early) }
        #expect(refusal?.code == .anchorRefused)
        #expect(try fixture.store.previewRestore(from: fixture.backup, to: .anchor(QueryAnchor(fromValue: 0))).keptSeq == 0)
    }
}

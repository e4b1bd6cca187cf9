import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// Stores the 32-byte UUID runs of older builds (`HLUR` version 1) left in `uuids/`, alone
/// or beside fingerprint runs (a store written in turn by an old and a new binary): verify
/// notes them as an older layout, lookups never use them, and the next writer removes
/// them and keeps one chain of fingerprint runs that answers as before.
@Suite("UUID index: runs of older builds")
struct UUIDIndexUpgradeTests {
    /// The 32-byte run of `events` covering `from...to`, written into `directory` as an
    /// older build wrote its sealed runs.
    static func oldRun(_ events: ArraySlice<(uuid: SampleUUID, seq: UInt64, isDelete: Bool)>, from: UInt64, to: UInt64, into directory: String) throws {
        _ = try UUIDRun.writeAsOlderBuild(UUIDRunSet.combine(Array(events)), from: from, to: to, directory: directory)
    }

    @Test("Old runs instead of the fingerprint runs, or beside them, are noted and replaced by the next write", arguments: [false, true])
    func oldRunsReplaced(_ besideNew: Bool) throws {
        let fixture = try IndexFixture.shared.get()
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try IndexFixture.restore(fixture.pristine, into: dir.file("store"))
        let uuids = store.directory + "/uuids"
        let events = try IndexFixture.uuidEvents(try #require(fixture.answers.replays["from 0 types [] raw"]))
        if !besideNew {
            for name in try FileManager.default.contentsOfDirectory(atPath: uuids) where name.hasSuffix(".run") { try ByteSurgery.remove(uuids + "/" + name) }
        }
        // An old binary's chain: one run of the whole log, or, beside the new chain, a run
        // of its own range (1-120: an older build's first append).
        if besideNew {
            try Self.oldRun(events[0..<120], from: 1, to: 120, into: uuids)
        } else {
            try Self.oldRun(events[...], from: 1, to: 220, into: uuids)
        }
        let before = try store.verify()
        #expect(before.problems == [])
        #expect(before.notes.contains { $0.contains("is index version 1, an older layout") }, "\(before.notes)")
        let layout = StoreLayout(directory: store.directory)
        let reader = UUIDRunReader(layout, snapshot: try LogSnapshot(layout))
        #expect((reader != nil) == besideNew, "an import uses only a chain of fingerprint runs")

        let summary = try store.append(ndjson: IndexFixture.ndjson(IndexFixture.laterWrite))
        #expect(summary == fixture.laterWriteSummary)
        #expect(try IndexFixture.answers(store) == fixture.answersAfterWrite)
        let runs = try FileManager.default.contentsOfDirectory(atPath: uuids).filter { $0.hasSuffix(".run") }
        #expect(runs.allSatisfy { UUIDFingerprintRun(path: uuids + "/" + $0, cipher: nil) != nil }, "\(runs)")
        let after = try store.verify()
        #expect(after.isSound && after.notes.isEmpty, "\(after)")
        // Used UUIDs stay refused (sample 5 was deleted by the later write).
        for (n, reason) in IndexFixture.reusedUUIDs {
            let error = #expect(throws: HealthLogError.self) { try store.append(ndjson: IndexFixture.ndjson([IndexFixture.sample(n)])) }
            let expected = n == 5 ? "belonged to a deleted sample" : reason
            #expect(error?.message.contains(expected) == true, "\(n): \(error?.message ?? "")")
        }
    }
}

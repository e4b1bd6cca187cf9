import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// The UUID index built and checked in bounded memory: ``UUIDRunBuilder`` spills sorted
/// chunks and merges them; `reindex`, `verify` and a writer's rebuild go through it. With a
/// chunk of a few events every build here spans many partial runs and merges.
@Suite("UUID runs built in chunks")
struct UUIDRunStreamingTests {
    /// `count` events in sequence order from 1: adds of fresh random UUIDs, and about one
    /// in five a delete of an earlier add not deleted yet.
    private static func events(_ count: Int, seed: UInt64) -> [(uuid: SampleUUID, seq: UInt64, isDelete: Bool)] {
        var random = SeededRandom(state: seed)
        var live: [SampleUUID] = []
        var out: [(uuid: SampleUUID, seq: UInt64, isDelete: Bool)] = []
        for seq in 1...UInt64(count) {
            if !live.isEmpty, random.chance(20) {
                out.append((live.remove(at: random.int(0...live.count - 1)), seq, true))
            } else {
                let uuid = SampleUUID(high: random.next(), low: random.next())
                live.append(uuid)
                out.append((uuid, seq, false))
            }
        }
        return out
    }

    @Test("A run built in chunks of any size equals the run folded in memory, and leaves only that run behind", arguments: [1, 2, 3, 7, 64, 5_000])
    func builderMatchesInMemoryFold(_ chunk: Int) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let events = Self.events(1_000, seed: UInt64(chunk))
        let builder = UUIDRunBuilder(from: 1, directory: dir.file("runs"), chunkEvents: chunk)
        for event in events { try builder.add(event.uuid, seq: event.seq, isDelete: event.isDelete) }
        let run = try builder.finish(through: 1_000)
        #expect((run.fromSeq, run.toSeq) == (1, 1_000))
        #expect(try run.allEntries() == UUIDRunSet.combine(events))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("runs")) == [UUIDRun.fileName(from: 1, to: 1_000)])
    }

    @Test("A run built in a scratch directory and finished into another holds the same entries, alone in that directory", arguments: [1, 10, 999, 1_000, 5_000])
    func builderFinishesIntoTarget(_ chunk: Int) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let events = Self.events(1_000, seed: 7)
        let builder = UUIDRunBuilder(from: 1, directory: nil, chunkEvents: chunk)
        for event in events { try builder.add(event.uuid, seq: event.seq, isDelete: event.isDelete) }
        let run = try builder.finish(through: 1_000, into: dir.path)
        #expect(run.path == dir.file(UUIDRun.fileName(from: 1, to: 1_000)))
        #expect(try run.allEntries() == UUIDRunSet.combine(events))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [UUIDRun.fileName(from: 1, to: 1_000)])
    }

    @Test("While merges run in the background, the partial runs hold every event written out, each once; a discard leaves nothing behind", arguments: [1, 2, 5])
    func partialRunsWhileMerging(_ chunk: Int) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let events = Self.events(600, seed: UInt64(chunk) + 40)
        let builder = UUIDRunBuilder(from: 1, directory: dir.file("runs"), chunkEvents: chunk)
        for (k, event) in events.enumerated() {
            try builder.add(event.uuid, seq: event.seq, isDelete: event.isDelete)
            guard k % 37 == 0 else { continue }
            let runs = builder.partialRuns
            let written = k + 1 - builder.pendingCount
            #expect(runs.first?.fromSeq ?? 1 == 1 && runs.last?.toSeq ?? 0 == UInt64(written))
            #expect(zip(runs, runs.dropFirst()).allSatisfy { $0.toSeq + 1 == $1.fromSeq })
            var entries: [UUIDRun.Entry] = []
            for run in runs { entries = UUIDRunSet.merge(entries, try run.allEntries()) }
            #expect(entries == UUIDRunSet.combine(Array(events.prefix(written))))
        }
        builder.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("runs")).isEmpty)
    }

    @Test("reindex writes the same derived files as the reference reindex, and verify passes them")
    func reindexInChunks() throws {
        let fixture = try IndexFixture.shared.get()
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try IndexFixture.restore(fixture.pristine, into: dir.file("store"))
        let report = try Reindexer(layout: StoreLayout(directory: store.directory), options: IndexFixture.options).run()
        #expect(report.events == 220)
        #expect(IndexFixture.derived(try ByteSurgery.image(of: store.directory)) == fixture.reindexed)
        #expect(try Verifier(layout: StoreLayout(directory: store.directory)).run().isSound)
    }

    @Test("verify passes the pristine store and names the first wrong key of a run, at its field")
    func verifyNamesWrongKey() throws {
        let fixture = try IndexFixture.shared.get()
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try IndexFixture.restore(fixture.pristine, into: dir.file("store"))
        let layout = StoreLayout(directory: store.directory)
        let sound = try Verifier(layout: layout).run()
        #expect(sound.isSound && sound.notes.isEmpty, "\(sound)")

        let path = store.directory + "/" + IndexRecoveryTests.Run.merged.rawValue
        var keys = try #require(UUIDFingerprintRun(path: path)).keys()
        // Another fingerprint for key 40, still between its neighbours.
        keys[40] += 1 << 32
        #expect(keys[40] < keys[41])
        _ = try UUIDFingerprintRun.write(keys: keys, from: 1, to: 205, directory: store.directory + "/uuids")
        let report = try Verifier(layout: layout).run()
        #expect(report.problems == ["\(IndexRecoveryTests.Run.merged.rawValue) at byte \(try #require(UUIDFingerprintRun(path: path)).fieldOffset(40)): disagrees with the log at entry 41; run 'healthlog reindex'"])
    }

    @Test("A writer that finds the UUID index missing rebuilds it in chunks, and lookups answer as before")
    func writerRebuildsInChunks() throws {
        let fixture = try IndexFixture.shared.get()
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try IndexFixture.restore(fixture.pristine, into: dir.file("store"))
        for name in try FileManager.default.contentsOfDirectory(atPath: store.directory + "/uuids") where name.hasSuffix(".run") {
            try ByteSurgery.remove(store.directory + "/uuids/" + name)
        }
        let layout = StoreLayout(directory: store.directory)
        let runs = try UUIDRunSet(layout, snapshot: try LogSnapshot(layout), chunkEvents: 5)
        #expect(runs.coveredSeq == 220)
        #expect(try runs.lookup(SampleUUID(CorruptionFixture.uuid(3))!) == UUIDRunSet.Found(addSeq: 3, deleteSeq: 201))
        #expect(try Verifier(layout: layout).run().isSound)
    }
}

import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// The UUID index built in pieces: an append's ``UUIDRunBuilder`` spills sorted chunks as
/// partial runs and merges them in the background, and a writer that finds the index
/// missing rebuilds it a chunk at a time (``UUIDRunSet``), runs that `reindex` writes and
/// `verify` checks too. With a chunk of a few events every build here spans many partial
/// runs and merges.
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

    @Test("While merges run in the background, each partial run holds exactly the events of its range, the runs cover every event written out, and a discard leaves nothing behind", arguments: [1, 2, 3, 5, 7, 64])
    func partialRunsWhileMerging(_ chunk: Int) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let events = Self.events(1_000, seed: UInt64(chunk) + 40)
        let builder = UUIDRunBuilder(from: 1, directory: dir.file("runs"), chunkEvents: chunk)
        var checked = 0
        var sawMerged = false
        for (k, event) in events.enumerated() {
            try builder.add(event.uuid, seq: event.seq, isDelete: event.isDelete)
            guard k % 37 == 0 || k == events.count - 1 else { continue }
            let runs = builder.partialRuns
            let written = k + 1 - builder.pendingCount
            #expect(builder.pendingCount < chunk)
            #expect(runs.first?.fromSeq ?? 1 == 1 && runs.last?.toSeq ?? 0 == UInt64(written))
            #expect(zip(runs, runs.dropFirst()).allSatisfy { $0.toSeq + 1 == $1.fromSeq })
            for run in runs {
                #expect(try run.allEntries() == UUIDRunSet.combine(Array(events[Int(run.fromSeq - 1)..<Int(run.toSeq)])), "\(run.fromSeq)...\(run.toSeq)")
            }
            checked += runs.count
            sawMerged = sawMerged || runs.contains { Int($0.toSeq - $0.fromSeq) + 1 > chunk }
        }
        #expect(checked > 0)
        #expect(sawMerged == (events.count / chunk > UUIDRunBuilder.fanIn), "runs merged in the background were checked too")
        builder.discard()
        #expect(builder.partialRuns.isEmpty && builder.pendingCount == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("runs")).isEmpty)
    }

    @Test("However far merges lag behind the spills, the partial runs stay adjacent and few, and each is no larger than any older one")
    func runsStayBoundedWhileMergesLag() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let chunk = 2
        let events = Self.events(9_000, seed: 44)
        let builder = UUIDRunBuilder(from: 1, directory: dir.file("runs"), chunkEvents: chunk)
        var most = 0
        for event in events {
            try builder.add(event.uuid, seq: event.seq, isDelete: event.isDelete)
            guard builder.pendingCount == 0 else { continue }
            let runs = builder.partialRuns
            most = max(most, runs.count)
            #expect(zip(runs, runs.dropFirst()).allSatisfy { $0.toSeq + 1 == $1.fromSeq })
            #expect(zip(runs, runs.dropFirst()).allSatisfy { $0.toSeq - $0.fromSeq >= $1.toSeq - $1.fromSeq }, "sizes never rise from the oldest run to the newest")
        }
        #expect(most <= 4 * UUIDRunBuilder.fanIn, "\(events.count / chunk) chunks held in at most \(most) runs")
        #expect(try builder.partialRuns.allSatisfy { try $0.allEntries() == UUIDRunSet.combine(Array(events[Int($0.fromSeq - 1)..<Int($0.toSeq)])) })
        builder.discard()
    }

    @Test("Each partial run has one filter, a merged run one built from its entries: it holds every UUID of the run, takes what its parts' filters took, and the filters stay within their budget")
    func oneFilterPerRun() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let chunk = 50
        let budget = 64 << 10
        // Enough chunks that the writer waits for the first merge (once another fanIn runs piled up behind it).
        let events = Self.events(chunk * (2 * UUIDRunBuilder.fanIn + 2), seed: 12)
        let builder = UUIDRunBuilder(from: 1, directory: dir.file("runs"), chunkEvents: chunk, filterBudget: budget)
        defer { builder.discard() }
        var largest = 0
        for event in events {
            try builder.add(event.uuid, seq: event.seq, isDelete: event.isDelete)
            largest = max(largest, builder.filters.byteCount)
        }
        let runs = builder.partialRuns
        #expect(runs.contains { Int($0.toSeq - $0.fromSeq) + 1 > chunk }, "a merge was put in place")
        #expect(builder.filters.count == runs.count, "one filter per run, not one per chunk")
        #expect(largest <= budget)
        for run in runs {
            let range = run.fromSeq...run.toSeq
            #expect(events[Int(run.fromSeq - 1)..<Int(run.toSeq)].allSatisfy { builder.filters.mayContain(hash: UUIDBloom.mix($0.uuid), within: range) })
        }
    }

    @Test("Once lookups end, the runs' filters are let go and a merge in progress is stopped: a discard then leaves nothing behind")
    func endLookups() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let chunk = 20
        let events = Self.events(chunk * (UUIDRunBuilder.fanIn + 3), seed: 14)
        let builder = UUIDRunBuilder(from: 1, directory: dir.file("runs"), chunkEvents: chunk)
        for event in events { try builder.add(event.uuid, seq: event.seq, isDelete: event.isDelete) }
        #expect(builder.filters.byteCount > 0)
        builder.endLookups()
        #expect(builder.filters.byteCount == 0 && builder.filters.count == 0)
        builder.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("runs")).isEmpty)
    }

    @Test("Without a directory (an append's builder), partial runs go into a scratch directory of the builder's own, which a discard removes with them")
    func scratchDirectory() throws {
        let builder = UUIDRunBuilder(from: 1, directory: nil, chunkEvents: 10)
        let events = Self.events(35, seed: 8)
        for event in events { try builder.add(event.uuid, seq: event.seq, isDelete: event.isDelete) }
        let runs = builder.partialRuns
        #expect(runs.map { $0.fromSeq...$0.toSeq } == [1...10, 11...20, 21...30])
        let scratch = (try #require(runs.first).path as NSString).deletingLastPathComponent
        #expect(runs.allSatisfy { ($0.path as NSString).deletingLastPathComponent == scratch })
        #expect((scratch as NSString).lastPathComponent.hasPrefix("healthlog-uuids-"))
        #expect(try FileManager.default.attributesOfItem(atPath: scratch)[.posixPermissions] as? Int == 0o700)
        builder.discard()
        #expect(!FileManager.default.fileExists(atPath: scratch))
    }

    @Test("A builder given up without a discard (a killed append) leaves its scratch directory, which the next builder's first spill removes")
    func leftoverScratchRemoved() throws {
        let events = Self.events(25, seed: 9)
        var given: UUIDRunBuilder? = UUIDRunBuilder(from: 1, directory: nil, chunkEvents: 10)
        for event in events { try given?.add(event.uuid, seq: event.seq, isDelete: event.isDelete) }
        let left = (try #require(given?.partialRuns.first).path as NSString).deletingLastPathComponent
        given = nil
        #expect(FileManager.default.fileExists(atPath: left))
        let next = UUIDRunBuilder(from: 1, directory: nil, chunkEvents: 10)
        for event in events { try next.add(event.uuid, seq: event.seq, isDelete: event.isDelete) }
        #expect(!FileManager.default.fileExists(atPath: left))
        next.discard()
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
        let stored = try #require(UUIDFingerprintRun(path: path, cipher: nil))
        var keys = stored.keys()
        // Another fingerprint for key 40, still between its neighbours.
        keys[40] += 1 << 32
        #expect(keys[40] < keys[41])
        _ = try UUIDFingerprintRun.write(keys: keys, from: 1, to: 205, binding: stored.binding, cipher: nil, directory: store.directory + "/uuids")
        let report = try Verifier(layout: layout).run()
        #expect(report.problems == ["\(IndexRecoveryTests.Run.merged.rawValue) at byte \(try #require(UUIDFingerprintRun(path: path, cipher: nil)).fieldOffset(40)): disagrees with the log at entry 41; run 'healthlog reindex'"])
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
        let runs = try UUIDRunSet(layout, snapshot: try LogSnapshot(layout), cipher: nil, chunkEvents: 5)
        #expect(runs.coveredSeq == 220)
        #expect(try runs.lookup(SampleUUID(CorruptionFixture.uuid(3))!) == UUIDRunSet.Found(addSeq: 3, deleteSeq: 201))
        #expect(try Verifier(layout: layout).run().isSound)
    }
}

import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// A merge of an append's partial UUID runs (``UUIDRun/writeMerged(_:directory:sealing:stop:visit:)``):
/// many runs merged through a heap into one in UUID order, a UUID named by several runs (an
/// add in one, its delete in a later one) folded into one entry, a page of each run held at
/// a time, and a damaged block refused.
@Suite("UUID run merges")
struct UUIDRunMergeTests {
    /// `runs` runs of `size` events each from sequence number 1, as written by
    /// ``UUIDRun/write(_:from:to:directory:sealing:)``, about one event in five a delete of
    /// an add of an earlier run; the events too.
    private static func runs(_ runs: Int, of size: Int, in directory: String, seed: UInt64) throws -> (paths: [String], events: [(uuid: SampleUUID, seq: UInt64, isDelete: Bool)]) {
        var random = SeededRandom(state: seed)
        var live: [SampleUUID] = []
        var events: [(uuid: SampleUUID, seq: UInt64, isDelete: Bool)] = []
        var paths: [String] = []
        for run in 0..<runs {
            var pending: [(uuid: SampleUUID, seq: UInt64, isDelete: Bool)] = []
            for k in 0..<size {
                let seq = UInt64(run * size + k + 1)
                if run > 0, !live.isEmpty, random.chance(20) {
                    pending.append((live.remove(at: random.int(0...live.count - 1)), seq, true))
                } else {
                    pending.append((SampleUUID(high: random.next(), low: random.next()), seq, false))
                }
            }
            live += pending.filter { !$0.isDelete }.map(\.uuid)
            events += pending
            let from = UInt64(run * size + 1)
            paths.append(try UUIDRun.write(UUIDRunSet.combine(pending), from: from, to: from + UInt64(size) - 1, directory: directory))
        }
        return (paths, events)
    }

    @Test("Many runs merge into one in UUID order, each UUID once with its add and its delete from whichever runs hold them, and every merged entry is visited")
    func foldsAcrossRuns() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let made = try Self.runs(40, of: 300, in: dir.path, seed: 2)
        let runs = try made.paths.map { try #require(UUIDRun(path: $0)) }
        var visited = 0
        let merged = try #require(UUIDRun(path: try UUIDRun.writeMerged(runs, directory: dir.path, visit: { _ in visited += 1 })))
        let expected = UUIDRunSet.combine(made.events)
        #expect(expected.count < made.events.count, "some UUIDs are in two runs")
        #expect(try merged.allEntries() == expected)
        #expect(visited == expected.count && merged.count == expected.count)
    }

    @Test("A cursor holds a page of a run's entries, not a block")
    func cursorHoldsAPage() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let made = try Self.runs(1, of: 3 * UUIDRun.blockEntries, in: dir.path, seed: 3)
        var cursor = try UUIDRun.BlockCursor(try #require(UUIDRun(path: made.paths[0])))
        defer { cursor.close() }
        var most = 0
        var walked = 0
        while cursor.current != nil {
            most = max(most, cursor.heldBytes)
            walked += 1
            try cursor.advance()
        }
        #expect(walked == 3 * UUIDRun.blockEntries)
        #expect(most <= 3 * UUIDRun.pageEntries * UUIDRun.entryLength, "\(most) bytes held")
    }

    @Test("A flipped byte in a block's last page makes the merge throw, naming the run, and leaves no merged run")
    func damagedBlockRefused() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let made = try Self.runs(3, of: UUIDRun.blockEntries + 10, in: dir.path, seed: 4)
        let runs = try made.paths.map { try #require(UUIDRun(path: $0)) }
        let lastPage = runs[1].entryOffset(UUIDRun.blockEntries - UUIDRun.pageEntries) + 5
        try ByteSurgery.flip(made.paths[1], at: lastPage)
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path))
        let error = #expect(throws: HealthLogError.self) { try UUIDRun.writeMerged(runs, directory: dir.path) }
        #expect(error?.code == .corrupt && error?.message.contains(made.paths[1]) == true)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: dir.path)) == before)
    }

    @Test("A merge asked to stop throws and leaves no merged run, and one not asked merges")
    func stopped() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let made = try Self.runs(4, of: 1_000, in: dir.path, seed: 5)
        let runs = try made.paths.map { try #require(UUIDRun(path: $0)) }
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path))
        #expect(throws: HealthLogError.self) { try UUIDRun.writeMerged(runs, directory: dir.path, stop: { true }) }
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: dir.path)) == before)
        var asked = 0
        _ = try UUIDRun.writeMerged(runs, directory: dir.path, stop: { asked += 1; return false })
        #expect(asked > 0)
    }
}

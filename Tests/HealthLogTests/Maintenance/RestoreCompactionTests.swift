import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// Anchor rules 7 (restore) and 8 (compaction) together: a restore must not let the generation an anchor issued
/// before it carries (in any history) count as having seen compactions it never saw, and a compacted UUID
/// stays used in a store cut below the horizon.
@Suite("Restore of a compacted store")
struct RestoreCompactionTests {
    /// The HealthKit-view lines after `anchor`.
    static func view(_ store: HealthStore, from anchor: QueryAnchor) throws -> [String] {
        var out: [String] = []
        _ = try store.replay(ReplayRequest(anchor: anchor)) { out.append(String(decoding: $0, as: UTF8.self)) }
        return out
    }

    @Test("An anchor of the replaced store's generation 1 expires when the restored store's own first compaction drops a delete above it")
    func replacedGenerationStaysOlder() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"), options: CompactionTests.options)
        _ = try store.append(ndjson: CompactionTests.lines(1...10))
        _ = try store.backup(to: dir.file("backup"))
        let horizon = try store.append(ndjson: CompactionTests.lines(11...11, deleting: [1])).anchor
        _ = try store.compact(horizon: .anchor(horizon))
        // A client resyncs from 0 after the compaction: it holds samples 2, 3 and 4.
        let client = try store.replay(ReplayRequest(anchor: .beginning, limit: 3)) { _ in }.newAnchor
        #expect(client.seq == 4 && client.generation == 1)
        _ = try store.restore(from: dir.file("backup"), force: true)
        #expect(try Self.view(store, from: client).count == 6, "the restore kept its position")
        // The restored timeline deletes sample 3 and compacts that delete away.
        let delete = try store.append(ndjson: Array(#"{"op":"delete","uuid":"\#(CompactionTests.uuid(3))"}"#.utf8)).anchor
        let report = try store.compact(horizon: .anchor(delete))
        #expect(report.eventsDropped == 2)
        let expired = #expect(throws: HealthLogError.self, "the client would never learn sample 3 is deleted") { try Self.view(store, from: client) }
        #expect(expired?.code == .anchorRefused && expired?.message.contains("expired") == true, "\(expired?.message ?? "")")
        let after = try store.headAnchor()
        #expect(after.generation > client.generation)
        #expect(try Self.view(store, from: after).isEmpty)
        #expect(try store.verify().isSound)
    }

    @Test("An anchor issued in another history at the generation a compacted backup reaches expires below its horizon when that backup is restored")
    func otherHistoryAnchorExpires() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"), options: CompactionTests.options)
        _ = try store.append(ndjson: CompactionTests.lines(1...10))
        _ = try store.backup(to: dir.file("before"))
        let horizon = try store.append(ndjson: CompactionTests.lines(11...11, deleting: [1])).anchor
        _ = try store.compact(horizon: .anchor(horizon))
        _ = try store.backup(to: dir.file("after"))
        _ = try store.restore(from: dir.file("before"), force: true)
        // In the history restored from before the compaction, sample 1 is live: a client
        // syncing from 0 gets it, and an anchor of generation 1.
        let client = try store.replay(ReplayRequest(anchor: .beginning, limit: 3)) { _ in }.newAnchor
        #expect(client.seq == 3 && client.generation == 1)
        _ = try store.restore(from: dir.file("after"), force: true)
        let expired = #expect(throws: HealthLogError.self, "the client would never learn sample 1 is deleted") { try Self.view(store, from: client) }
        #expect(expired?.code == .anchorRefused && expired?.message.contains("expired") == true, "\(expired?.message ?? "")")
        let head = try store.headAnchor()
        #expect(head.generation == 2)
        #expect(try Self.view(store, from: head).isEmpty)
        #expect(try Self.view(store, from: .beginning).count == 10, "samples 2…11")
        #expect(try store.verify().isSound)
    }

    @Test("A backup compacted after its history deleted a sample, restored to a cut between that sample's add and its delete, still refuses the UUID")
    func compactedUUIDBelowCut() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"), options: CompactionTests.options)
        _ = try store.append(ndjson: CompactionTests.lines(1...5))
        let cut = try store.append(ndjson: CompactionTests.lines(6...10)).anchor
        let horizon = try store.append(ndjson: CompactionTests.lines(11...11, deleting: [3])).anchor
        _ = try store.compact(horizon: .anchor(horizon))
        _ = try store.backup(to: dir.file("backup"))
        _ = try store.restore(from: dir.file("backup"), force: true, to: .anchor(cut))
        #expect(try CompactionTests.raw(store).count == 9, "the cut keeps 1…10 without the compacted sample 3")
        let added = #expect(throws: HealthLogError.self) { try store.append(ndjson: CompactionTests.lines(3...3)) }
        #expect(added?.code == .badInput && added?.message.contains("a UUID is used once") == true, "\(added?.message ?? "")")
        let deleted = #expect(throws: HealthLogError.self) { try store.append(ndjson: Array(#"{"op":"delete","uuid":"\#(CompactionTests.uuid(3))"}"#.utf8)) }
        #expect(deleted?.code == .badInput, "\(deleted?.message ?? "")")
        #expect(try store.verify().isSound)
    }
}

import HealthLogTestSupport
import Testing
@testable import HealthLog

/// A snapshot opened while an append commits sees a consistent log: the checkpoint it
/// checks against is never past the segment sizes it read.
@Suite("Snapshots opened during appends")
struct SnapshotRaceTests {
    private static func line(_ n: Int) -> [UInt8] {
        Array((#"{"type":"HKQuantityTypeIdentifierStepCount","start":"2024-01-01T00:00:00Z","value":\#(n),"unit":"count"}"# + "\n").utf8)
    }

    @Test("An append that commits while a snapshot opens is either seen whole or not at all, never reported as acknowledged events missing")
    func appendDuringOpen() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        _ = try store.append(ndjson: Self.line(1))
        var appended = false
        let snapshot = try LogSnapshot(store.layout, betweenReads: {
            _ = try store.append(ndjson: Self.line(2) + Self.line(3))
            appended = true
        })
        #expect(appended)
        #expect(snapshot.checkpoint?.seq == 1, "the checkpoint read before the append")
        #expect(snapshot.headSeq >= 1)
        #expect(try LogSnapshot(store.layout).headSeq == 3)
    }
}

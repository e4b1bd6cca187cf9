import HealthLogTestSupport
import Testing
@testable import HealthLog

@Suite("Smoke")
struct SmokeTests {
    @Test("An appended sample replays with its sequence number")
    func appendThenReplay() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        let line = #"{"type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T08:00:00Z","value":72,"unit":"count/min"}"#
        let summary = try store.append(ndjson: Array((line + "\n").utf8))
        #expect(summary.added == 1)
        var lines: [String] = []
        let outcome = try store.replay(ReplayRequest()) { lines.append(String(decoding: $0, as: UTF8.self)) }
        #expect(outcome.delivered == 1)
        #expect(lines.first?.hasPrefix(#"{"seq":1,"op":"add""#) == true)
    }
}

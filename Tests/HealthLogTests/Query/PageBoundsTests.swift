import HealthLogTestSupport
import Testing
@testable import HealthLog

/// A limited query (a page) costs what its page holds, not what follows its anchor: it
/// decodes the headers and frames of the few batches its limit needs.
@Suite("Page bounds")
struct PageBoundsTests {
    /// A store of one sealed-on-open segment holding 3,000 heart rates and 1,000 step counts
    /// in many small batches, every tenth heart rate deleted at the end.
    static func store(_ dir: TemporaryDirectory) throws -> HealthStore {
        var options = StoreOptions()
        options.batchBytes = 4000
        let store = HealthStore(directory: dir.file("store"), options: options)
        var lines: [String] = []
        var deletes: [String] = []
        for n in 0..<4000 {
            let uuid = "00000000-0000-4000-8000-\(String(repeating: "0", count: 12 - String(n).count))\(n)"
            let isSteps = n % 4 == 3
            let start = "2024-01-0\(1 + n / 1000)T00:\(String(format: "%02d", n / 60 % 60)):\(String(format: "%02d", n % 60))Z"
            lines.append(
                #"{"uuid":"\#(uuid)","type":"\#(isSteps ? "StepCount" : "HeartRate")","start":"\#(start)","value":\#(60 + n % 40),"unit":"\#(isSteps ? "count" : "count/min")"}"#
            )
            if !isSteps, n % 10 == 0 { deletes.append(#"{"op":"delete","uuid":"\#(uuid)"}"#) }
        }
        _ = try store.append(ndjson: Array(((lines + deletes).joined(separator: "\n") + "\n").utf8))
        return store
    }

    @Test("A page from anywhere decodes a few batch headers and frames, and returns what an unlimited query's prefix holds")
    func pageReadsFewBatches() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try Self.store(dir)
        let heartRate = "HKQuantityTypeIdentifierHeartRate"
        let snapshot = try LogSnapshot(store.layout)
        let batches = try snapshot.allBatches()
        #expect(snapshot.prefixSegmentCount == 1, "the segment is read from its index, as a sealed one")
        #expect(batches.count > 100, "\(batches.count) batches")
        let perBatch = batches.map { $0.header.groups.filter { $0.type == heartRate }.reduce(0) { $0 + Int($1.count) } }.filter { $0 > 0 }.min() ?? 1
        let limit = 100
        // The batches a page of `limit` lines spans, with room for hidden (deleted) adds and
        // a group that straddles the anchor: far fewer than follow any of the anchors.
        let bound = (limit + limit / 8) / perBatch + 3
        #expect(bound * 4 < batches.count, "bound \(bound), \(batches.count) batches")
        for anchor: UInt64 in [0, 1000, 2500] {
            let all = try CorruptionFixture.replayedSeqs(store, ReplayRequest(anchor: QueryAnchor(fromValue: anchor), types: [heartRate]))
            let page = try CorruptionFixture.replayedSeqs(store, ReplayRequest(anchor: QueryAnchor(fromValue: anchor), types: [heartRate], limit: limit))
            #expect(page.0 == Array(all.0.prefix(limit)))
            #expect(page.1.headersDecoded <= bound, "from \(anchor): \(page.1.headersDecoded) headers decoded, bound \(bound)")
            #expect(page.1.groupsRead <= bound, "from \(anchor): \(page.1.groupsRead) groups read, bound \(bound)")
            #expect(all.1.headersDecoded >= batches.count * (4000 - Int(anchor)) / 4000 - 1, "the unlimited query reads every batch after \(anchor)")
        }
    }
}

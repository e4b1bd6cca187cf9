import HealthLogTestSupport
import Testing
@testable import HealthLog

/// ``UUIDReuseCheck``: `verify`'s search for a UUID added twice, its fingerprint keys
/// sorted a stretch at a time on scratch disk and each candidate add found again in the
/// log by counting adds from the mark before it.
@Suite("UUID reuse check")
struct UUIDReuseCheckTests {
    @Test("Adds of a used UUID far past the first mark, with the keys in many stretches, are reported with both sequence numbers", arguments: [7, 100, 1 << 18])
    func duplicatesAcrossStretches(_ residentKeys: Int) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"), options: IndexFixture.options)
        // Samples 1...3000 with a delete of every 50th, then adds of samples 7 and 2501 again,
        // vouched unused so the writer lets them in.
        var lines: [String] = []
        for n in 1...3_000 {
            lines.append(IndexFixture.sample(n))
            if n % 50 == 0 { lines.append(IndexFixture.delete(n - 1)) }
        }
        _ = try store.append(ndjson: IndexFixture.ndjson(lines))
        let head = try LogSnapshot(StoreLayout(directory: store.directory)).headSeq
        #expect(try store.appendImporting(ndjson: IndexFixture.ndjson([IndexFixture.sample(7), IndexFixture.sample(2_501)]), addsUnusedAsOfHead: head).added == 2)

        let snapshot = try LogSnapshot(StoreLayout(directory: store.directory))
        let batches = try snapshot.allBatches()
        let check = try UUIDReuseCheck(sealedLike: nil, residentKeys: residentKeys)
        var batchLines = BatchLines()
        var seqOf: [String: [UInt64]] = [:]
        for batch in batches {
            try batchLines.load(snapshot, batch, groups: Array(batch.header.groups.indices))
            let dropped = try snapshot.fullHeader(of: batch).dropped
            try batchLines.withBytes { raw in
                for event in batchLines.uuidEvents(dropped, in: raw) where !event.isDelete {
                    let uuid = try #require(event.uuid)
                    try check.add(uuid, seq: event.seq)
                    seqOf["\(uuid)", default: []].append(event.seq)
                }
            }
        }
        var report = VerifyReport()
        try check.finish(snapshot, batches, &report)
        let seven = try #require(SampleUUID(IndexFixture.uuid(7)))
        let late = try #require(SampleUUID(IndexFixture.uuid(2_501)))
        let expected = [seven, late].map { uuid in
            let seqs = seqOf["\(uuid)"] ?? []
            return "event \(seqs.last ?? 0) adds UUID \(uuid), which event \(seqs.first ?? 0) added already"
        }
        #expect(seqOf["\(seven)"]?.count == 2 && seqOf["\(late)"]?.count == 2)
        #expect(report.problems.count == 2, "\(report.problems)")
        for (problem, suffix) in zip(report.problems, expected) { #expect(problem.hasSuffix(": " + suffix), "\(problem)") }
    }
}

import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// An append larger than its in-memory chunk: its UUID bookkeeping lives in partial runs
/// on disk and a Bloom filter (``AppendedUUIDs``), its stubs in a ``StubSpill``, and every
/// rule of the event line holds as when everything fits in memory.
@Suite("Appends in chunks")
struct AppendInChunksTests {
    @Test(
        "Lookups of an append's UUIDs answer as a dictionary of them would, across many written-out chunks, sealed ones among them while they are written",
        arguments: [1, 4, 50], [false, true])
    func lookupsMatchModel(_ chunk: Int, sealed: Bool) throws {
        var random = SeededRandom(state: UInt64(chunk))
        let appended = AppendedUUIDs(from: 101, chunkEvents: chunk, sealing: sealed ? try ScratchCipher.forProcess() : nil)
        defer { appended.discard() }
        var model: [SampleUUID: UUIDRunSet.Found] = [:]
        var live: [SampleUUID] = []
        for seq in UInt64(101)...700 {
            if !live.isEmpty, random.chance(25) {
                let uuid = live.remove(at: random.int(0...live.count - 1))
                try appended.add(uuid, seq: seq, isDelete: true)
                model[uuid]!.deleteSeq = seq
            } else {
                let uuid = SampleUUID(high: random.next() & 0xFFFF, low: random.next() & 0xFF)
                guard model[uuid] == nil else { continue }
                try appended.add(uuid, seq: seq, isDelete: false)
                model[uuid] = UUIDRunSet.Found(addSeq: seq, deleteSeq: 0)
                live.append(uuid)
            }
            if seq % 37 == 0 {
                for (uuid, found) in model { #expect(try appended.lookup(uuid) == found) }
                #expect(try appended.lookup(SampleUUID(high: 1 << 40, low: seq)) == nil)
            }
        }
    }

    @Test("With the chunks' filters halved to a few blocks, lookups still answer as a dictionary would")
    func lookupsMatchModelWithHalvedFilters() throws {
        var random = SeededRandom(state: 9)
        let appended = AppendedUUIDs(from: 1, chunkEvents: 40, chunkFilterBudget: 512)
        defer { appended.discard() }
        var model: [SampleUUID: UUIDRunSet.Found] = [:]
        var live: [SampleUUID] = []
        for seq in UInt64(1)...2_000 {
            if !live.isEmpty, random.chance(20) {
                let uuid = live.remove(at: random.int(0...live.count - 1))
                try appended.add(uuid, seq: seq, isDelete: true)
                model[uuid]!.deleteSeq = seq
            } else {
                let uuid = SampleUUID(high: random.next(), low: random.next())
                try appended.add(uuid, seq: seq, isDelete: false)
                model[uuid] = UUIDRunSet.Found(addSeq: seq, deleteSeq: 0)
                live.append(uuid)
            }
        }
        for (uuid, found) in model { #expect(try appended.lookup(uuid) == found) }
    }

    @Test("A lookup of a UUID the oldest chunk added reads the one partial run holding it, not every newer run too")
    func lookupReadsOnlyTheRunHoldingTheUUID() throws {
        var random = SeededRandom(state: 4)
        let appended = AppendedUUIDs(from: 1, chunkEvents: 100)
        defer { appended.discard() }
        var oldest: [SampleUUID] = []
        for seq in UInt64(1)...1_050 {
            let uuid = SampleUUID(high: random.next(), low: random.next())
            if seq <= 100 { oldest.append(uuid) }
            try appended.add(uuid, seq: seq, isDelete: false)
        }
        // Ten chunks written out, the oldest chunk in the oldest partial run, which a lookup
        // newest first reaches last.
        for (k, uuid) in oldest.enumerated() { #expect(try appended.lookup(uuid) == UUIDRunSet.Found(addSeq: UInt64(k + 1), deleteSeq: 0)) }
        #expect(appended.runLookups <= oldest.count + 3, "a few false positives of newer chunks at most")
        let before = appended.runLookups
        for _ in 0..<1_000 { #expect(try appended.lookup(SampleUUID(high: random.next(), low: random.next())) == nil) }
        #expect(appended.runLookups - before <= 10, "an absent UUID reads no run unless two filters err")
    }

    /// An append whose rules reach across chunks: deletes of samples added many lines
    /// before, then a repeated UUID (which must refuse the whole append) or none.
    private static func input(repeating: Bool) -> [UInt8] {
        var lines = (1...120).map { CorruptionFixture.heartRate($0) }
        lines += [1, 2, 50, 99].map { CorruptionFixture.delete($0) }
        lines += (121...130).map { CorruptionFixture.heartRate($0) }
        if repeating { lines.append(CorruptionFixture.heartRate(7)) }
        return Array(lines.map { $0 + "\n" }.joined().utf8)
    }

    @Test("An append of many chunks deletes samples chunks back copying their fields, refuses a UUID used chunks before, and indexes what a one-chunk append does")
    func rulesAcrossChunks() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var options = StoreOptions()
        options.sync = false
        options.batchBytes = 2_000
        options.segmentBytes = 10_000
        let whole = HealthStore(directory: dir.file("whole"), options: options)
        options.appendChunkEvents = 3
        let chunked = HealthStore(directory: dir.file("chunked"), options: options)
        let error = #expect(throws: HealthLogError.self) { try chunked.append(ndjson: Self.input(repeating: true)) }
        #expect(error?.message == "line 135: field 'uuid': UUID \(CorruptionFixture.uuid(7).uppercased()) is added earlier in this input")
        #expect(!FileManager.default.fileExists(atPath: chunked.directory))
        let summary = try chunked.append(ndjson: Self.input(repeating: false))
        #expect(summary.added == 130 && summary.deleted == 4)
        _ = try whole.append(ndjson: Self.input(repeating: false))
        #expect(try CorruptionFixture.replay(chunked, raw: true) == CorruptionFixture.replay(whole, raw: true))
        let again = #expect(throws: HealthLogError.self) { try chunked.append(ndjson: Array((CorruptionFixture.delete(2) + "\n").utf8)) }
        #expect(again?.message.contains("already deleted") == true)
        // The runs' names and keys (each run is bound to its own store, so the bytes differ there).
        let runs = { (store: HealthStore) in
            try ByteSurgery.image(of: store.directory).keys.filter { $0.hasPrefix("uuids/") && $0.hasSuffix(".run") }
                .reduce(into: [String: [UInt64]]()) { $0[$1] = UUIDFingerprintRun(path: store.directory + "/" + $1, cipher: nil)?.keys() }
        }
        #expect(try runs(chunked) == runs(whole))
        #expect(try !runs(whole).isEmpty)
        #expect(try chunked.verify().isSound)
    }
}

import HealthLogTestSupport
import Testing
@testable import HealthLog

/// An encrypted store's scratch UUID runs (``UUIDRun/sealing``): lookups, block walks and
/// merges read them as plain runs are read, their files hold no UUID in the clear, and a
/// changed byte is damage.
@Suite("Sealed UUID runs")
struct SealedUUIDRunTests {
    /// `count` entries of random UUIDs, sorted.
    private static func entries(_ count: Int, seed: UInt64, firstSeq: Int = 1) -> [UUIDRun.Entry] {
        var random = SeededRandom(state: seed)
        return (0..<count).map { n in
            UUIDRun.Entry(uuid: SampleUUID(high: random.next(), low: random.next()), addSeq: UInt64(firstSeq + n), deleteSeq: n % 4 == 0 ? UInt64(firstSeq + n + count) : 0)
        }.sorted { $0.uuid < $1.uuid }
    }

    /// Every UUID of `entries` as text and raw bytes.
    private static func needles(_ entries: [UUIDRun.Entry]) -> [[UInt8]] {
        entries.flatMap { KnownPlaintext.uuidNeedles(high: $0.uuid.high, low: $0.uuid.low) }
    }

    @Test("A sealed run answers every lookup, opens only sealed, and its file holds none of its UUIDs")
    func lookups() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let sealing = try ScratchCipher.forProcess()
        let entries = Self.entries(5_000, seed: 3)
        let path = try UUIDRun.write(entries, from: 1, to: 10_000, directory: dir.path, sealing: sealing)
        let run = try #require(UUIDRun(path: path, sealing: sealing))
        #expect(UUIDRun(path: path) == nil, "a sealed run does not open as a plain one")
        for _ in 0..<2 {
            for entry in entries { #expect(try run.lookup(entry.uuid) == entry) }
        }
        #expect(try run.lookup(SampleUUID(high: 1, low: 2)) == nil)
        let bytes = try ByteSurgery.read(path)
        #expect(KnownPlaintext.found(Self.needles(entries), in: bytes).isEmpty)
        let plain = try ByteSurgery.read(try UUIDRun.write(entries, from: 1, to: 10_001, directory: dir.path))
        #expect(KnownPlaintext.found(Self.needles(Array(entries.prefix(20))), in: plain).count == 20, "the scan finds a plain run's UUIDs")
    }

    @Test("Sealed runs merge into a sealed run that walks in UUID order")
    func merge() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let sealing = try ScratchCipher.forProcess()
        let older = Self.entries(3_000, seed: 5)
        let newer = Self.entries(2_500, seed: 6, firstSeq: 3_001)
        let runs = try [
            UUIDRun.write(older, from: 1, to: 3_000, directory: dir.path, sealing: sealing),
            UUIDRun.write(newer, from: 3_001, to: 5_500, directory: dir.path, sealing: sealing),
        ].map { try #require(UUIDRun(path: $0, sealing: sealing)) }
        let merged = try #require(UUIDRun(path: try UUIDRun.writeMerged(runs, directory: dir.path, sealing: sealing), sealing: sealing))
        var cursor = try UUIDRun.BlockCursor(merged)
        defer { cursor.close() }
        var walked: [UUIDRun.Entry] = []
        while let entry = cursor.current {
            walked.append(entry)
            try cursor.advance()
        }
        #expect(walked == (older + newer).sorted { $0.uuid < $1.uuid })
        #expect(KnownPlaintext.found(Self.needles(walked), in: try ByteSurgery.read(merged.path)).isEmpty)
    }

    @Test("A flipped byte in a sealed page is damage at the first read of it; one in the table makes the run unusable")
    func damage() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let sealing = try ScratchCipher.forProcess()
        let entries = Self.entries(3_000, seed: 7)
        let path = try UUIDRun.write(entries, from: 1, to: 3_000, directory: dir.path, sealing: sealing)
        let run = try #require(UUIDRun(path: path, sealing: sealing))
        // The page of entries 2,080 to 2,111, which a lookup of entry 2,100 opens.
        try ByteSurgery.flip(path, at: run.entryOffset(2_080) + 100)
        #expect(try run.lookup(entries[10].uuid) == entries[10])
        #expect(throws: HealthLogError.self) { try run.lookup(entries[2_100].uuid) }
        #expect(run.isDamaged)
        try ByteSurgery.flip(path, at: run.entryOffset(2_080) + 100)
        try ByteSurgery.flip(path, at: UUIDRun.headerLength + 30)
        #expect(UUIDRun(path: path, sealing: sealing) == nil)
    }

    @Test("A sealed page changed after a lookup read it is refused at the next lookup in it, not answered from the buffers the lookups reuse")
    func changedAfterRead() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let sealing = try ScratchCipher.forProcess()
        let entries = Self.entries(3_000, seed: 11)
        let path = try UUIDRun.write(entries, from: 1, to: 3_000, directory: dir.path, sealing: sealing)
        let run = try #require(UUIDRun(path: path, sealing: sealing))
        // Pages of the first block, then one of the other block; then a change in the page
        // of entries 288 to 319, which the lookup of entry 300 read.
        #expect(try run.lookup(entries[200].uuid) == entries[200])
        #expect(try run.lookup(entries[300].uuid) == entries[300])
        #expect(try run.lookup(entries[2_500].uuid) == entries[2_500])
        try ByteSurgery.flip(path, at: run.entryOffset(288) + 40)
        let error = #expect(throws: HealthLogError.self) { try run.lookup(entries[300].uuid) }
        #expect(error?.code == .corrupt)
        #expect(try run.lookup(entries[100].uuid) == entries[100], "another page of the block still answers")
        #expect(throws: HealthLogError.self) { try run.lookup(entries[300].uuid) }
    }
}

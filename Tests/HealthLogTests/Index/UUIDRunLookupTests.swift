import HealthLogTestSupport
import Testing
@testable import HealthLog

/// ``UUIDRun/lookup(_:)`` reading pages with `pread(2)`: the first lookup in a block reads
/// and checks the block, later ones one page of it; both answer as the entries say.
@Suite("UUID run lookups")
struct UUIDRunLookupTests {
    /// `count` entries of random UUIDs, the adds `1...count`, sorted by UUID.
    private static func randomEntries(_ count: Int, _ random: inout SeededRandom) -> [UUIDRun.Entry] {
        (1...count).map { n in UUIDRun.Entry(uuid: SampleUUID(high: random.next(), low: random.next()), addSeq: UInt64(n), deleteSeq: 0) }
            .sorted { $0.uuid < $1.uuid }
    }

    @Test("Every entry of a run of several blocks is found, in a block checked before or not, and absent UUIDs are not", arguments: [false, true])
    func lookupsAcrossPages(sealed: Bool) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var random = SeededRandom(state: 11)
        var entries: [UUIDRun.Entry] = []
        for n in 1...5_000 {
            let uuid = SampleUUID(high: random.next(), low: random.next())
            let deleteSeq: UInt64 = n % 3 == 0 ? UInt64(n + 5_000) : 0
            entries.append(UUIDRun.Entry(uuid: uuid, addSeq: UInt64(n), deleteSeq: deleteSeq))
        }
        entries.sort { $0.uuid < $1.uuid }
        let sealing = sealed ? try ScratchCipher.forProcess() : nil
        let run = try #require(UUIDRun(path: try UUIDRun.write(entries, from: 1, to: 10_000, directory: dir.path, sealing: sealing), sealing: sealing))
        for _ in 0..<2 {
            for entry in entries { #expect(try run.lookup(entry.uuid) == entry) }
        }
        for _ in 0..<200 { #expect(try run.lookup(SampleUUID(high: random.next(), low: random.next())) == nil) }
        #expect(try run.lookup(SampleUUID(high: 0, low: 0)) == nil)
    }

    @Test("Between lookups a run holds at most a page of entries, not the block its first lookup in a block read to check it, and answers as before", arguments: [false, true])
    func holdsAPageAtMost(sealed: Bool) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var random = SeededRandom(state: 12)
        let entries = Self.randomEntries(10_000, &random)
        let sealing = sealed ? try ScratchCipher.forProcess() : nil
        let run = try #require(UUIDRun(path: try UUIDRun.write(entries, from: 1, to: 10_000, directory: dir.path, sealing: sealing), sealing: sealing))
        let page = UUIDRun.pageEntries * UUIDRun.entryLength
        // The first entry of each block, then the same entries again (a page each).
        for _ in 0..<2 {
            for first in stride(from: 0, to: entries.count, by: UUIDRun.blockEntries) {
                #expect(try run.lookup(entries[first].uuid) == entries[first])
                #expect(run.heldEntryBytes < 2 * page, "at entry \(first)")
            }
        }
    }

    @Test("A sealed run's lookup of a random UUID opens about a page of 1 KB, not a block or a 4 KB page")
    func sealedLookupOpensAboutAPage() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var random = SeededRandom(state: 13)
        let entries = Self.randomEntries(10_000, &random)
        let sealing = try ScratchCipher.forProcess()
        let run = try #require(UUIDRun(path: try UUIDRun.write(entries, from: 1, to: 10_000, directory: dir.path, sealing: sealing), sealing: sealing))
        for entry in entries { #expect(try run.lookup(entry.uuid) == entry) }
        #expect(run.sealedBytesOpened < entries.count * 2_048, "\(run.sealedBytesOpened / entries.count) bytes opened a lookup")
    }

    @Test("A sealed run given its pages' first high halves opens one page a lookup, the page holding the UUID")
    func sealedLookupWithPageHighsOpensOnePage() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var random = SeededRandom(state: 15)
        let entries = Self.randomEntries(10_000, &random)
        let sealing = try ScratchCipher.forProcess()
        let run = try #require(UUIDRun(path: try UUIDRun.write(entries, from: 1, to: 10_000, directory: dir.path, sealing: sealing), sealing: sealing))
        run.sealedPageHighs = UUIDRun.pageHighs(entries)
        var pages = 0
        for (k, entry) in entries.enumerated() {
            #expect(try run.lookup(entry.uuid) == entry)
            let pageStart = k / UUIDRun.sealedPageEntries * UUIDRun.sealedPageEntries
            pages += min(UUIDRun.sealedPageEntries, entries.count - pageStart) * UUIDRun.entryLength + ScratchCipher.overhead
        }
        #expect(run.sealedBytesOpened == pages)
    }

    @Test("A sealed run whose UUIDs bunch up (many sharing their high half, gaps between) still finds every entry and no absent UUID, its pages' first high halves kept or not", arguments: [false, true])
    func sealedLookupOfBunchedUUIDs(keepsPageHighs: Bool) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var random = SeededRandom(state: 14)
        var uuids = Set<SampleUUID>()
        while uuids.count < 6_000 {
            let bunch: UInt64 = random.chance(50) ? 7 : (random.chance(50) ? random.next() & 0xFF : UInt64.max - (random.next() & 0xF))
            uuids.insert(SampleUUID(high: bunch, low: random.next()))
        }
        let entries = uuids.sorted().enumerated().map { UUIDRun.Entry(uuid: $0.element, addSeq: UInt64($0.offset + 1), deleteSeq: 0) }
        let sealing = try ScratchCipher.forProcess()
        let run = try #require(UUIDRun(path: try UUIDRun.write(entries, from: 1, to: 6_000, directory: dir.path, sealing: sealing), sealing: sealing))
        if keepsPageHighs { run.sealedPageHighs = UUIDRun.pageHighs(entries) }
        for entry in entries { #expect(try run.lookup(entry.uuid) == entry) }
        for high: UInt64 in [0, 6, 7, 8, 0xFF, 1 << 40, UInt64.max - 16, UInt64.max] {
            let absent = SampleUUID(high: high, low: random.next())
            #expect(try run.lookup(absent) == (uuids.contains(absent) ? entries.first { $0.uuid == absent } : nil))
        }
    }

    @Test("A flipped byte in a block is found by the first lookup in it, which marks the run damaged")
    func damagedBlock() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let entries = (1...3_000).map { n in UUIDRun.Entry(uuid: SampleUUID(high: UInt64(n), low: 0), addSeq: UInt64(n), deleteSeq: 0) }
        let path = try UUIDRun.write(entries, from: 1, to: 3_000, directory: dir.path)
        let run = try #require(UUIDRun(path: path))
        try ByteSurgery.flip(path, at: run.entryOffset(2_500) + 20)
        #expect(try run.lookup(entries[10].uuid) == entries[10])
        #expect(throws: HealthLogError.self) { try run.lookup(entries[2_100].uuid) }
        #expect(run.isDamaged)
    }
    @Test("A run given its pages' checks reads and checks the page that holds the UUID: a flipped byte in another page of the block goes unread, one in the page is found")
    func knownPagesReadOnePage() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var random = SeededRandom(state: 16)
        let entries = Self.randomEntries(5_000, &random)
        var bytes: [UInt8] = []
        let path = try UUIDRun.write(entries, from: 1, to: 5_000, directory: dir.path, buffer: &bytes)
        #expect(try ByteSurgery.read(path) == bytes)
        let run = try #require(UUIDRun(path: path))
        run.knownPages = UUIDRun.pageChecks(bytes, count: entries.count)
        try ByteSurgery.flip(path, at: run.entryOffset(3 * UUIDRun.knownPageEntries + 5) + 3)
        for (k, entry) in entries.enumerated() where k / UUIDRun.knownPageEntries != 3 { #expect(try run.lookup(entry.uuid) == entry) }
        for k in stride(from: 0, to: entries.count, by: 7) where k / UUIDRun.knownPageEntries != 3 {
            #expect(try run.lookup(SampleUUID(high: entries[k].uuid.high, low: entries[k].uuid.low &+ 1)) == nil)
        }
        #expect(!run.isDamaged)
        #expect(throws: HealthLogError.self) { try run.lookup(entries[3 * UUIDRun.knownPageEntries + 20].uuid) }
        #expect(run.isDamaged)
    }
}

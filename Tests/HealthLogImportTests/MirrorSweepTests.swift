import HealthLog
import HealthLogTestSupport
import Testing

@testable import HealthLogImport

/// `--mirror`'s sweep in memory that does not grow with the export or the store: the
/// export's UUIDs and the store's imported samples spilled, the export's taken a share at a
/// time.
@Suite("Import: the mirror's sweep")
struct MirrorSweepTests {
    /// `count` export UUIDs (one given twice), and the store's imported samples: every
    /// other export UUID, then `gone` that the export does not hold.
    static func sample(count: Int, gone: Int) -> (exported: [SampleUUID], imported: [SampleUUID], gone: [SampleUUID]) {
        var random = SeededRandom(state: 23)
        var exported = (0..<count).map { _ in SampleUUID(high: random.next(), low: random.next()) }
        let dropped = (0..<gone).map { _ in SampleUUID(high: random.next(), low: random.next()) }
        let imported = exported.enumerated().filter { $0.offset % 2 == 0 }.map(\.element) + dropped
        exported.append(exported[3])
        return (exported, imported, dropped)
    }

    /// What the sweep of `exported` over `imported` finds, in `uuidsPerPass` shares; and how
    /// often it read the store's samples and how many shares it took.
    static func sweep(_ exported: [SampleUUID], _ imported: [SampleUUID], sealed: Bool, uuidsPerPass: Int, in dir: TemporaryDirectory) throws -> (gone: [SampleUUID], reads: Int, passes: Int) {
        let sweep = MirrorSweep(near: dir.file("store"), sealing: sealed ? try ScratchCipher.forProcess() : nil, uuidsPerPass: uuidsPerPass)
        for uuid in exported { try sweep.add(uuid) }
        var reads = 0
        var gone: [SampleUUID] = []
        try sweep.sweep { visit in
            reads += 1
            for uuid in imported { try visit(uuid) }
        } gone: { gone.append($0) }
        return (gone, reads, sweep.passes)
    }

    @Test("Every share together finds each imported sample the export lacks once, as one table of the whole export would", arguments: [false, true], [1 << 17, 64, 1])
    func shares(sealed: Bool, uuidsPerPass: Int) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (exported, imported, dropped) = Self.sample(count: 300, gone: 40)
        let found = try Self.sweep(exported, imported, sealed: sealed, uuidsPerPass: uuidsPerPass, in: dir)
        #expect(found.gone.sorted() == dropped.sorted())
        // The store's samples are read once, whatever the shares.
        #expect(found.reads == 1)
        #expect(found.passes == (exported.count + uuidsPerPass - 1) / uuidsPerPass)
    }

    @Test("Spills past their memory, into files read again for each share, give the same answer", arguments: [false, true])
    func spilledToFiles(sealed: Bool) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        // 60,000 records of 25 bytes each: past the 256 KiB each spill keeps in memory.
        let (exported, imported, dropped) = Self.sample(count: 60_000, gone: 3_000)
        let found = try Self.sweep(exported, imported, sealed: sealed, uuidsPerPass: 16_384, in: dir)
        #expect(found.passes == 4)
        #expect(found.gone.sorted() == dropped.sorted())
    }

    @Test("An export that holds every imported sample leaves nothing to delete; an empty one, all of them")
    func edges() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (exported, imported, _) = Self.sample(count: 100, gone: 0)
        #expect(try Self.sweep(exported, imported, sealed: false, uuidsPerPass: 7, in: dir).gone.isEmpty)
        let none = try Self.sweep([], imported, sealed: false, uuidsPerPass: 7, in: dir)
        #expect(none.gone == imported)
        #expect(none.passes == 1)
    }
}

import HealthLogTestSupport
import Testing
@testable import HealthLog

/// `verify` checks a segment index in one pass over a mapping of it (``SegmentIndex/check(_:_:visit:)``),
/// not read whole: the verdict ``SegmentIndex/read(_:_:)`` gives, past the pieces its
/// checksum is taken in and the pages it lets go.
@Suite("Checking a segment index without holding it")
struct SegmentIndexCheckTests {
    /// A store directory holding the index of ten batches of 40,000 dropped events each
    /// (9.6 MB, in ten of the pieces the check lets go), and the batches.
    static func largeIndex(_ dir: TemporaryDirectory) throws -> (StoreLayout, SegmentName, [BatchRef]) {
        let layout = StoreLayout(directory: dir.path)
        try OwnedDirectory.prepare(layout.segments)
        let name = SegmentName(baseSeq: 1, generation: 1)
        let batches = SegmentIndexWriteTests.droppedBatches(10)
        try SegmentIndex.write(layout, name: name, batches: batches, cipher: nil)
        return (layout, name, batches)
    }

    /// The check's verdict and the entries it handed over.
    static func check(_ layout: StoreLayout, _ name: SegmentName) -> (Bool?, [(Int, [UInt8])]) {
        var seen: [(Int, [UInt8])] = []
        let verdict = SegmentIndex.check(layout, name) { offset, payload in seen.append((offset, Array(payload))) }
        return (verdict, seen)
    }

    @Test("A sound index of 9.6 MB is sound, each entry handed over as reading it whole gives it")
    func soundIndex() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (layout, name, batches) = try Self.largeIndex(dir)
        #expect(try ByteSurgery.read(SegmentIndex.path(layout, name)).count > 8 << 20)
        let (verdict, seen) = Self.check(layout, name)
        #expect(verdict == true)
        let read = try #require(SegmentIndex.read(layout, name))
        #expect(seen.map(\.0) == read.entries.map(\.offset) && seen.map(\.0) == batches.map(\.offset))
        #expect(seen.map(\.1) == read.entries.map { Array($0.payload) })
        #expect(SegmentIndex.check(layout, SegmentName(baseSeq: 9, generation: 1)) { _, _ in } == nil, "a missing index")
    }

    @Test("A byte flipped at the start or past 8 MiB, a cut, bytes added after the last entry: unsound, as reading it whole finds")
    func damagedIndex() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (layout, name, _) = try Self.largeIndex(dir)
        let path = SegmentIndex.path(layout, name)
        let original = try ByteSurgery.read(path)
        let damages: [(String, () throws -> Void)] = [
            ("a byte of the header", { try ByteSurgery.flip(path, at: 20) }),
            ("a byte of the first entry", { try ByteSurgery.flip(path, at: SegmentIndex.headerLength + 100) }),
            ("a byte past 8 MiB", { try ByteSurgery.flip(path, at: (8 << 20) + 1_000) }),
            ("the last byte", { try ByteSurgery.flip(path, at: original.count - 1) }),
            ("a cut", { try ByteSurgery.truncate(path, to: original.count - 10) }),
            ("bytes after the last entry", { try ByteSurgery.append([1, 2, 3, 4], to: path) }),
            ("an empty file", { try ByteSurgery.truncate(path, to: 0) }),
        ]
        for (what, damage) in damages {
            try ByteSurgery.write(original, to: path)
            try damage()
            #expect(SegmentIndex.read(layout, name) == nil, "\(what)")
            #expect(Self.check(layout, name).0 == false, "\(what)")
        }
    }

    @Test("An entry between the first and the last is taken on the body's checksum, as reading the index whole takes it")
    func middleEntryAsRead() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (layout, name, _) = try Self.largeIndex(dir)
        let path = SegmentIndex.path(layout, name)
        var bytes = try ByteSurgery.read(path)
        // The fifth entry's payload opens with a tag that is not a batch header's; both
        // checksums are sealed again, so only the entry's own fields could tell.
        var at = SegmentIndex.headerLength
        for _ in 0..<4 { at = try #require(bytes.withUnsafeBytes { SegmentIndex.entry(in: $0, at: at) }).payload.upperBound }
        let fifth = try #require(bytes.withUnsafeBytes { SegmentIndex.entry(in: $0, at: at) })
        bytes[fifth.payload.lowerBound] ^= 0x20
        func put(_ value: UInt32, at offset: Int) { withUnsafeBytes(of: value.littleEndian) { for k in 0..<4 { bytes[offset + k] = $0[k] } } }
        put(CRC32C.checksum(bytes[SegmentIndex.headerLength...]), at: 68)
        put(CRC32C.checksum(bytes[0..<72]), at: 72)
        try ByteSurgery.write(bytes, to: path)
        let read = SegmentIndex.read(layout, name)
        #expect(read != nil)
        #expect(Self.check(layout, name).0 == (read != nil))
    }
}

@testable import HealthLog
import HealthLogTestSupport
import Testing

/// The on-disk format, byte for byte: the worked example of the format document
/// (`Format.md`), as committed, against what this build writes for the same input.
@Suite("Format image")
struct FormatImageTests {
    /// The fixture folder.
    static let fixtures = PackageFiles.path("Tests/HealthLogTests/Fixtures/FormatImage")

    /// Byte ranges of the segment that differ between any two stores by nature.
    static let variable: [(name: String, range: Range<Int>)] = [
        ("store id", 0x1b..<0x2b), ("created", 0x37..<0x3f), ("segment header CRC", 0x3f..<0x43),
        ("store tag", 0x53..<0x5b), ("appended", 0x6b..<0x73), ("batch header CRC", 0x125..<0x129),
    ]

    /// Where the batch header's payload starts, and where its group entries end.
    static let payloadStart = 0x4b
    static let groupsEnd = 0x125

    /// `segment` with its batch header as a build without the deleted-add witness wrote it:
    /// the header's empty dropped list and its origin record (which holds the commit time and
    /// the witness alone: the library names no origin) removed, version 1, the payload's
    /// length and CRC-32C made good. Checks that the record holds the witness of the one add
    /// deleted.
    static func withoutWitness(_ segment: [UInt8]) throws -> [UInt8] {
        let length = Int(ByteReaderValue.u32(segment, payloadStart - 4))
        let header = try BatchHeader.decode(payload: Array(segment[payloadStart..<payloadStart + length]))
        #expect(header.version == 3 && header.origin?.origin == nil)
        #expect(header.origin?.deletedAdds == BatchOrigin.DeletedAddWitness(of: [1]))
        var out = segment
        out.removeSubrange(groupsEnd..<payloadStart + length - 4)
        let shorter = UInt32(groupsEnd + 4 - payloadStart)
        out.replaceSubrange(payloadStart - 4..<payloadStart, with: withUnsafeBytes(of: shorter.littleEndian) { Array($0) })
        out.replaceSubrange(payloadStart + 4..<payloadStart + 6, with: [1, 0])
        let crc = CRC32C.checksum(out[payloadStart..<groupsEnd])
        out.replaceSubrange(groupsEnd..<groupsEnd + 4, with: withUnsafeBytes(of: crc.littleEndian) { Array($0) })
        return out
    }

    @Test("The worked example's segment and checkpoint are what commit 3c72bac wrote, but for the store id, times, their checksums and the deleted-add witness")
    func sameBytesAsBefore() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        let input = try ByteSurgery.read(Self.fixtures + "/worked-example.ndjson")
        _ = try store.append(ndjson: input)

        let expected = try ByteSurgery.read(Self.fixtures + "/worked-example.log.lz4")
        let segment = try ByteSurgery.read(dir.file("store/segments/00000000000000000001.0000.log.lz4"))
        let written = try Self.withoutWitness(segment)
        try #require(written.count == expected.count, "segment of \(written.count) bytes, the fixture \(expected.count)")
        var masked = expected
        for field in Self.variable { masked.replaceSubrange(field.range, with: written[field.range]) }
        let firstDifference = masked.indices.first { masked[$0] != written[$0] }
        #expect(firstDifference == nil, "first differing byte at 0x\(String(firstDifference ?? 0, radix: 16))")
        #expect(written[0x53..<0x5b].elementsEqual(written[0x1b..<0x23]), "the batch carries the store's tag")
        #expect(CRC32C.checksum(written[0x13..<0x3f]) == ByteReaderValue.u32(written, 0x3f))
        #expect(CRC32C.checksum(written[0x4b..<0x125]) == ByteReaderValue.u32(written, 0x125))

        let checkpoint = try ByteSurgery.read(dir.file("store/checkpoint"))
        let fixture = try ByteSurgery.read(Self.fixtures + "/worked-example.checkpoint")
        // The checkpoint's end offset moves with the witness; the rest is the fixture's.
        #expect(ByteReaderValue.u64(checkpoint, 24) == UInt64(segment.count))
        #expect(Checkpoint(seq: 2, segmentBase: 1, endOffset: UInt64(expected.count)).encoded() == fixture)
        #expect(Checkpoint(seq: 2, segmentBase: 1, endOffset: UInt64(segment.count)).encoded() == checkpoint)
        #expect(try CorruptionFixture.replay(store, raw: true).count == 2)
    }
}

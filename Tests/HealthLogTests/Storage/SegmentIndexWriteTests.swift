import HealthLogTestSupport
import Testing
@testable import HealthLog

/// A sidecar index written from batches a megabyte at a time is, byte for byte, the file
/// encoded whole in memory, and reads back as the batches it lists, across several pieces.
@Suite("Writing a segment index in pieces")
struct SegmentIndexWriteTests {
    @Test("Batches of 40,000 dropped events each (2.9 MB of index) are written as the whole encoding is")
    func piecesMatchWhole() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let layout = StoreLayout(directory: dir.path)
        try OwnedDirectory.prepare(layout.segments)
        let name = SegmentName(baseSeq: 1, generation: 1)
        let batches = Self.droppedBatches(3)
        try SegmentIndex.write(layout, name: name, batches: batches, cipher: nil)
        let written = try ByteSurgery.read(SegmentIndex.path(layout, name))
        #expect(written.count > 2 << 20)
        #expect(written == (try SegmentIndex(layout, name: name, batches: batches)).encoded(cipher: nil))
        let read = try #require(SegmentIndex.decode(written, name: name))
        #expect(read.entries.map(\.offset) == batches.map(\.offset))
        #expect(try read.entries.map { try BatchHeader.decode(payload: $0.payload) } == batches.map(\.header))
    }

    /// `count` batches, one after another in a segment, each a header listing 40,000 dropped
    /// events (0.96 MB, near the largest a header may be) and no group.
    static func droppedBatches(_ count: Int) -> [BatchRef] {
        var batches: [BatchRef] = []
        var offset = SegmentLayout.prologueLength
        for k in 0..<count {
            let first = UInt64(1 + k * 40_000)
            let dropped = (0..<40_000).map { n in
                BatchHeader.Dropped(seq: first + UInt64(n), isDelete: n % 2 == 1, uuid: SampleUUID(high: UInt64(k), low: UInt64(n)))
            }
            let header = BatchHeader(
                storeTag: 5, flags: FormatConstants.flagEndOfAppend, firstSeq: first, lastSeq: first + 39_999, appendedMillis: 1_000, groups: [],
                dropped: BatchHeader.DroppedList(dropped))
            let payload = Array(header.encoded().dropFirst(8))
            let batch = BatchRef(segment: 0, offset: offset, payloadLength: payload.count, header: header)
            batches.append(batch)
            offset = batch.end
        }
        return batches
    }
}

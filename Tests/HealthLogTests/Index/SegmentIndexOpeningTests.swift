import HealthLogTestSupport
import Testing
@testable import HealthLog

/// Opening a store takes each earlier segment on its index's word, checked against the
/// segment's last batch by that batch's checksum and clear fixed fields; the batch's table
/// is decoded (opened, in an encrypted store) only by a read that reaches it.
@Suite("Opening a store on its segment indexes")
struct SegmentIndexOpeningTests {
    @Test("The first segment's last table made undecodable, its checksums recomputed in the segment and its index: a read after that segment answers as before, one through it and verify name the segment")
    func lastTableReadOnlyWhenReached() throws {
        let scene = try IndexFixture.Scene()
        defer { scene.dir.remove() }
        let layout = StoreLayout(directory: scene.path)
        let name = SegmentName(baseSeq: 1, generation: 0)
        var index = try #require(SegmentIndex.read(layout, name))
        let last = index.entries.count - 1
        var payload = Array(index.entries[last].payload)
        // The first group's type name said to run 65,535 bytes: past the table's end.
        payload.replaceSubrange(BatchHeader.FixedFields.length + 2..<BatchHeader.FixedFields.length + 4, with: [0xFF, 0xFF])
        withUnsafeBytes(of: CRC32C.checksum(payload.dropLast(4)).littleEndian) { payload.replaceSubrange(payload.count - 4..<payload.count, with: $0) }
        #expect(throws: FormatViolation.self) { try BatchHeader.decode(payload: payload) }
        let segment = scene.file("segments/\(IndexRecoveryTests.Target.first.rawValue).0000.log.lz4")
        try ByteSurgery.patch(segment, at: index.entries[last].offset + 8, with: payload)
        index.entries[last].payload = payload[...]
        try ByteSurgery.write(index.encoded(cipher: nil), to: scene.file(IndexRecoveryTests.Target.first.index))
        #expect(SegmentIndex.read(layout, name) == index, "the edited index passes its own checks")

        let pristine = try TemporaryDirectory()
        defer { pristine.remove() }
        let reference = try IndexFixture.restore(scene.fixture.pristine, into: pristine.file("store"))
        let head = try reference.headAnchor()
        let after = QueryAnchor(seq: try #require(UInt64(IndexRecoveryTests.Target.last.rawValue)) - 1, storeTag: head.storeTag, generation: head.generation)
        func lines(_ store: HealthStore, from anchor: QueryAnchor) throws -> [UInt8] {
            var out: [UInt8] = []
            _ = try store.replay(ReplayRequest(anchor: anchor)) { out += $0 }
            return out
        }
        let expected = try lines(reference, from: after)
        #expect(!expected.isEmpty)
        #expect(try lines(scene.store, from: after) == expected, "a read that does not reach the damaged batch")
        #expect(try scene.store.headAnchor() == head)

        let error = try #require(throws: HealthLogError.self) { try lines(scene.store, from: QueryAnchor(seq: 0, storeTag: head.storeTag, generation: head.generation)) }
        #expect(error.code == .corrupt && error.message.contains("segments/\(IndexRecoveryTests.Target.first.rawValue)"), "\(error)")
        let report = try scene.store.verify()
        #expect(!report.isSound && report.problems.contains { $0.contains("segments/\(IndexRecoveryTests.Target.first.rawValue)") }, "\(report)")
    }
}

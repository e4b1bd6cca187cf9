import HealthLogTestSupport
import Testing
@testable import HealthLog

/// A segment's `.idx` edited with every checksum recomputed, so that only the segment can
/// tell: readers answer as the pristine store does (as with no index at all), `verify` names
/// the file, and the next writer rebuilds it (``IndexRecoveryTests/expectRecovery(_:sourceLocation:damage:)``).
@Suite("Segment indexes edited with their checksums recomputed")
struct SegmentIndexTamperTests {
    typealias Target = IndexRecoveryTests.Target

    /// Rewrites the `.idx` of `target` with `edit` applied to the header of the first batch
    /// it lists, its own and the file's checksums recomputed.
    static func editFirstBatch(_ scene: IndexFixture.Scene, _ target: Target, _ edit: (inout BatchHeader) throws -> Void) throws {
        let layout = StoreLayout(directory: scene.path)
        let name = SegmentName(baseSeq: try #require(UInt64(target.rawValue)), generation: 0)
        var index = try #require(SegmentIndex.read(layout, name))
        var header = try BatchHeader.decode(payload: index.entries[0].payload)
        try edit(&header)
        index.entries[0].payload = header.encoded().dropFirst(8)
        try ByteSurgery.write(index.encoded(cipher: nil), to: scene.file(target.index))
        #expect(SegmentIndex.read(layout, name) == index, "the edited index passes its own checks")
    }

    /// Rewrites the batch count in the header of the `.idx` of `target`, the header's
    /// checksum recomputed.
    static func setBatchCount(_ scene: IndexFixture.Scene, _ target: Target, _ count: (UInt32) -> UInt32) throws {
        let path = scene.file(target.index)
        var bytes = try ByteSurgery.read(path)
        let old = bytes[20..<24].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        withUnsafeBytes(of: count(old).littleEndian) { bytes.replaceSubrange(20..<24, with: $0) }
        withUnsafeBytes(of: CRC32C.checksum(bytes[0..<72]).littleEndian) { bytes.replaceSubrange(72..<76, with: $0) }
        try ByteSurgery.write(bytes, to: path)
    }

    @Test("Two add groups' types swapped: a type's query still reads its own events", arguments: Target.allCases)
    func typesSwapped(_ target: Target) throws {
        try IndexRecoveryTests.expectRecovery(.problem(target.index)) { scene in
            try Self.editFirstBatch(scene, target) { header in
                let adds = header.groups.indices.filter { !header.groups[$0].isDelete }
                try #require(adds.count >= 2)
                let (a, b) = (adds[0], adds[1])
                (header.groups[a].type, header.groups[b].type) = (header.groups[b].type, header.groups[a].type)
            }
        }
    }

    @Test("A heart-rate group renamed to a type no query asks for: the heart rates are still found", arguments: Target.allCases)
    func typeRenamed(_ target: Target) throws {
        try IndexRecoveryTests.expectRecovery(.problem(target.index)) { scene in
            try Self.editFirstBatch(scene, target) { header in
                let g = try #require(header.groups.firstIndex { $0.type == IndexFixture.heartRate })
                header.groups[g].type = String(IndexFixture.heartRate.dropLast()) + "X"
            }
        }
    }

    @Test("A group's time range moved: the statistics and date-bounded reads still see its events", arguments: Target.allCases)
    func timeRangeMoved(_ target: Target) throws {
        try IndexRecoveryTests.expectRecovery(.problem(target.index)) { scene in
            try Self.editFirstBatch(scene, target) { header in
                header.groups[0].minStart = 0
                header.groups[0].maxEnd = 1
            }
        }
    }

    @Test("An absurd or wrong batch count is ignored: reads and appends go on, and the index is rebuilt", arguments: Target.allCases, [true, false])
    func batchCount(_ target: Target, _ absurd: Bool) throws {
        try IndexRecoveryTests.expectRecovery(.problem(target.index)) { scene in
            try Self.setBatchCount(scene, target) { absurd ? 0xFFFF_FFFF : $0 - 1 }
        }
    }
}

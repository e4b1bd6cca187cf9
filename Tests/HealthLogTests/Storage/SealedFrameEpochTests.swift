import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// A group frame sealed under a key epoch the handle lacks, in a batch whose table opens,
/// is a missing key (exit 4), as a table under such an epoch is, not damage.
@Suite("Sealed frame epochs")
struct SealedFrameEpochTests {
    @Test("A batch whose table opens but whose frames are sealed under an epoch the keys lack reads as keyRequired naming the epoch; with that key it reads")
    func frameUnderMissingEpoch() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let old = try SecretBytes.random(count: 32)
        let new = try SecretBytes.random(count: 32)
        let store = try EncryptedSegmentTests.makeStore(dir.path + "/s", keys: [0: old])
        _ = try store.append(ndjson: CompactionTests.lines(1...40))
        let expected = try CompactionTests.raw(store)
        let both = try EncryptedSegmentTests.handle(store, keys: [0: old, 1: new], current: 1)
        let newer = try #require(try both.layout.cipher(StoreMeta.read(both.layout)))
        // Reseal the first batch's frames under epoch 1 and its table (listing the new
        // frames' checksums) under epoch 0.
        let snapshot = try LogSnapshot(store.layout)
        let batch = try #require(snapshot.allBatches().first)
        let segment = snapshot.segments[batch.segment]
        let path = store.directory + "/" + segment.displayPath
        var bytes = try ByteSurgery.read(path)
        let oldPlace = segment.place(batch.offset, cipher: try #require(try store.layout.cipher(StoreMeta.read(store.layout))))
        let newPlace = segment.place(batch.offset, cipher: newer)
        var header = batch.header
        var frames: [UInt8] = []
        for (index, group) in header.groups.enumerated() {
            let start = batch.groupOffsets[index]
            var unit = Array(bytes[start..<start + Int(group.frameLength)])
            let frame = try #require(unit.withUnsafeMutableBytes { oldPlace.openGroup(index, group, in: $0) })
            let resealed = newer.seal(Array(unit[frame]), .groupFrame, place: newPlace.groupBytes(index, group))
            #expect(resealed.count == unit.count)
            header.groups[index].frameCRC = CRC32C.checksum(resealed[...])
            frames += resealed
        }
        let table = header.encoded(sealingAt: oldPlace, framesCRC: CRC32C.checksum(frames[...]))
        let tableEnd = batch.offset + table.count
        #expect(tableEnd == batch.groupOffsets[0])
        bytes.replaceSubrange(batch.offset..<tableEnd + frames.count, with: table + frames)
        try ByteSurgery.write(bytes, to: path)
        for file in try FileManager.default.contentsOfDirectory(atPath: store.layout.segments) where file.hasSuffix(".idx") {
            try FileManager.default.removeItem(atPath: store.layout.segments + "/" + file)
        }
        let error = try #require(throws: HealthLogError.self) { try CompactionTests.raw(store) }
        #expect(error.code == .keyRequired && error.message.contains("key epoch 1"), "\(error)")
        #expect(try CompactionTests.raw(both) == expected)
    }
}

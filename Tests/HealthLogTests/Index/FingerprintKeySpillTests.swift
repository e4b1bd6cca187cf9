#if canImport(Glibc)
import Glibc
#endif
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// The spill of sorted key stretches (``FingerprintKeySpill``): stretches of one size merge
/// as they are written, so the final merge reads a bounded number of them, the keys come
/// back the same, and the merged stretches' room on disk is given back.
@Suite("Spill of sorted keys")
struct FingerprintKeySpillTests {
    /// `stretches` sorted stretches of 1 to `longest` random keys each.
    private static func stretches(_ stretches: Int, longest: Int, seed: UInt64) -> [[UInt64]] {
        var random = SeededRandom(state: seed)
        return (0..<stretches).map { _ in (0..<random.int(1...longest)).map { _ in random.next() }.sorted() }
    }

    @Test("However many stretches are written, the merge holds a few dozen and gives every key in order", arguments: [false, true])
    func boundedFanIn(_ sealed: Bool) throws {
        let spill = FingerprintKeySpill(sealing: sealed ? try ScratchCipher.forProcess() : nil)
        let written = Self.stretches(FingerprintKeySpill.fanIn * FingerprintKeySpill.fanIn + 37, longest: 20, seed: 3)
        for stretch in written { try stretch.withUnsafeBufferPointer { try spill.write($0) } }
        // 1,061 stretches: 1,024 merged twice into one, 32 once into one, 5 as they were.
        #expect(spill.stretchCount == 1 + 1 + 5)
        let resident: [UInt64] = [0, 7, .max]
        var merged: [UInt64] = []
        try resident.withUnsafeBufferPointer { resident in try spill.merge(with: resident) { merged.append($0) } }
        #expect(merged == (written.flatMap { $0 } + resident).sorted())
    }

    @Test("An ordered spill keeps its stretches as written, and its keys come back in the order written")
    func orderedSpillIsNotMerged() throws {
        let spill = FingerprintKeySpill(sealing: nil, ordered: true)
        let keys = (0..<UInt64(5_000)).map { $0 * 3 }
        for first in stride(from: 0, to: keys.count, by: 50) {
            try keys[first..<first + 50].withUnsafeBufferPointer { try spill.write($0) }
        }
        #expect(spill.stretchCount == 100)
        var read = FingerprintKeySpill.WrittenKeys(spill)
        var back: [UInt64] = []
        while let key = try read.next() { back.append(key) }
        #expect(back == keys)
    }

    @Test("The merged stretches' room in the scratch file is given back")
    func mergedRoomGivenBack() throws {
        let spill = FingerprintKeySpill(sealing: nil)
        let written = Self.stretches(FingerprintKeySpill.fanIn, longest: 8_192, seed: 5)
        for stretch in written { try stretch.withUnsafeBufferPointer { try spill.write($0) } }
        #expect(spill.stretchCount == 1)
        let file = try #require(spill.file)
        var status = stat()
        #expect(fstat(file.rawValue, &status) == 0)
        let keyBytes = written.reduce(0) { $0 + $1.count * 8 }
        #expect(Int(status.st_size) >= 2 * keyBytes)
        // A file system without holes keeps the bytes; the test's scratch directory has them.
        #expect(Int(status.st_blocks) * 512 < keyBytes + keyBytes / 2, "\(status.st_blocks) blocks for \(keyBytes) bytes of keys")
        var merged: [UInt64] = []
        try spill.merge(with: UnsafeBufferPointer(start: nil, count: 0)) { merged.append($0) }
        #expect(merged == written.flatMap { $0 }.sorted())
    }
}

import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// ``DeletedAddIndex`` written a block at a time: after an append, the old sidecar's
/// entries are merged with the append's deleted adds as both are read in order, so the
/// store's deleted adds are never all in memory, and the file is the one the whole list
/// gives.
@Suite("Deleted-add index extended a block at a time")
struct DeletedAddIndexExtendTests {
    @Test("A file written entry by entry is the file encoded from the whole list, byte for byte, at every block boundary", arguments: [0, 1, 1_023, 1_024, 1_025, 3_000])
    func streamedIsEncoded(count: Int) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let layout = StoreLayout(directory: dir.path)
        let binding = LogBinding(storeID: StoreID.random(), check: 3)
        let entries = (0..<count).map { 5 + UInt64($0) * 7 }
        try DeletedAddIndex.write(layout, entries, coveredSeq: 90_000, binding: binding, cipher: nil)
        #expect(try ByteSurgery.read(DeletedAddIndex.path(layout)) == DeletedAddIndex.encoded(entries, coveredSeq: 90_000, binding: binding, cipher: nil))
    }

    @Test("Extending a sidecar of several blocks with an append's deleted adds, interleaved, lists them all in order, each old block read once and none kept", arguments: [false, true])
    func extendMerges(encrypted: Bool) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let layout = StoreLayout(directory: dir.path)
        let cipher = encrypted ? try SealedDerivedFileTests.cipher() : nil
        let binding = LogBinding(storeID: cipher?.storeID ?? StoreID.random(), check: 3)
        let old = (0..<5_000).map { 3 + UInt64($0) * 6 }
        try DeletedAddIndex.write(layout, old, coveredSeq: 40_000, binding: binding, cipher: cipher)
        let index = try #require(DeletedAddIndex.open(layout, cipher: cipher))
        let spill = DeletedAddSpill(sealing: encrypted ? try ScratchCipher.forProcess() : nil, residentSeqs: 100)
        var random = SeededRandom(state: 9)
        var added: Set<UInt64> = []
        while added.count < 700 {
            let seq = random.next() % 45_000 + 1
            guard seq % 6 != 3, added.insert(seq).inserted else { continue }
            try spill.append(seq)
        }
        let after = LogBinding(storeID: binding.storeID, check: 4)
        try DeletedAddIndex.extend(layout, before: .index(index), adding: spill.count, spill.forEachSorted, to: 45_000, binding: after, cipher: cipher)
        let all = (old + added).sorted()
        let extended = try #require(DeletedAddIndex.open(layout, cipher: cipher))
        #expect((extended.coveredSeq, extended.count, extended.binding) == (45_000, all.count, after))
        #expect(try extended.allEntries() == all)
        if !encrypted {
            #expect(try ByteSurgery.read(DeletedAddIndex.path(layout)) == DeletedAddIndex.encoded(all, coveredSeq: 45_000, binding: after, cipher: nil))
        }
        #expect(index.blocksRead == index.blockCount, "every old block read once")
        #expect(try index.block(0).count == DeletedAddIndex.blockEntries && index.blocksRead == index.blockCount + 1, "and not kept")
    }

    @Test("An add in both the old sidecar and the append's deletes leaves the old sidecar and no temporary file")
    func repeatedAddLeavesTheOldFile() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let layout = StoreLayout(directory: dir.path)
        let binding = LogBinding(storeID: StoreID.random(), check: 3)
        try DeletedAddIndex.write(layout, [1, 5, 9], coveredSeq: 20, binding: binding, cipher: nil)
        let before = try ByteSurgery.read(DeletedAddIndex.path(layout))
        let index = try #require(DeletedAddIndex.open(layout, cipher: nil))
        let spill = DeletedAddSpill(sealing: nil)
        try spill.append(12)
        try spill.append(5)
        #expect(throws: HealthLogError.self) {
            try DeletedAddIndex.extend(layout, before: .index(index), adding: spill.count, spill.forEachSorted, to: 30, binding: binding, cipher: nil)
        }
        #expect(try ByteSurgery.read(DeletedAddIndex.path(layout)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path + "/uuids") == ["deleted-adds"])
    }
}

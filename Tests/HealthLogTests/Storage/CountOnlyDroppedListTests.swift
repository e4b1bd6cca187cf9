import HealthLogTestSupport
import Testing
@testable import HealthLog

/// A snapshot keeps each header's dropped list as its count (a compacted store's lists are
/// 24 bytes a dropped event, most of a reader's memory); those who read the events take
/// the header again from the segment.
@Suite("Dropped lists kept as counts")
struct CountOnlyDroppedListTests {
    @Test("A snapshot of a compacted store, from the indexes or from a walk, keeps each dropped list as its count and gives the header whole again from the segment, as a writer's snapshot keeps it; an index written from it lists the same entries, plaintext and encrypted", arguments: [false, true])
    func countsAndWholeHeaders(encrypted: Bool) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let keys: [UInt32: SecretBytes] = [0: try SecretBytes.random(count: 32)]
        let options = EncryptedSegmentTests.smallSegments
        let store = encrypted ? try EncryptedSegmentTests.makeStore(dir.file("store"), options: options, keys: keys) : HealthStore(directory: dir.file("store"), options: options)
        _ = try store.append(ndjson: CompactionTests.lines(1...1400))
        _ = try store.append(ndjson: CompactionTests.lines(1401...1500, deleting: [3, 8, 1450]))
        _ = try store.compact(horizon: .anchor(try store.headAnchor()))
        let layout = store.layout
        let writer = try LogSnapshot(layout, keepingDroppedLists: true)
        let whole = try writer.allBatches()
        #expect(whole.reduce(0) { $0 + $1.header.dropped.count } == 6)
        #expect(whole.allSatisfy { !$0.header.dropped.isCountOnly })
        for snapshot in [try LogSnapshot(layout), try LogSnapshot(layout, usingIndexes: false)] {
            let batches = try snapshot.allBatches()
            #expect(batches.count == whole.count)
            #expect(batches.filter { !$0.header.dropped.isEmpty }.allSatisfy { $0.header.dropped.isCountOnly })
            #expect(batches.map(\.header.dropped.count) == whole.map(\.header.dropped.count))
            for (batch, expected) in zip(batches, whole) {
                #expect(try snapshot.fullHeader(of: batch) == expected.header)
            }
            #expect(try snapshot.wasDropped(3) && snapshot.wasDropped(1450) && !snapshot.wasDropped(4))
        }
        // An index written from a walk's batches (a plaintext one's with count-only lists,
        // each payload read back) lists what the index written by `compact` lists.
        let walk = try LogSnapshot(layout, usingIndexes: false)
        for (segment, file) in walk.segments.enumerated() {
            let before = try #require(SegmentIndex.read(layout, file.name))
            try SegmentIndex.write(layout, name: file.name, batches: walk.batchesForIndex(inSegment: segment), cipher: walk.cipher)
            #expect(SegmentIndex.read(layout, file.name)?.entries == before.entries)
        }
        #expect(try store.verify().isSound)
    }

    @Test("A count-only list counts and tells empty from not, equals only a count-only list of its count, and its whole form is the list it was made from")
    func countOnly() {
        let list = BatchHeader.DroppedList([
            BatchHeader.Dropped(seq: 4, isDelete: false, uuid: SampleUUID(high: 1, low: 2)),
            BatchHeader.Dropped(seq: 9, isDelete: true, uuid: SampleUUID(high: 1, low: 2)),
        ])
        let counted = list.countOnly()
        #expect(counted.isCountOnly && counted.count == 2 && !counted.isEmpty)
        #expect(counted != list && counted == list.countOnly())
        #expect(!BatchHeader.DroppedList([]).countOnly().isCountOnly)
        #expect(!list.isCountOnly && list.count == 2 && list.contains(seq: 9))
    }
}

extension CountOnlyDroppedListTests {
    @Test("A compacted segment whose sealed copy's directory is past the reader bound is read from its batches' own tables, one at a time: the copy is not opened, and the replay holds the events compaction kept")
    func largeCopyLeft() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let keys: [UInt32: SecretBytes] = [0: try SecretBytes.random(count: 32)]
        let store = try EncryptedSegmentTests.makeStore(dir.file("store"), keys: keys)
        _ = try store.append(ndjson: CompactionTests.lines(1...100_000))
        _ = try store.append(ndjson: CompactionTests.lines(100_001...100_002, deleting: Array(1...90_000)))
        _ = try store.compact(horizon: .anchor(try store.headAnchor()))
        let (name, index) = try #require(try SealedTableCopyTests.indexes(store).last)
        #expect(!index.sealedCopy.isEmpty)
        #expect(!index.sealedCopy.withUnsafeBytes { OpenedTableCopy.isWithinReaderBound($0, header: index.copyHeader) }, "\(index.sealedCopy.count) bytes of copy")

        let handle = try EncryptedSegmentTests.handle(store, keys: keys, current: 0)
        let cipher = try #require(try handle.layout.cipher(try StoreMeta.read(handle.layout)))
        let replayed = try CompactionTests.raw(handle)
        #expect(cipher.openedCount(.derivedFile) == 0, "no unit of the copy of \(name.fileName) opened")
        #expect(cipher.openedCount(.batchTable) >= index.entries.count)
        #expect(replayed.count == 10_002)
        #expect(replayed.first?.contains(CompactionTests.uuid(90_001)) == true, "\(replayed.first ?? "")")
        #expect(try handle.verify().isSound)
    }
}

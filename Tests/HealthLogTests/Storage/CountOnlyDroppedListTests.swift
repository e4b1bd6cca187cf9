import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// A snapshot keeps each header's dropped list as its count (a compacted store's lists are
/// 24 bytes a dropped event, most of a reader's memory); those who read the events take
/// the header again from the segment.
@Suite("Dropped lists kept as counts")
struct CountOnlyDroppedListTests {
    @Test("A snapshot of a compacted store, from the indexes or from a walk, keeps each dropped list as its count and gives the header whole again from the segment; an index written from it lists the same entries, plaintext and encrypted", arguments: [false, true])
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
        let walked = try LogSnapshot(layout, usingIndexes: false)
        let whole = try walked.allBatches().map { batch in
            var whole = batch
            whole.header = try walked.fullHeader(of: batch)
            return whole
        }
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
            try SegmentIndex.write(layout, name: file.name, batches: walk.batches(inSegment: segment), cipher: walk.cipher)
            #expect(SegmentIndex.read(layout, file.name)?.entries == before.entries)
        }
        #expect(try store.verify().isSound)
    }

    @Test("A compacted last segment no checkpoint vouches for is taken from a walk of its index, never its index read whole, plaintext and encrypted", arguments: [false, true])
    func lastSegmentWalked(encrypted: Bool) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let keys: [UInt32: SecretBytes] = [0: try SecretBytes.random(count: 32)]
        let store = encrypted ? try EncryptedSegmentTests.makeStore(dir.file("store"), keys: keys) : HealthStore(directory: dir.file("store"))
        _ = try store.append(ndjson: CompactionTests.lines(1...1400))
        _ = try store.append(ndjson: CompactionTests.lines(1401...1500, deleting: Array(1...1400)))
        _ = try store.compact(horizon: .anchor(try store.headAnchor()))
        let layout = store.layout
        #expect(try LogSnapshot(layout).segments.count == 1)
        try FileManager.default.removeItem(atPath: dir.file("store/checkpoint"))
        let walked = try LogSnapshot(layout, usingIndexes: false)
        let opened = try LogSnapshot(layout)
        #expect(opened.segmentsNeedingIndex.isEmpty)
        let batches = try opened.allBatches()
        #expect(batches.map(\.offset) == (try walked.allBatches()).map(\.offset))
        #expect(batches.reduce(0) { $0 + $1.header.dropped.count } == 2800)
        #expect(try store.verify().isSound)
        #expect(try store.append(ndjson: CompactionTests.lines(1501...1502)).added == 2)
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
    /// An encrypted store of 100,000 heart rates, 90,000 of them deleted, compacted: 180,000
    /// dropped events in its last segment's batch headers; its key.
    static func compactedStore(_ dir: TemporaryDirectory) throws -> (HealthStore, [UInt32: SecretBytes]) {
        let keys: [UInt32: SecretBytes] = [0: try SecretBytes.random(count: 32)]
        let store = try EncryptedSegmentTests.makeStore(dir.file("store"), keys: keys)
        _ = try store.append(ndjson: CompactionTests.lines(1...100_000))
        _ = try store.append(ndjson: CompactionTests.lines(100_001...100_002, deleting: Array(1...90_000)))
        _ = try store.compact(horizon: .anchor(try store.headAnchor()))
        return (store, keys)
    }

    @Test("A compacted segment's sealed copy holds its dropped lists' counts, not the lists: it stays small, a reader takes every table from it, counts and all, each list is read whole from its batch's own table, and a writer still refuses a compacted UUID")
    func copyOfCounts() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (store, keys) = try Self.compactedStore(dir)
        let (name, index) = try #require(try SealedTableCopyTests.indexes(store).last)
        #expect(SegmentIndex.isCopyOfCounts(index.copyHeader))
        // The lists alone would take 180,000 × 24 bytes.
        #expect(!index.sealedCopy.isEmpty && index.sealedCopy.count < 100_000, "\(index.sealedCopy.count) bytes of copy")

        let handle = try EncryptedSegmentTests.handle(store, keys: keys, current: 0)
        let cipher = try #require(try handle.layout.cipher(try StoreMeta.read(handle.layout)))
        let replayed = try CompactionTests.raw(handle)
        #expect(cipher.openedCount(.derivedFile) > 0, "the copy of \(name.fileName) opened")
        let segments = try SealedTableCopyTests.indexes(store).count
        #expect(cipher.openedCount(.batchTable) <= segments, "a table for each segment's last-batch check")
        #expect(replayed.count == 10_002)
        #expect(replayed.first?.contains(CompactionTests.uuid(90_001)) == true, "\(replayed.first ?? "")")

        let reader = try LogSnapshot(handle.layout)
        let kept = try reader.allBatches()
        #expect(kept.reduce(0) { $0 + $1.header.dropped.count } == 180_000)
        #expect(kept.filter { !$0.header.dropped.isEmpty }.allSatisfy { $0.header.dropped.isCountOnly })
        let tables = cipher.openedCount(.batchTable)
        let whole = try kept.map { try reader.fullHeader(of: $0) }
        #expect(whole.map(\.dropped.count) == kept.map(\.header.dropped.count))
        #expect(whole.allSatisfy { !$0.dropped.isCountOnly } && Set(whole.flatMap { $0.dropped.map(\.seq) }).count == 180_000)
        #expect(cipher.openedCount(.batchTable) - tables == kept.filter { !$0.header.dropped.isEmpty }.count, "each list from its batch's own table")
        // A compacted UUID stays refused by the writer, whose snapshot keeps counts too.
        let refused = #expect(throws: HealthLogError.self) { try handle.append(ndjson: CompactionTests.lines(5...5)) }
        #expect(refused?.message.contains("belonged to a deleted sample") == true, "\(refused?.message ?? "")")
        #expect(try handle.verify().isSound)
    }

    @Test("A copy that lists the dropped events, as earlier builds wrote it, is still read; one whose directory is past the reader bound is left, and the batches' own tables are opened one at a time")
    func largeListingCopyLeft() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (store, keys) = try Self.compactedStore(dir)
        let layout = store.layout
        let snapshot = try LogSnapshot(layout, usingIndexes: false)
        let segment = snapshot.segments.count - 1
        let name = snapshot.segments[segment].name
        let whole = try snapshot.batches(inSegment: segment).map { batch in
            var whole = batch
            whole.header = try snapshot.fullHeader(of: batch)
            return whole
        }
        try SegmentIndex.write(layout, name: name, batches: whole, cipher: snapshot.cipher, listingDropped: true)
        let index = try #require(SegmentIndex.read(layout, name))
        #expect(!SegmentIndex.isCopyOfCounts(index.copyHeader) && SegmentIndex.isCopyByType(index.copyHeader))
        #expect(!index.sealedCopy.withUnsafeBytes { OpenedTableCopy.isWithinReaderBound($0, header: index.copyHeader) }, "\(index.sealedCopy.count) bytes of copy")

        let handle = try EncryptedSegmentTests.handle(store, keys: keys, current: 0)
        let cipher = try #require(try handle.layout.cipher(try StoreMeta.read(handle.layout)))
        let replayed = try CompactionTests.raw(handle)
        #expect(cipher.openedCount(.derivedFile) == 0, "no unit of the copy of \(name.fileName) opened")
        #expect(cipher.openedCount(.batchTable) >= index.entries.count)
        #expect(replayed.count == 10_002)
        // `verify` leaves it too, and says so; `reindex` writes the copy of counts.
        let report = try handle.verify()
        #expect(report.isSound && report.notes.contains { $0.contains("segments/\(name.fileName.dropLast(".log.lz4".count)).idx: its sealed copy of the tables is past what readers open") }, "\(report.notes)")
        _ = try handle.reindex()
        #expect(SegmentIndex.isCopyOfCounts(try #require(SegmentIndex.read(layout, name)).copyHeader))
        #expect(try handle.verify().notes.isEmpty)
    }
}

extension CountOnlyDroppedListTests {
    @Test("The whole headers a snapshot keeps for those who read the lists stay within their budget of list and header bytes, the oldest going first; one header past it is kept alone")
    func wholeHeadersBudget() {
        /// A header of `events` dropped events.
        func header(_ events: Int) -> BatchHeader {
            let dropped = (1...events).map { BatchHeader.Dropped(seq: UInt64($0), isDelete: false, uuid: SampleUUID(high: 1, low: UInt64($0))) }
            return BatchHeader(storeTag: 1, flags: 0, firstSeq: 1, lastSeq: UInt64(events), appendedMillis: 0, groups: [], dropped: BatchHeader.DroppedList(dropped))
        }
        let quarter = (WholeHeaders.budget / 4 - WholeHeaders.headerBytes) / BatchHeader.DroppedList.stride
        var kept = WholeHeaders()
        for k in 0..<5 { kept.keep(header(quarter), segment: 0, offset: k) }
        #expect(kept.header(segment: 0, offset: 0) == nil)
        #expect((1..<5).allSatisfy { kept.header(segment: 0, offset: $0)?.dropped.count == quarter })
        kept.keep(header(5 * quarter), segment: 1, offset: 0)
        #expect((0..<5).allSatisfy { kept.header(segment: 0, offset: $0) == nil })
        #expect(kept.header(segment: 1, offset: 0)?.dropped.count == 5 * quarter)
        // Headers of short lists count their fields too: 10,000 of one event each are not all kept.
        var short = WholeHeaders()
        for k in 0..<10_000 { short.keep(header(1), segment: 2, offset: k) }
        let fit = WholeHeaders.budget / (WholeHeaders.headerBytes + BatchHeader.DroppedList.stride)
        #expect(short.header(segment: 2, offset: 9_999) != nil && short.header(segment: 2, offset: 9_999 - fit) == nil)
    }
}

import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// Only a writer's batches keep a sealed header's stored payload; an index written from
/// anyone else's (a walk's, as `verify`, `reindex`, `recover` and `compact` make) reads
/// each one back from its segment.
@Suite("Stored header payloads read back for an index")
struct StoredHeaderPayloadsTests {
    @Test("An index written from a walk's batches, which keep no payload and their dropped lists as counts, lists the entries the writer's index listed, and its sealed copy gives every batch its table with its list's count")
    func readBack() throws {
        let fixture = try SealedTableCopyTests.Fixture()
        defer { fixture.dir.remove() }
        _ = try fixture.store.compact(horizon: .anchor(try fixture.store.headAnchor()))
        let layout = fixture.store.layout
        let before = try fixture.indexes()
        let (_, cipher) = try fixture.fresh()
        let snapshot = try LogSnapshot(layout, usingIndexes: false)
        #expect(before.count == snapshot.segments.count && before.count > 2)
        for (segment, (name, index)) in before.enumerated() {
            let batches = try snapshot.batches(inSegment: segment)
            #expect(batches.allSatisfy { $0.header.isSealed && $0.sealedPayload == nil && $0.header.dropped.isCountOnly == !$0.header.dropped.isEmpty })
            try ByteSurgery.remove(SegmentIndex.path(layout, name))
            try SegmentIndex.write(layout, name: name, batches: batches, cipher: cipher)
            let written = try #require(SegmentIndex.read(layout, name))
            #expect(written.entries == index.entries, "\(name.fileName)")
            let copy = try #require(written.openedCopy(cipher))
            for (k, entry) in written.entries.enumerated() {
                let table = copy.table(k, payload: entry.payload)
                #expect(table?.groups == batches[k].header.groups)
                // The copy holds each dropped list's count, which is all a count-only list has.
                #expect(table?.listsDropped == false && table?.tail.elementsEqual(batches[k].header.encodedTableTail(listingDropped: false)) == true)
            }
        }
        #expect(try LogSnapshot(layout, usingIndexes: false).allBatches().contains { $0.header.dropped.isCountOnly })
        #expect(try fixture.store.verify().problems.isEmpty)
    }

    @Test("A batch header no longer where its batch lies stops the index write naming the segment and byte; the index before stays and no temporary is left")
    func headerGone() throws {
        let fixture = try SealedTableCopyTests.Fixture()
        defer { fixture.dir.remove() }
        let layout = fixture.store.layout
        let (name, _) = try #require(try fixture.indexes().first)
        let snapshot = try LogSnapshot(layout, usingIndexes: false)
        let batches = try snapshot.batches(inSegment: 0)
        let batch = try #require(batches.dropFirst().first)
        let indexBytes = try ByteSurgery.read(SegmentIndex.path(layout, name))
        try ByteSurgery.flip(layout.segment(baseSeq: name.baseSeq, generation: name.generation), at: batch.offset)
        let (_, cipher) = try fixture.fresh()
        let error = #expect(throws: HealthLogError.self) {
            try SegmentIndex.write(layout, name: name, batches: batches, cipher: cipher)
        }
        #expect(error?.code == .corrupt)
        #expect(error?.message.contains("segments/\(name.fileName) at byte \(batch.offset)") == true, "\(error?.message ?? "")")
        #expect(try ByteSurgery.read(SegmentIndex.path(layout, name)) == indexBytes)
        #expect(!FileManager.default.fileExists(atPath: SegmentIndex.path(layout, name) + DurableFile.temporarySuffix))
    }
}

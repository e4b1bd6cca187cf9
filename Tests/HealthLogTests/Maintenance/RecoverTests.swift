import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// `recover`: each kind of damage done with byte surgery, and exactly which events come
/// back and which sequence ranges are reported lost.
@Suite("Recover")
struct RecoverTests {
    /// A store of 300 heart rates in five synced appends, spread over several small
    /// segments, and where each segment's batches are.
    struct Fixture {
        /// The scratch directory.
        let dir: TemporaryDirectory
        /// The store that gets damaged.
        let store: HealthStore
        /// Its segments in order: path and batches.
        let segments: [(path: String, batches: [BatchRef])]
        /// Its identity.
        let storeID: StoreID

        init() throws {
            dir = try TemporaryDirectory()
            var options = StoreOptions()
            options.segmentBytes = 3_000
            options.batchBytes = 2_000
            store = HealthStore(directory: dir.file("store"), options: options)
            for k in 0..<5 { _ = try store.append(ndjson: RestoreFixture.lines(60, from: k * 60)) }
            let layout = StoreLayout(directory: dir.file("store"))
            let snapshot = try LogSnapshot(layout, usingIndexes: false)
            segments = try snapshot.segments.indices.map { index in
                let name = snapshot.segments[index].name
                return (layout.segment(baseSeq: name.baseSeq, generation: name.generation), try snapshot.batches(inSegment: index))
            }
            storeID = snapshot.meta.storeID
        }

        /// The recovered store.
        var copy: HealthStore { HealthStore(directory: dir.file("recovered")) }

        /// Recovers into `recovered`.
        func recover() throws -> RecoverReport { try store.recover(to: dir.file("recovered")) }

        /// The numbers of `batches`, as one range.
        static func range(_ batches: ArraySlice<BatchRef>) -> ClosedRange<UInt64> {
            batches.first!.header.firstSeq...batches.last!.header.lastSeq
        }

        /// 1...300 without `lost`.
        static func kept(without lost: [ClosedRange<UInt64>]) -> [UInt64] {
            (1...300).filter { seq in !lost.contains { $0.contains(seq) } }
        }

        /// Checks what every recovered store must be: verified clean, private, of the same
        /// identity, holding exactly `1...head` less `lost` under their own numbers.
        func expectRecovered(_ report: RecoverReport, lost: [ClosedRange<UInt64>], keeping head: UInt64 = 300, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let kept = Self.kept(without: lost).filter { $0 <= head }
            #expect(report.lost == lost, sourceLocation: sourceLocation)
            #expect(try RestoreFixture.seqs(copy) == kept, sourceLocation: sourceLocation)
            #expect(report.events == UInt64(kept.count), sourceLocation: sourceLocation)
            let check = try copy.verify()
            #expect(check.isSound, "\(check.problems)", sourceLocation: sourceLocation)
            #expect(try StoreMeta.read(StoreLayout(directory: dir.file("recovered"))).storeID == storeID, sourceLocation: sourceLocation)
            #expect(try ByteSurgery.mode(dir.file("recovered")) == 0o700, sourceLocation: sourceLocation)
            for name in try FileManager.default.contentsOfDirectory(atPath: dir.file("recovered/segments")) {
                #expect(try ByteSurgery.mode(dir.file("recovered/segments/" + name)) == 0o600, "\(name)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test("A sound store comes back whole: nothing lost, nothing unreadable, every event under its own number")
    func soundStore() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        #expect(fixture.segments.count >= 4)
        let report = try fixture.recover()
        try fixture.expectRecovered(report, lost: [])
        #expect(report.unreadable.isEmpty && report.tornTail == nil && report.isComplete)
        #expect(try fixture.copy.headAnchor() == fixture.store.headAnchor())
        let segments = try FileManager.default.contentsOfDirectory(atPath: fixture.dir.file("recovered/segments")).filter { $0.hasSuffix(".log.lz4") }
        #expect(segments.count >= fixture.segments.count - 1, "segments are cut at the handle's segment size: \(segments)")
    }

    @Test("A flipped byte inside a frame loses exactly its batch; the store is left as it was and the range is a gap anchors respect")
    func flippedFrameByte() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let (path, batches) = fixture.segments[1]
        let hit = batches[1]
        let before = try RestoreFixture.tree(fixture.dir.file("store"))
        try ByteSurgery.flip(path, at: hit.groupOffsets[0] + 10)
        let damaged = try RestoreFixture.tree(fixture.dir.file("store"))
        let report = try fixture.recover()
        let lost = Fixture.range(batches[1...1])
        try fixture.expectRecovered(report, lost: [lost])
        #expect(try RestoreFixture.tree(fixture.dir.file("store")) == damaged, "recover writes nothing into the damaged store")
        #expect(damaged != before)
        let region = try #require(report.unreadable.first)
        #expect(report.unreadable.count == 1)
        #expect(region.file == "segments/" + (path as NSString).lastPathComponent && region.offset == hit.offset && region.length == hit.end - hit.offset)
        #expect(region.seqs == lost && region.reason.contains("frame checksum"))
        let inside = QueryAnchor(fromValue: lost.lowerBound)
        #expect(throws: HealthLogError.self) { try RestoreFixture.seqs(fixture.copy, from: inside) }
        #expect(try RestoreFixture.seqs(fixture.copy, from: QueryAnchor(fromValue: lost.lowerBound - 1)) == Array(lost.upperBound + 1...300))
    }

    @Test("A flipped byte in a batch header loses that batch: the walk picks up at the next sound header")
    func flippedHeaderByte() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let (path, batches) = fixture.segments[2]
        try ByteSurgery.flip(path, at: batches[0].offset + 20)
        let report = try fixture.recover()
        try fixture.expectRecovered(report, lost: [Fixture.range(batches[0...0])])
        #expect(report.unreadable.count == 1 && report.unreadable[0].offset == batches[0].offset && report.unreadable[0].seqs == nil)
        #expect(report.unreadable[0].length == batches[0].end - batches[0].offset)
    }

    @Test("A zeroed region across two batches loses both, reported as one range")
    func zeroedRegion() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let (path, batches) = fixture.segments[1]
        try #require(batches.count >= 3)
        let start = batches[0].groupOffsets[0] + 4
        try ByteSurgery.patch(path, at: start, with: [UInt8](repeating: 0, count: batches[1].offset + 30 - start))
        let report = try fixture.recover()
        try fixture.expectRecovered(report, lost: [Fixture.range(batches[0...1])])
        #expect(report.unreadable.map(\.offset) == [batches[0].offset, batches[1].offset])
    }

    @Test("A truncated sealed segment loses the batches from the cut to its end")
    func truncatedSegment() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let (path, batches) = fixture.segments[1]
        try ByteSurgery.truncate(path, to: batches[1].groupOffsets[0] + 10)
        let report = try fixture.recover()
        try fixture.expectRecovered(report, lost: [Fixture.range(batches[1...])])
        #expect(report.unreadable.count == 1 && report.unreadable[0].reason.contains("past the end of the file"))
    }

    @Test("A deleted segment in the middle loses exactly its numbers")
    func deletedSegment() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        try ByteSurgery.remove(fixture.segments[2].path)
        let report = try fixture.recover()
        try fixture.expectRecovered(report, lost: [Fixture.range(fixture.segments[2].batches[...])])
        #expect(report.unreadable.isEmpty)
    }

    @Test("A garbage segment header loses nothing: the batches behind it are sound")
    func garbageHeader() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let path = fixture.segments[1].path
        try ByteSurgery.patch(path, at: 0, with: [UInt8](repeating: 0xAB, count: SegmentLayout.prologueLength))
        #expect(try !fixture.store.verify().isSound)
        let report = try fixture.recover()
        try fixture.expectRecovered(report, lost: [])
        #expect(report.unreadable.count == 1 && report.unreadable[0].offset == 0 && report.unreadable[0].length == SegmentLayout.prologueLength)
    }

    @Test("A damaged meta and checkpoint: the identity comes from the segment headers and nothing is lost")
    func damagedMetaAndCheckpoint() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        try ByteSurgery.write(Array("garbage\n".utf8), to: fixture.dir.file("store/meta"))
        try ByteSurgery.flip(fixture.dir.file("store/checkpoint"), at: 10)
        let report = try fixture.recover()
        try fixture.expectRecovered(report, lost: [])
        #expect(report.notes.contains { $0.contains("segment header") } && report.notes.contains { $0.contains("checkpoint") })
    }

    @Test("A truncated last segment loses the acknowledged tail; the next append is numbered above everything the store issued")
    func truncatedTail() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let (path, batches) = fixture.segments[fixture.segments.count - 1]
        let last = batches[batches.count - 1]
        try ByteSurgery.truncate(path, to: last.groupOffsets[0] + 10)
        let report = try fixture.recover()
        try fixture.expectRecovered(report, lost: [last.header.firstSeq...300])
        #expect(report.headSeq == last.header.firstSeq - 1)
        #expect(throws: HealthLogError.self) { try RestoreFixture.seqs(fixture.copy, from: QueryAnchor(fromValue: 300)) }
        let appended = try fixture.copy.append(ndjson: RestoreFixture.lines(1, from: 300))
        #expect(appended.anchor.seq > 300)
        #expect(try fixture.copy.verify().isSound)
    }

    @Test("Without a checkpoint, the batches of an append whose last batch is gone are a torn tail: left out, not lost")
    func tornTailWithoutCheckpoint() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let path = fixture.segments[fixture.segments.count - 1].path
        let all = fixture.segments.flatMap(\.batches)
        let last = all[all.count - 1]
        try #require(!all[all.count - 2].header.isEndOfAppend)
        try ByteSurgery.remove(fixture.dir.file("store/checkpoint"))
        try ByteSurgery.truncate(path, to: last.groupOffsets[0] + 10)
        let report = try fixture.recover()
        let torn = try #require(report.tornTail)
        #expect(torn == 241...(last.header.firstSeq - 1))
        try fixture.expectRecovered(report, lost: [], keeping: 240)
    }

    @Test("A destination that is not empty is refused as bad usage and left alone")
    func nonEmptyDestination() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        try FileManager.default.createDirectory(atPath: fixture.dir.file("recovered"), withIntermediateDirectories: false)
        try ByteSurgery.write([1, 2, 3], to: fixture.dir.file("recovered/x"))
        #expect(throws: HealthLogError(.badUsage, "\(fixture.dir.file("recovered")) is not empty; recover into a new or empty directory")) {
            try fixture.recover()
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.dir.file("recovered")) == ["x"])
        #expect(throws: HealthLogError.self) { try fixture.store.recover(to: fixture.dir.file("store/segments")) }
    }

    @Test("An empty destination directory is used")
    func emptyDestination() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        try FileManager.default.createDirectory(atPath: fixture.dir.file("recovered"), withIntermediateDirectories: false)
        try fixture.expectRecovered(try fixture.recover(), lost: [])
    }
}

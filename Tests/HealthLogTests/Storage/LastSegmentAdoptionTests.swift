import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// Opening a store takes its last segment on its sidecar index's word only when the index,
/// the checkpoint and the file end at the same batch; every other state of that segment
/// (made here by file surgery on a real store) is walked and answers exactly what walking
/// every header answers: the same events, the same torn tail, the same damage.
@Suite("Taking the last segment on its index's word")
struct LastSegmentAdoptionTests {
    /// What identifies a batch reference, for comparing two snapshots' answers.
    private static func describe(_ batches: [BatchRef]) -> [String] {
        batches.map { "\($0.segment) \($0.offset) \($0.end) \($0.groupOffsets) \($0.header)" }
    }

    /// The second append's sidecar index of the last segment, and the index and checkpoint
    /// the first append left.
    private struct Sidecars {
        var path: String
        var current: [UInt8]
        var first: [UInt8]
        var firstCheckpoint: [UInt8]

        init(_ fixture: CorruptionFixture) throws {
            let layout = StoreLayout(directory: fixture.storePath)
            let snapshot = try LogSnapshot(layout)
            let name = try #require(snapshot.segments.last).name
            path = SegmentIndex.path(layout, name)
            current = try ByteSurgery.read(path)
            let relative = String(path.dropFirst(fixture.storePath.count + 1))
            first = try #require(fixture.firstImage[relative], "the first append wrote to the last segment")
            firstCheckpoint = fixture.firstCheckpoint
        }
    }

    @Test("A store as an append left it opens without walking: every segment on its index's word, the same batches from every anchor")
    func intactStoreAdopted() throws {
        for shape in CorruptionFixture.Shape.allCases {
            let fixture = try CorruptionFixture(shape)
            defer { fixture.dir.remove() }
            let layout = StoreLayout(directory: fixture.storePath)
            let snapshot = try LogSnapshot(layout)
            #expect(snapshot.prefixSegmentCount == snapshot.segments.count, "\(shape)")
            let walked = try LogSnapshot(layout, usingIndexes: false)
            #expect(snapshot.headSeq == walked.headSeq && snapshot.tornTail == nil)
            #expect(snapshot.appendPoint?.segment == walked.appendPoint?.segment && snapshot.appendPoint?.offset == walked.appendPoint?.offset)
            for seq in 0...walked.headSeq {
                #expect(Self.describe(try LogSnapshot(layout).batches(after: seq)) == Self.describe(try walked.batches(after: seq)), "\(shape) from \(seq)")
            }
            #expect(try CorruptionFixture.replay(fixture.store) == fixture.bothLines)
            let summary = try fixture.appendThird()
            #expect(summary.recoveredTail == nil)
            #expect(CorruptionFixture.seqs(try CorruptionFixture.replay(fixture.store)) == CorruptionFixture.seqs(fixture.bothLines) + [12, 13])
            #expect(try fixture.store.verify().isSound)
        }
    }

    @Test("A sidecar one append behind the segment and the checkpoint: the segment is walked, nothing acknowledged is missing, the writer continues")
    func sidecarStaleByOneAppend() throws {
        let fixture = try CorruptionFixture()
        defer { fixture.dir.remove() }
        let sidecars = try Sidecars(fixture)
        try ByteSurgery.write(sidecars.first, to: sidecars.path)
        #expect(try LogSnapshot(StoreLayout(directory: fixture.storePath)).prefixSegmentCount == 0)
        #expect(try CorruptionFixture.replay(fixture.store) == fixture.bothLines)
        #expect(try fixture.store.headAnchor().seq == 11)
        #expect(try fixture.appendThird().recoveredTail == nil)
        #expect(CorruptionFixture.seqs(try CorruptionFixture.replay(fixture.store)) == CorruptionFixture.seqs(fixture.bothLines) + [12, 13])
        #expect(try ByteSurgery.read(sidecars.path) != sidecars.first, "the writer rewrote the stale index")
        #expect(try fixture.store.verify().isSound)
    }

    @Test("A crash after the segment write, before the checkpoint and the sidecar: the finished append is read (its frames checked), as a walk reads it")
    func crashBeforeCheckpointAndSidecar() throws {
        let fixture = try CorruptionFixture()
        defer { fixture.dir.remove() }
        try ByteSurgery.restore(try fixture.crashImage(), to: fixture.storePath)
        #expect(try CorruptionFixture.replay(fixture.store) == fixture.bothLines)
        // Its last frame damaged, the unacknowledged append is a torn tail.
        let last = try #require(try fixture.batches().last)
        try ByteSurgery.flip(last.path, at: last.groupOffsets[0] + 3, mask: 0x10)
        #expect(try CorruptionFixture.replay(fixture.store) == fixture.firstLines)
        let torn = try #require(try fixture.appendThird().recoveredTail)
        #expect(torn.offset == fixture.firstEnd.offset && torn.reason == "the last append fails its frame checksum")
        #expect(CorruptionFixture.seqs(try CorruptionFixture.replay(fixture.store)) == [1, 2, 3, 4, 5, 6])
    }

    @Test("A current sidecar but a checkpoint one append behind: the unacknowledged append's frames are checked, and a damaged one is a torn tail")
    func checkpointStaleByOneAppend() throws {
        let fixture = try CorruptionFixture()
        defer { fixture.dir.remove() }
        let sidecars = try Sidecars(fixture)
        try ByteSurgery.write(sidecars.firstCheckpoint, to: fixture.storePath + "/checkpoint")
        #expect(try CorruptionFixture.replay(fixture.store) == fixture.bothLines)
        let last = try #require(try fixture.batches().last)
        try ByteSurgery.flip(last.path, at: last.groupOffsets[0] + 3, mask: 0x10)
        #expect(try ByteSurgery.read(sidecars.path) == sidecars.current)
        #expect(try CorruptionFixture.replay(fixture.store) == fixture.firstLines)
        #expect(try fixture.store.headAnchor().seq == 4)
        let torn = try #require(try fixture.appendThird().recoveredTail)
        #expect(torn.offset == fixture.firstEnd.offset && torn.reason == "the last append fails its frame checksum")
        #expect(CorruptionFixture.seqs(try CorruptionFixture.replay(fixture.store)) == [1, 2, 3, 4, 5, 6])
    }

    @Test("Bytes past the end the sidecar and the checkpoint name: the same torn tail a walk finds, which the next writer cuts")
    func segmentLongerThanSidecar() throws {
        let fixture = try CorruptionFixture()
        defer { fixture.dir.remove() }
        let layout = StoreLayout(directory: fixture.storePath)
        let last = try fixture.lastSegmentPath()
        let end = try ByteSurgery.size(last)
        let lastBatch = try #require(try fixture.batches().last)
        let image = try ByteSurgery.image(of: fixture.storePath)
        // Junk, then a copy of the last batch (a valid header, at a sequence number already used).
        for tail in [[UInt8](repeating: 0xA5, count: 37), try Array(ByteSurgery.read(last)[lastBatch.offset..<end])] {
            try ByteSurgery.restore(image, to: fixture.storePath)
            try ByteSurgery.append(tail, to: last)
            let opened = try LogSnapshot(layout)
            let walked = try LogSnapshot(layout, usingIndexes: false)
            #expect(opened.prefixSegmentCount == 0)
            #expect(opened.tornTail != nil && opened.tornTail == walked.tornTail)
            #expect(try CorruptionFixture.replay(fixture.store) == fixture.bothLines)
            let torn = try #require(try fixture.appendThird().recoveredTail)
            #expect(torn.offset == end && torn.bytes == tail.count && torn == walked.tornTail)
            #expect(CorruptionFixture.seqs(try CorruptionFixture.replay(fixture.store)) == CorruptionFixture.seqs(fixture.bothLines) + [12, 13])
        }
    }

    @Test("An acknowledged last segment cut short, even inside the last frame only, is damage naming the segment, never a shorter log")
    func truncatedSegment() throws {
        let fixture = try CorruptionFixture()
        defer { fixture.dir.remove() }
        let last = try fixture.lastSegmentPath()
        let size = try ByteSurgery.size(last)
        let lastBatch = try #require(try fixture.batches().last)
        let image = try ByteSurgery.image(of: fixture.storePath)
        for length in [size - 1, lastBatch.groupOffsets[0] + 1, lastBatch.offset + 3] {
            try ByteSurgery.restore(image, to: fixture.storePath)
            try ByteSurgery.truncate(last, to: length)
            let error = try #require(throws: HealthLogError.self) { try CorruptionFixture.replay(fixture.store) }
            #expect(error.code == .corrupt, "cut to \(length)")
            #expect(error.message.contains("\(CorruptionTests.displayPath(last)) at byte \(lastBatch.offset)"), "cut to \(length): \(error.message)")
            #expect(error.message.contains("so this is damage, not a torn tail"), "cut to \(length): \(error.message)")
        }
    }

    @Test("A flipped byte anywhere in the acknowledged last batch's header, its checksum included, is damage naming the file and offset")
    func lastHeaderFlipped() throws {
        let fixture = try CorruptionFixture()
        defer { fixture.dir.remove() }
        let target = try #require(try fixture.batches().last)
        let location = "\(CorruptionTests.displayPath(target.path)) at byte \(target.offset)"
        let image = try ByteSurgery.image(of: fixture.storePath)
        for offset in target.offset..<target.groupOffsets[0] {
            try ByteSurgery.restore(image, to: fixture.storePath)
            try ByteSurgery.flip(target.path, at: offset)
            try CorruptionTests.expectDamage(at: location, in: fixture, "flip at byte \(offset)")
        }
    }

    @Test("A sidecar of another segment of the same length and store: the segment is walked, and its own events are read")
    func sidecarFromAnotherFile() throws {
        let fixture = try CorruptionFixture()
        defer { fixture.dir.remove() }
        let twin = fixture.dir.file("twin")
        try FileManager.default.copyItem(atPath: fixture.storePath, toPath: twin)
        var options = StoreOptions()
        options.sync = true
        let other = HealthStore(directory: twin, options: options)
        let third = [CorruptionFixture.heartRate(20), CorruptionFixture.heartRate(21)]
        let changed = third.map { $0.replacingOccurrences(of: "\"value\":8", with: "\"value\":9") }
        #expect(changed != third)
        _ = try fixture.store.append(ndjson: CorruptionFixture.ndjson(third))
        _ = try other.append(ndjson: CorruptionFixture.ndjson(changed))
        let expected = try CorruptionFixture.replay(fixture.store)
        let last = try fixture.lastSegmentPath()
        let twinLast = twin + "/segments/" + String(last.split(separator: "/").last!)
        try #require(try ByteSurgery.size(last) == ByteSurgery.size(twinLast), "the two appends encode to the same length")
        try #require(try ByteSurgery.read(last) != ByteSurgery.read(twinLast))
        let sidecar = String(last.dropLast(".log.lz4".count)) + ".idx"
        try ByteSurgery.write(try ByteSurgery.read(String(twinLast.dropLast(".log.lz4".count)) + ".idx"), to: sidecar)
        #expect(try LogSnapshot(StoreLayout(directory: fixture.storePath)).prefixSegmentCount == 0)
        #expect(try CorruptionFixture.replay(fixture.store) == expected)
        let report = try fixture.store.verify()
        #expect(report.problems.count == 1 && report.problems.allSatisfy { $0.contains(".idx at byte ") && $0.contains("disagrees") }, "\(report)")
        // The next writer rewrites the foreign sidecar.
        let fourth = try fixture.store.append(ndjson: CorruptionFixture.ndjson([CorruptionFixture.heartRate(30)]))
        #expect(fourth.recoveredTail == nil)
        #expect(try fixture.store.verify().isSound)
        #expect(try LogSnapshot(StoreLayout(directory: fixture.storePath)).prefixSegmentCount == 1)
    }
}

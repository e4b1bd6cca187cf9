import HealthLogTestSupport
import Testing
@testable import HealthLog

/// A query from an anchor inside a sealed segment reads only the end of that segment's
/// batch table from its sidecar index, and answers exactly what walking the headers
/// answers, also when the sidecar is damaged.
@Suite("Reading the end of a sealed segment's batch table")
struct SegmentIndexTailTests {
    /// What identifies a batch reference, for comparing two snapshots' answers.
    private static func describe(_ batches: [BatchRef]) -> [String] {
        batches.map { "\($0.segment) \($0.offset) \($0.end) \($0.groupOffsets) \($0.header)" }
    }

    /// The entries a walk of the sidecar of `name` visits after `seq` (offset and payload),
    /// or `nil` when the walk finds it unsound.
    private static func entries(
        _ layout: StoreLayout, _ name: SegmentName, after seq: UInt64, matching summary: SegmentIndex.Summary, storeTag: UInt64
    ) -> [(offset: Int, payload: [UInt8])]? {
        var entries: [(offset: Int, payload: [UInt8])] = []
        let isSound = SegmentIndex.walk(layout, name, after: seq, matching: summary, storeTag: storeTag, continues: { $0 == $1 }) { offset, payload in
            entries.append((offset, Array(payload)))
            return true
        }
        return isSound ? entries : nil
    }

    /// `batches(after:)` for every sequence number of the store, from a fresh snapshot each.
    private static func answers(_ layout: StoreLayout, usingIndexes: Bool = true) throws -> [[String]] {
        let head = try LogSnapshot(layout).headSeq
        return try (0...head).map { seq in try describe(LogSnapshot(layout, usingIndexes: usingIndexes).batches(after: seq)) }
    }

    @Test("From every anchor, the batches after it are those a walk of every header finds")
    func everyAnchor() throws {
        let scene = try IndexFixture.Scene()
        defer { scene.dir.remove() }
        let layout = StoreLayout(directory: scene.path)
        #expect(try LogSnapshot(layout).prefixSegmentCount >= 2, "sealed segments are taken on their index's word")
        let walked = try Self.answers(layout, usingIndexes: false)
        #expect(try Self.answers(layout) == walked)
        // A second, earlier question to the same snapshot is answered from the whole table.
        let snapshot = try LogSnapshot(layout)
        let head = snapshot.headSeq
        #expect(Self.describe(try snapshot.batches(after: head - 20)) == walked[Int(head) - 20])
        #expect(Self.describe(try snapshot.batches(after: 30)) == walked[30])
        #expect(Self.describe(try snapshot.batches(after: head - 10)) == walked[Int(head) - 10])
    }

    @Test("The sidecar's end lists only the batches ending after the anchor, and nothing when its header does not match")
    func entriesAfter() throws {
        let scene = try IndexFixture.Scene()
        defer { scene.dir.remove() }
        let first = try FirstSegmentOfScene(scene)
        let (layout, file, batches, summary, tag) = (first.layout, first.file, first.batches, first.summary, first.tag)
        #expect(batches.count >= 3)
        for (k, batch) in batches.enumerated() {
            let entries = try #require(Self.entries(layout, file.name, after: batch.header.lastSeq, matching: summary, storeTag: tag))
            #expect(entries.map(\.offset) == batches[(k + 1)...].map(\.offset))
            #expect(entries.map(\.payload) == batches[(k + 1)...].map { Array($0.header.encoded().dropFirst(8)) })
        }
        var other = summary
        other.lastSeq += 1
        #expect(Self.entries(layout, file.name, after: 0, matching: other, storeTag: tag) == nil)
        #expect(Self.entries(layout, file.name, after: 0, matching: summary, storeTag: tag ^ 1) == nil)
    }

    @Test("A byte changed anywhere in a sealed segment's sidecar never changes the batches after an anchor in that segment")
    func damagedSidecar() throws {
        let scene = try IndexFixture.Scene()
        defer { scene.dir.remove() }
        let first = try FirstSegmentOfScene(scene)
        let (layout, walked, name, batches) = (first.layout, first.snapshot, first.file.name, first.batches)
        let anchors = [batches[0].header.lastSeq, batches[batches.count - 2].header.lastSeq]
        let expected = try anchors.map { try Self.describe(walked.batches(after: $0)) }
        let path = SegmentIndex.path(layout, name)
        let pristine = try ByteSurgery.read(path)
        for offset in stride(from: SegmentIndex.headerLength, to: pristine.count, by: 3) {
            try ByteSurgery.write(pristine, to: path)
            try ByteSurgery.flip(path, at: offset, mask: 0x10)
            for (anchor, answer) in zip(anchors, expected) {
                #expect(Self.describe(try LogSnapshot(layout).batches(after: anchor)) == answer, "byte \(offset) changed, from \(anchor)")
            }
        }
    }
}

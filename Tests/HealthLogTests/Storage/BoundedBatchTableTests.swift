import HealthLogTestSupport
import Testing
@testable import HealthLog

/// A limited query asks the snapshot for only the batches its limit needs: of a sealed
/// segment's sidecar it decodes just those headers, and the answer is always the start of
/// what ``LogSnapshot/batches(after:)`` answers, also when the sidecar is damaged.
@Suite("The batches a limit needs")
struct BoundedBatchTableTests {
    /// What identifies a batch reference, for comparing two answers.
    private static func describe(_ batches: [BatchRef]) -> [String] {
        batches.map { "\($0.segment) \($0.offset) \($0.end) \($0.groupOffsets) \($0.header)" }
    }

    /// How many events after `seq` a batch holds (what a query without types counts).
    private static func events(_ batch: BatchRef, after seq: UInt64) -> Int {
        batch.header.groups.reduce(0) { sum, group in
            group.lastSeq <= seq ? sum : sum + (group.firstSeq > seq ? Int(group.count) : Int(group.lastSeq - seq))
        }
    }

    /// What the bounded call must answer, from the whole list of batches after `seq`: the
    /// shortest start of it whose events reach `wanted` (all of it when none does), and
    /// whether that start ends at the head.
    private static func expected(_ all: [BatchRef], after seq: UInt64, wanted: Int, head: UInt64) -> ([String], Bool) {
        var counted = 0
        for (k, batch) in all.enumerated() {
            counted += events(batch, after: seq)
            if counted >= wanted { return (describe(Array(all[...k])), batch.header.lastSeq == head) }
        }
        return (describe(all), true)
    }

    @Test("From every anchor and for every budget, the bounded batches are the start of the whole answer that the budget needs")
    func everyAnchorAndBudget() throws {
        let scene = try IndexFixture.Scene()
        defer { scene.dir.remove() }
        let layout = StoreLayout(directory: scene.path)
        #expect(try LogSnapshot(layout).prefixSegmentCount >= 2, "sealed segments are taken on their index's word")
        let walked = try LogSnapshot(layout, usingIndexes: false)
        let head = walked.headSeq
        var stopsInsideASealedSegment = false
        for seq in 0...head {
            let all = try walked.batches(after: seq)
            for wanted in [1, 2, 7, 40, 1_000] {
                let snapshot = try LogSnapshot(layout)
                let answer = try snapshot.batches(after: seq, upTo: wanted) { Self.events($0, after: seq) }
                let (batches, reachesHead) = Self.expected(all, after: seq, wanted: wanted, head: head)
                #expect(Self.describe(answer.batches) == batches, "after \(seq), \(wanted) wanted")
                #expect(answer.reachesHead == reachesHead, "after \(seq), \(wanted) wanted")
                if let last = answer.batches.last, last.segment < snapshot.prefixSegmentCount, !answer.reachesHead { stopsInsideASealedSegment = true }
            }
        }
        #expect(stopsInsideASealedSegment, "some answers end inside a sealed segment's table")
    }

    @Test("A byte changed anywhere in a sealed segment's sidecar never changes the bounded batches")
    func damagedSidecar() throws {
        let scene = try IndexFixture.Scene()
        defer { scene.dir.remove() }
        let first = try FirstSegmentOfScene(scene)
        let (layout, walked, name, batches) = (first.layout, first.snapshot, first.file.name, first.batches)
        let anchors: [UInt64] = [0, batches[batches.count / 2].header.lastSeq]
        let budgets = [1, 30]
        var expected: [[String]] = []
        for anchor in anchors {
            for wanted in budgets {
                expected.append(Self.expected(try walked.batches(after: anchor), after: anchor, wanted: wanted, head: walked.headSeq).0)
            }
        }
        let path = SegmentIndex.path(layout, name)
        let pristine = try ByteSurgery.read(path)
        for offset in stride(from: 0, to: pristine.count, by: 3) {
            try ByteSurgery.write(pristine, to: path)
            try ByteSurgery.flip(path, at: offset, mask: 0x10)
            var k = 0
            for anchor in anchors {
                for wanted in budgets {
                    let answer = try LogSnapshot(layout).batches(after: anchor, upTo: wanted) { Self.events($0, after: anchor) }
                    #expect(Self.describe(answer.batches) == expected[k], "byte \(offset) changed, after \(anchor), \(wanted) wanted")
                    k += 1
                }
            }
        }
    }

    @Test("A walk its visitor stops hands over the entries up to there, and one to the end checks the end against the header")
    func walkStops() throws {
        let scene = try IndexFixture.Scene()
        defer { scene.dir.remove() }
        let first = try FirstSegmentOfScene(scene)
        let (layout, file, batches, summary, tag) = (first.layout, first.file, first.batches, first.summary, first.tag)
        var seen: [Int] = []
        #expect(SegmentIndex.walk(layout, file.name, after: 0, matching: summary, storeTag: tag, continues: { $0 == $1 }) { offset, _ in
            seen.append(offset)
            return seen.count < 2
        })
        #expect(seen == batches.prefix(2).map(\.offset))
        var other = summary
        other.lastSeq += 1
        #expect(!SegmentIndex.walk(layout, file.name, after: 0, matching: other, storeTag: tag, continues: { $0 == $1 }) { _, _ in true })
    }
}

import HealthLogTestSupport
import Testing
@testable import HealthLog

/// ``DroppedEvents``: a compaction's dropped events sorted by number, each once, read by
/// ascending ranges, in memory or from sorted stretches in a scratch file.
@Suite("Dropped events of a compaction")
struct DroppedEventsTests {
    /// Batches of ten numbers (1...10, 11...20, …), two to a segment.
    static let spans = (0..<10).map { k in LogSnapshot.BatchSpan(firstSeq: UInt64(10 * k + 1), lastSeq: UInt64(10 * k + 10), segment: k / 2, offset: 0) }

    /// The events `numbers` (the delete when above 30) added in their order, through a
    /// builder that holds `residentKeys` keys before writing a stretch out.
    static func plan(_ numbers: [Int], residentKeys: Int, sealing: ScratchCipher?) throws -> (dropped: DroppedEvents, segments: [Int]) {
        let builder = DroppedEvents.Builder(sealing: sealing, residentKeys: residentKeys)
        for n in numbers { try builder.add(DroppedEvents.Event(seq: UInt64(n), isDelete: n > 30)) }
        return try builder.finish(spans: spans)
    }

    @Test("Events added in any order are read by ascending ranges, each number once, with the segments that hold them; in memory, in clear stretches and in sealed ones", arguments: [0, 1, 2])
    func withinRanges(_ variant: Int) throws {
        let numbers = [40, 7, 19, 7, 33, 1, 95, 62, 40, 64, 2]
        let (dropped, segments) = try Self.plan(
            numbers, residentKeys: variant == 0 ? StoreOptions().compactionResidentKeys : 3, sealing: variant == 2 ? try ScratchCipher.forProcess() : nil)
        #expect(dropped.count == 9)
        #expect(segments == [0, 1, 3, 4])
        #expect(try dropped.within(1...10).map(\.seq) == [1, 2, 7])
        #expect(try dropped.within(11...30).map(\.seq) == [19])
        #expect(try dropped.within(31...33).map(\.isDelete) == [true])
        #expect(try dropped.within(34...39).isEmpty)
        #expect(try dropped.within(40...62).map(\.seq) == [40, 62])
        #expect(try dropped.within(63...70).map(\.seq) == [64])
        #expect(try dropped.within(71...100).map(\.seq) == [95])
        #expect(try dropped.within(101...200).isEmpty)
        try dropped.checkAllGiven()
        #expect(try DroppedEvents().isEmpty && DroppedEvents().within(0...UInt64.max).isEmpty)
    }

    @Test("An event that no range asked for holds is damage: a range past it, or the end, names it", arguments: [0, 1, 2])
    func eventNoRangeHolds(_ variant: Int) throws {
        func plan() throws -> DroppedEvents {
            try Self.plan([40, 7, 19, 33, 62], residentKeys: variant == 0 ? StoreOptions().compactionResidentKeys : 2, sealing: variant == 2 ? try ScratchCipher.forProcess() : nil).dropped
        }
        let skipped = try plan()
        #expect(try skipped.within(1...10).map(\.seq) == [7])
        let error = #expect(throws: HealthLogError.self) { try skipped.within(20...30) }
        #expect(error?.code == .corrupt && error?.message.contains("the add numbered 19, which no batch it rewrote holds") == true)
        let unfinished = try plan()
        #expect(try unfinished.within(1...35).map(\.seq) == [7, 19, 33])
        let end = #expect(throws: HealthLogError.self) { try unfinished.checkAllGiven() }
        #expect(end?.message.contains("the delete numbered 40") == true)
    }

    @Test("Thousands of events in stretches of 64 keys come back ascending, each once, as those of one stretch in memory do")
    func manyStretches() throws {
        var random = SeededRandom(state: 7)
        let numbers = (0..<3000).map { _ in random.int(1...100) }
        let inMemory = try Self.plan(numbers, residentKeys: StoreOptions().compactionResidentKeys, sealing: nil)
        let spilled = try Self.plan(numbers, residentKeys: 64, sealing: try ScratchCipher.forProcess())
        #expect(spilled.dropped.count == Set(numbers).count && inMemory.dropped.count == spilled.dropped.count)
        #expect(spilled.segments == inMemory.segments)
        for span in Self.spans {
            #expect(try spilled.dropped.within(span.firstSeq...span.lastSeq) == inMemory.dropped.within(span.firstSeq...span.lastSeq))
        }
    }
}

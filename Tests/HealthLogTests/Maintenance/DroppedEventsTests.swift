import Testing
@testable import HealthLog

/// ``DroppedEvents``: a compaction's dropped events sorted by number, found by range.
@Suite("Dropped events of a compaction")
struct DroppedEventsTests {
    @Test("Events given in any order are found by the ranges of numbers that hold them, each once, and the list given is taken")
    func withinRanges() {
        let uuid = SampleUUID(high: 1, low: 2)
        var events = [40, 7, 19, 7, 33, 1].map { BatchHeader.Dropped(seq: UInt64($0), isDelete: $0 > 30, uuid: uuid) }
        let dropped = DroppedEvents(sorting: &events)
        #expect(events.isEmpty)
        #expect(dropped.count == 5)
        #expect(dropped.within(1...40).map(\.seq) == [1, 7, 19, 33, 40])
        #expect(dropped.within(8...33).map(\.seq) == [19, 33])
        #expect(dropped.within(20...32).isEmpty && dropped.within(41...90).isEmpty)
        #expect(dropped.within(33...33).map(\.isDelete) == [true])
        #expect(DroppedEvents().isEmpty)
    }
}

import HealthLogTestSupport
import Testing

@testable import HealthLog

/// ``BucketSort``: the UUID indexes' linear sort into storage the caller reuses.
@Suite("Bucket sort")
struct BucketSortTests {
    @Test("A sort into used storage replaces its contents in order and keeps the storage")
    func reusesStorage() {
        var random = SeededRandom(state: 7)
        let keys = (0..<70_000).map { _ in random.next() }
        var out = [UInt64](repeating: 7, count: 100_000)
        let storage = out.withUnsafeBufferPointer { $0.baseAddress }
        UUIDFingerprintRun.sort(keys, into: &out)
        #expect(out == keys.sorted())
        #expect(out.withUnsafeBufferPointer { $0.baseAddress } == storage)
    }

    @Test(
        "A chunk's events fold into one entry a UUID, sorted, UUIDs crowding one bucket among them, into reused storage",
        arguments: [100, 5_000, 40_000])
    func combinesLikeAComparisonSort(_ count: Int) {
        var random = SeededRandom(state: UInt64(count))
        var events: [(uuid: SampleUUID, seq: UInt64, isDelete: Bool)] = []
        var seq: UInt64 = 1
        for k in 0..<count {
            // Every third UUID shares its top 32 bits with the others of its kind.
            let high = k % 3 == 0 ? 0x0123_4567_0000_0000 | random.next() >> 32 : random.next()
            let uuid = SampleUUID(high: high, low: random.next())
            events.append((uuid, seq, false))
            seq += 1
            if k % 5 == 0 {
                events.append((uuid, seq, true))
                seq += 1
            }
        }
        var folded: [SampleUUID: UUIDRun.Entry] = [:]
        for event in events {
            var entry = folded[event.uuid] ?? UUIDRun.Entry(uuid: event.uuid, addSeq: 0, deleteSeq: 0)
            if event.isDelete { entry.deleteSeq = event.seq } else { entry.addSeq = event.seq }
            folded[event.uuid] = entry
        }
        var out = [UUIDRun.Entry](repeating: UUIDRun.Entry(uuid: SampleUUID(high: 1, low: 1), addSeq: 9, deleteSeq: 9), count: 2 * count)
        let storage = out.withUnsafeBufferPointer { $0.baseAddress }
        UUIDRunSet.combine(events.shuffled(using: &random), into: &out)
        #expect(out == folded.values.sorted { $0.uuid < $1.uuid })
        #expect(out.withUnsafeBufferPointer { $0.baseAddress } == storage)
    }
}

import HealthLogTestSupport
import Testing
@testable import HealthLog

/// ``UUIDRunReader/search(_:in:count:firstHigh:nextHigh:)``, the interpolating search within a stretch
/// of a run's entries:
/// it finds every entry and no absent UUID whether the UUIDs are spread evenly (what it
/// guesses from) or not at all.
@Suite("UUID run reader: the search within a stretch of entries")
struct UUIDRunReaderSearchTests {
    /// `uuids` sorted, as entries laid out the way a run file holds them.
    static func block(_ uuids: [SampleUUID]) -> (entries: [UUIDRun.Entry], bytes: [UInt8]) {
        let entries = uuids.sorted().enumerated().map { UUIDRun.Entry(uuid: $0.element, addSeq: UInt64($0.offset + 1), deleteSeq: UInt64($0.offset % 2)) }
        var bytes: [UInt8] = []
        UUIDRun.encode(entries[...], to: &bytes)
        return (entries, bytes)
    }

    /// Checks that every entry of `uuids` is found with its sequence numbers and that each
    /// of `absent` is not, with and without the next block's first UUID known.
    static func check(_ uuids: [SampleUUID], absent: [SampleUUID], next: SampleUUID?) {
        let (entries, bytes) = block(uuids)
        bytes.withUnsafeBytes { raw in
            for nextHigh in [next?.high, nil] {
                for entry in entries {
                    #expect(UUIDRunReader.search(entry.uuid, in: raw, count: entries.count, firstHigh: entries[0].uuid.high, nextHigh: nextHigh) == entry)
                }
                for uuid in absent where !uuids.contains(uuid) {
                    #expect(UUIDRunReader.search(uuid, in: raw, count: entries.count, firstHigh: entries[0].uuid.high, nextHigh: nextHigh) == nil)
                }
            }
        }
    }

    @Test("Evenly spread UUIDs: every entry found, absent ones (below, between, above) not")
    func even() {
        var random = SeededRandom(state: 5)
        let uuids = (0..<2_048).map { _ in SampleUUID(high: random.next() >> 1, low: random.next()) }
        let absent = (0..<300).map { _ in SampleUUID(high: random.next(), low: random.next()) } + [SampleUUID(high: 0, low: 0), SampleUUID(high: .max, low: .max)]
        Self.check(uuids, absent: absent, next: SampleUUID(high: 1 << 63, low: 0))
    }

    @Test("Clustered UUIDs (one high half shared, a few far apart) and tiny blocks: every entry found, absent ones not")
    func skewed() {
        var random = SeededRandom(state: 9)
        var uuids = (0..<1_500).map { _ in SampleUUID(high: 42, low: random.next()) }
        uuids += [SampleUUID(high: 1, low: 0), SampleUUID(high: 1 << 40, low: 3), SampleUUID(high: .max - 1, low: 7)]
        uuids += (0..<200).map { k in SampleUUID(high: 43 + UInt64(k) * UInt64(k), low: 0) }
        let absent = (0..<300).map { _ in SampleUUID(high: 42, low: random.next()) } + [SampleUUID(high: 0, low: 1), SampleUUID(high: 44, low: 0), SampleUUID(high: .max, low: 0)]
        Self.check(uuids, absent: absent, next: SampleUUID(high: .max, low: 1))
        for size in 1...3 { Self.check(Array(uuids.suffix(size)), absent: absent, next: nil) }
    }
}

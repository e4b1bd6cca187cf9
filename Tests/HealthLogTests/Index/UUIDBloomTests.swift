@testable import HealthLog
import HealthLogTestSupport
import Testing

/// The append's Bloom filter of UUIDs it wrote out: never a false negative, and bounded in
/// size whatever it is asked to hold (issue #9 item 12: memory under 64 MB at any append size).
@Suite("UUID Bloom filter")
struct UUIDBloomTests {
    @Test("A filter asked for 100 million UUIDs stays at its maximum size and still never misses one it holds")
    func cappedWithoutFalseNegatives() {
        var bloom = UUIDBloom(capacity: 100_000_000)
        #expect(bloom.isAtMaximum)
        var random = SeededRandom(state: 7)
        let added = (0..<200_000).map { _ in SampleUUID(high: random.next(), low: random.next()) }
        for uuid in added { bloom.insert(uuid) }
        #expect(added.allSatisfy(bloom.mayContain))
        let absent = (0..<20_000).map { _ in SampleUUID(high: random.next(), low: random.next()) }
        #expect(absent.filter(bloom.mayContain).count < 400, "about 1% false positives at this load")
    }

    @Test("A small filter is not at its maximum, so an append that outgrows it rebuilds it larger")
    func smallFilterGrows() {
        #expect(!UUIDBloom(capacity: 1_000).isAtMaximum)
    }
}

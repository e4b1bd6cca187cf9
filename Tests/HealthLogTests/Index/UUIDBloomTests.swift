@testable import HealthLog
import HealthLogTestSupport
import Testing

/// The append's Bloom filter of UUIDs it wrote out: never a false negative, and bounded in
/// size whatever it is asked to hold (so an append's memory stays under 64 MB at any size).
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

    @Test("A halved filter answers exactly as a filter of half the size built from the same UUIDs")
    func halvedEqualsSmaller() {
        var random = SeededRandom(state: 11)
        let added = (0..<5_000).map { _ in SampleUUID(high: random.next(), low: random.next()) }
        var large = UUIDBloom(capacity: 8_000)
        var small = UUIDBloom(capacity: 4_000)
        for uuid in added {
            large.insert(uuid)
            small.insert(uuid)
        }
        let halved = large.halved()
        #expect(halved.byteCount == small.byteCount && halved.byteCount == large.byteCount / 2)
        #expect(added.allSatisfy(halved.mayContain))
        let probes = (0..<50_000).map { _ in SampleUUID(high: random.next(), low: random.next()) }
        #expect(probes.allSatisfy { halved.mayContain($0) == small.mayContain($0) })
        #expect(probes.contains { halved.mayContain($0) != large.mayContain($0) }, "half the bits: more false positives than before")
    }

    @Test("A filter sized in bytes for fewer bits per UUID sets fewer bits per UUID, and errs less than seven bits per UUID would in the same bytes")
    func probesSuitTheBits() {
        #expect(UUIDBloom.probes(bitsPerUUID: 16) == 7 && UUIDBloom.probes(bitsPerUUID: 8) == 6 && UUIDBloom.probes(bitsPerUUID: 4) == 3)
        var random = SeededRandom(state: 5)
        let added = (0..<16_384).map { _ in SampleUUID(high: random.next(), low: random.next()) }
        var sized = UUIDBloom(bytes: 8 << 10, for: added.count)
        var halved = UUIDBloom(capacity: added.count / 4)
        for uuid in added {
            sized.insert(uuid)
            halved.insert(uuid)
        }
        #expect(sized.byteCount == 8 << 10 && halved.byteCount == sized.byteCount && sized.probes == 3 && halved.probes == 7)
        #expect(added.allSatisfy(sized.mayContain))
        let absent = (0..<20_000).map { _ in SampleUUID(high: random.next(), low: random.next()) }
        let errs = absent.filter(sized.mayContain).count
        #expect(errs < absent.filter(halved.mayContain).count * 3 / 4, "\(errs) of 20,000")
    }

    @Test("A copy of a filter is a value: adding to the copy leaves the original as it was")
    func copiesAreValues() {
        var random = SeededRandom(state: 13)
        let added = (0..<2_000).map { _ in SampleUUID(high: random.next(), low: random.next()) }
        var original = UUIDBloom(capacity: 1_000)
        for uuid in added.prefix(1_000) { original.insert(uuid) }
        var copy = original
        for uuid in added.dropFirst(1_000) { copy.insert(uuid) }
        #expect(added.allSatisfy(copy.mayContain))
        #expect(added.prefix(1_000).allSatisfy(original.mayContain))
        #expect(added.dropFirst(1_000).filter(original.mayContain).count < 50, "the copy's UUIDs are not in the original")
    }
}

import HealthLogTestSupport
import Testing
@testable import HealthLog

/// ``SortedUUIDs``: the set the deleted-add index is read back with.
@Suite("Sorted UUIDs")
struct SortedUUIDsTests {
    @Test("Every UUID given is found, given twice too, and UUIDs never given are not, at prefix edges as elsewhere")
    func membership() {
        var random = SeededRandom(state: 17)
        var given = (0..<20_000).map { _ in SampleUUID(high: random.next(), low: random.next()) }
        given += [SampleUUID(high: 0, low: 0), SampleUUID(high: ~0, low: ~0), SampleUUID(high: 0xFFFF_0000_0000_0000, low: 1), given[5]]
        var taken = given
        let set = SortedUUIDs(taking: &taken)
        #expect(taken.isEmpty && set.count == given.count)
        for uuid in given { #expect(set.contains(uuid)) }
        let absent = (0..<20_000).map { _ in SampleUUID(high: random.next(), low: random.next()) }
            + [SampleUUID(high: 0, low: 1), SampleUUID(high: ~0, low: ~0 - 1), SampleUUID(high: 0xFFFF_0000_0000_0000, low: 0), SampleUUID(high: given[7].high, low: given[7].low ^ 1)]
        let givenSet = Set(given)
        for uuid in absent where !givenSet.contains(uuid) { #expect(!set.contains(uuid)) }
        var none: [SampleUUID] = []
        #expect(!SortedUUIDs(taking: &none).contains(given[0]))
    }
}

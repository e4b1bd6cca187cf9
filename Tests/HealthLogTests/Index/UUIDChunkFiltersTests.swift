@testable import HealthLog
import HealthLogTestSupport
import Testing

/// The append's filters per written-out chunk: a range of whole chunks answers from their
/// filters (never missing a UUID they hold), anything else answers maybe, and the filters
/// stay within their budget however many chunks come.
@Suite("UUID chunk filters")
struct UUIDChunkFiltersTests {
    /// `chunks` chunks of `size` random UUIDs each, the first from sequence number 1.
    private static func chunks(_ chunks: Int, of size: Int, seed: UInt64) -> [[SampleUUID]] {
        var random = SeededRandom(state: seed)
        return (0..<chunks).map { _ in (0..<size).map { _ in SampleUUID(high: random.next(), low: random.next()) } }
    }

    @Test("A run of whole chunks may hold exactly their UUIDs: each chunk's UUIDs test positive in every range of chunks holding it, and almost none in the others")
    func rangesOfWholeChunks() {
        let uuids = Self.chunks(6, of: 1_000, seed: 3)
        var filters = UUIDChunkFilters()
        for (k, chunk) in uuids.enumerated() { filters.add(chunk, from: UInt64(k * 1_000 + 1), through: UInt64(k * 1_000 + 1_000)) }
        #expect(filters.count == 6)
        let range = { (first: Int, last: Int) in UInt64(first * 1_000 + 1)...UInt64(last * 1_000 + 1_000) }
        for (k, chunk) in uuids.enumerated() {
            let hashes = chunk.map(UUIDBloom.mix)
            #expect(hashes.allSatisfy { filters.mayContain(hash: $0, within: range(k, k)) })
            #expect(hashes.allSatisfy { filters.mayContain(hash: $0, within: range(0, 5)) })
            #expect(hashes.allSatisfy { filters.mayContain(hash: $0, within: range(min(k, 4), 5)) })
            let other = (k + 3) % 6
            #expect(hashes.filter { filters.mayContain(hash: $0, within: range(other, other)) }.count < 10, "about 0.1% false positives")
        }
    }

    @Test("A range that is not whole chunks added here answers maybe, so a lookup reads that run")
    func otherRangesAnswerMaybe() {
        var filters = UUIDChunkFilters()
        filters.add([SampleUUID(high: 1, low: 1)], from: 10, through: 19)
        filters.add([SampleUUID(high: 2, low: 2)], from: 20, through: 29)
        let absent = UUIDBloom.mix(SampleUUID(high: 3, low: 3))
        #expect(!filters.mayContain(hash: absent, within: 10...29))
        #expect(filters.mayContain(hash: absent, within: 10...35), "the range goes past the last chunk")
        #expect(filters.mayContain(hash: absent, within: 10...25), "the range ends inside a chunk")
        #expect(filters.mayContain(hash: absent, within: 12...29), "the range starts inside a chunk")
        #expect(filters.mayContain(hash: absent, within: 1...29), "the range starts before the first chunk")
        #expect(filters.mayContain(hash: absent, within: 30...39), "no chunk of it was added")
    }

    @Test("Past their budget the filters are halved, stay within it, and still hold every UUID")
    func budgetHalvesFilters() {
        let uuids = Self.chunks(40, of: 2_000, seed: 5)
        let budget = 64 << 10
        var filters = UUIDChunkFilters(budget: budget)
        var largest = 0
        for (k, chunk) in uuids.enumerated() {
            filters.add(chunk, from: UInt64(k * 2_000 + 1), through: UInt64(k * 2_000 + 2_000))
            largest = max(largest, filters.byteCount)
        }
        #expect(largest <= budget)
        #expect(filters.byteCount > budget / 4, "halved only as far as the budget needs")
        for (k, chunk) in uuids.enumerated() {
            let run = UInt64(k * 2_000 + 1)...UInt64(k * 2_000 + 2_000)
            #expect(chunk.allSatisfy { filters.mayContain(hash: UUIDBloom.mix($0), within: run) })
        }
    }
}

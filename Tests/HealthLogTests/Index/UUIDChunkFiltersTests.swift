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

    @Test("A merged run's filter in place of its chunks' answers for the whole run with one filter's false positives, where any of 64 chunk filters halved to a few bits per UUID said maybe to almost every UUID")
    func replacedByMergedFilter() {
        let uuids = Self.chunks(64, of: 1_000, seed: 8)
        var filters = UUIDChunkFilters(budget: 32 << 10)
        for (k, chunk) in uuids.enumerated() { filters.add(chunk, from: UInt64(k * 1_000 + 1), through: UInt64(k * 1_000 + 1_000)) }
        let whole = UInt64(1)...64_000
        let bytes = filters.byteCount(within: whole)
        #expect(bytes == filters.byteCount && bytes <= 32 << 10)
        var random = SeededRandom(state: 21)
        let absent = (0..<20_000).map { _ in UUIDBloom.mix(SampleUUID(high: random.next(), low: random.next())) }
        let before = absent.filter { filters.mayContain(hash: $0, within: whole) }.count
        var merged = UUIDBloom(bytes: bytes, for: 64_000)
        for uuid in uuids.joined() { merged.insert(uuid) }
        filters.replace(whole, with: merged)
        #expect(filters.count == 1 && filters.byteCount == bytes)
        #expect(uuids.joined().allSatisfy { filters.mayContain(hash: UUIDBloom.mix($0), within: whole) })
        let after = absent.filter { filters.mayContain(hash: $0, within: whole) }.count
        #expect(after * 3 < before, "\(after) false positives of 20,000, \(before) with the chunks' filters")
    }

    @Test("A merged filter larger than its parts' filters (halved since it was sized) is halved to their bytes when put in place, so the budget holds")
    func replacedFilterHalvedToItsParts() {
        let uuids = Self.chunks(8, of: 1_000, seed: 6)
        var filters = UUIDChunkFilters(budget: 8 << 10)
        for (k, chunk) in uuids.prefix(2).enumerated() { filters.add(chunk, from: UInt64(k * 1_000 + 1), through: UInt64(k * 1_000 + 1_000)) }
        var merged = UUIDBloom(bytes: filters.byteCount(within: 1...2_000), for: 2_000)
        for uuid in uuids.prefix(2).joined() { merged.insert(uuid) }
        for (k, chunk) in uuids.enumerated().dropFirst(2) { filters.add(chunk, from: UInt64(k * 1_000 + 1), through: UInt64(k * 1_000 + 1_000)) }
        let parts = filters.byteCount(within: 1...2_000)
        #expect(parts < merged.byteCount, "the parts were halved after the merged filter was sized")
        let before = filters.byteCount
        filters.replace(1...2_000, with: merged)
        #expect(filters.byteCount(within: 1...2_000) <= parts && filters.byteCount <= before && filters.byteCount <= 8 << 10)
        #expect(uuids.prefix(2).joined().allSatisfy { filters.mayContain(hash: UUIDBloom.mix($0), within: 1...2_000) })
    }

    @Test("Past the budget the largest filter is halved first, a merged run's, so the newest chunks' filters keep their bits")
    func largestHalvedFirst() {
        let uuids = Self.chunks(11, of: 1_000, seed: 10)
        var filters = UUIDChunkFilters(budget: 16 << 10)
        for (k, chunk) in uuids.prefix(4).enumerated() { filters.add(chunk, from: UInt64(k * 1_000 + 1), through: UInt64(k * 1_000 + 1_000)) }
        let chunkBytes = filters.byteCount(within: 1...1_000)
        var merged = UUIDBloom(bytes: filters.byteCount(within: 1...4_000), for: 4_000)
        for uuid in uuids.prefix(4).joined() { merged.insert(uuid) }
        filters.replace(1...4_000, with: merged)
        for (k, chunk) in uuids.enumerated().dropFirst(4) { filters.add(chunk, from: UInt64(k * 1_000 + 1), through: UInt64(k * 1_000 + 1_000)) }
        #expect(filters.byteCount <= 16 << 10)
        #expect(filters.byteCount(within: 1...4_000) < 4 * chunkBytes, "the merged filter was halved")
        let newest = (4..<11).map { (k: Int) -> Int in filters.byteCount(within: UInt64(k * 1_000 + 1)...UInt64(k * 1_000 + 1_000)) }
        #expect(newest.allSatisfy { $0 == chunkBytes }, "the newest chunks' filters keep their bits")
        for (k, chunk) in uuids.enumerated() {
            let first = UInt64(k < 4 ? 1 : k * 1_000 + 1)
            let range = first...UInt64(k < 4 ? 4_000 : k * 1_000 + 1_000)
            #expect(chunk.allSatisfy { filters.mayContain(hash: UUIDBloom.mix($0), within: range) })
        }
    }
}

import HealthLogTestSupport
import Testing
@testable import HealthLog

/// The UUID map behind a query's set of deleted samples (``UUIDIndex``): UUIDs made in
/// sequence, or alike but for a few bits, spread over its slots as random ones do.
@Suite("UUID index")
struct UUIDIndexTests {
    /// 20,000 UUIDs of one shape: random, counting in the low half, counting in the top of
    /// the high half (a multiplied counter, as a test's or a tool's made-up UUIDs are), and
    /// counting in the low bits of the high half.
    static let shapes: [(name: String, uuid: @Sendable (Int, inout SeededRandom) -> SampleUUID)] = [
        ("random", { _, random in SampleUUID(high: random.next(), low: random.next()) }),
        ("low half counts", { n, _ in SampleUUID(high: 0x4000, low: 0x8000_0000_0000_0000 | UInt64(n)) }),
        ("high half's top counts", { n, _ in
            SampleUUID(high: UInt64(UInt32(truncatingIfNeeded: n &* 2_654_435_761)) << 32 | 0x4000, low: 0x8000_0000_0000_0000 | UInt64(n))
        }),
        ("high half's bottom counts", { n, _ in SampleUUID(high: UInt64(n), low: 0) }),
    ]

    @Test("Every UUID is found with its value, and a lookup reads a few slots, whatever the UUIDs' shape", arguments: shapes.indices)
    func spreads(_ shape: Int) {
        var random = SeededRandom(state: 9)
        let uuids = (0..<20_000).map { Self.shapes[shape].uuid($0, &random) }
        var index = UUIDIndex(capacity: 16)
        for (n, uuid) in uuids.enumerated() { index.set(uuid, n) }
        #expect(index.count == uuids.count)
        var probes = 0
        for (n, uuid) in uuids.enumerated() {
            #expect(index[uuid] == n)
            probes += index.probes(uuid)
        }
        // Linear probing at a load of at most 0.7 reads about 2.2 slots a hit on average;
        // UUIDs that pile into one stretch of slots read thousands.
        #expect(Double(probes) / Double(uuids.count) < 4, "\(Self.shapes[shape].name)")
        #expect(index[SampleUUID(high: 1 << 63, low: 1)] == nil)
    }
}

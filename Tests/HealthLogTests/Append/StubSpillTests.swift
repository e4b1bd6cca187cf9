import Testing
@testable import HealthLog

/// ``StubSpill``: the writer's stubs of one append, mostly in a scratch file, read back
/// exactly as an array of them would be.
@Suite("Stub spill")
struct StubSpillTests {
    /// A stub whose every field depends on `n`, its sequence number `1_000 + n`.
    private static func stub(_ n: Int) -> SampleStub {
        SampleStub(
            seq: 1_000 + UInt64(n), type: UInt32(n % 7), source: UInt32(n % 5), device: UInt32(n % 3),
            start: Timestamp(microseconds: Int64(n) * 1_000_003 - 5_000_000, offsetMinutes: Int16(n % 29) * 30 - 420, isZulu: n % 2 == 0, fractionDigits: UInt8(n % 7)),
            end: Timestamp(microseconds: Int64(n) * 1_000_003, offsetMinutes: n % 3 == 0 ? 0 : -60, isZulu: n % 6 == 0, fractionDigits: 6), isLive: n % 4 != 0)
    }

    private static func expectEqual(_ a: SampleStub, _ b: SampleStub, _ n: Int) {
        #expect(a.seq == b.seq && a.type == b.type && a.source == b.source && a.device == b.device && a.isLive == b.isLive, "stub \(n)")
        #expect(a.start == b.start && a.end == b.end, "stub \(n)")
    }

    @Test("Stubs spilled to the file and still buffered read back field for field", arguments: [1, 7, 1_000])
    func roundTrip(_ buffer: Int) throws {
        let spill = StubSpill(bufferRecords: buffer)
        var model: [SampleStub] = []
        for n in 0..<300 {
            #expect(try spill.append(Self.stub(n)) == n)
            model.append(Self.stub(n))
        }
        #expect(spill.count == 300)
        for n in 0..<300 { Self.expectEqual(try spill.stub(n), model[n], n) }
    }
}

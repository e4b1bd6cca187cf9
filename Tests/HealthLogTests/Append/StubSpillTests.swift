import HealthLogTestSupport
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

/// ``StubSpill`` for an encrypted store: its file is sealed a page at a time.
@Suite("Sealed stub spill")
struct SealedStubSpillTests {
    /// A stub whose start is a known instant, `n` seconds after it.
    private static func stub(_ n: Int) -> SampleStub {
        SampleStub(
            seq: 1 + UInt64(n), type: 3, source: 9, device: 2,
            start: Timestamp(microseconds: 1_733_011_200_000_000 + Int64(n) * 1_000_000, offsetMinutes: 60, isZulu: false, fractionDigits: 3),
            end: Timestamp(microseconds: 1_733_011_200_000_000 + Int64(n) * 1_000_000 + 500, offsetMinutes: 60, isZulu: false, fractionDigits: 3), isLive: true)
    }

    @Test("Sealed stubs read back field for field, and the file holds none of their times", arguments: [1, 7, 64, 100, 1_000])
    func roundTrip(_ buffer: Int) throws {
        let spill = StubSpill(bufferRecords: buffer, sealing: try ScratchCipher.forProcess())
        for n in 0..<2_000 { _ = try spill.append(Self.stub(n)) }
        for n in [0, 1, 63, 64, 65, 999, 1_000, 1_999] {
            let back = try spill.stub(n)
            #expect(back.seq == Self.stub(n).seq && back.start == Self.stub(n).start && back.end == Self.stub(n).end && back.type == 3, "stub \(n)")
        }
        let file = try #require(spill.file)
        let bytes = try file.read(at: 0, count: try file.size())
        for n in [0, 500, 1_000] {
            var start: [UInt8] = []
            withUnsafeBytes(of: Self.stub(n).start.microseconds.littleEndian) { start.append(contentsOf: $0) }
            #expect(!KnownPlaintext.contains(start, in: bytes), "stub \(n)'s start")
        }
    }

    @Test("A flipped byte in the sealed file makes reading its stub fail, not answer")
    func damage() throws {
        let spill = StubSpill(bufferRecords: 100, sealing: try ScratchCipher.forProcess())
        for n in 0..<300 { _ = try spill.append(Self.stub(n)) }
        let file = try #require(spill.file)
        var byte = try file.read(at: 150 * 36, count: 1)
        byte[0] ^= 0x10
        try file.write(byte, at: 150 * 36)
        #expect(try spill.stub(10).start == Self.stub(10).start)
        let error = #expect(throws: HealthLogError.self) { try spill.stub(140) }
        #expect(error?.code == .corrupt)
    }

    @Test("A sealed page changed after a read opened it is refused at the next read, not answered from the buffers reads reuse")
    func changedAfterRead() throws {
        let spill = StubSpill(bufferRecords: 100, sealing: try ScratchCipher.forProcess())
        for n in 0..<300 { _ = try spill.append(Self.stub(n)) }
        #expect(try spill.stub(70).start == Self.stub(70).start)
        #expect(try spill.stub(10).end == Self.stub(10).end)
        let file = try #require(spill.file)
        var byte = try file.read(at: 20 * 36, count: 1)
        byte[0] ^= 0x10
        try file.write(byte, at: 20 * 36)
        let error = #expect(throws: HealthLogError.self) { try spill.stub(10) }
        #expect(error?.code == .corrupt)
        #expect(try spill.stub(150).start == Self.stub(150).start, "another page still answers")
        #expect(throws: HealthLogError.self) { try spill.stub(10) }
    }
}

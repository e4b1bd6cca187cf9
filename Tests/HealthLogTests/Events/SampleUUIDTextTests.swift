import Testing
@testable import HealthLog

/// ``SampleUUID``'s text: the 36 upper-case characters of an event line, made word by word.
@Suite("Sample UUID text")
struct SampleUUIDTextTests {
    /// The text a digit at a time, as a reader of RFC 4122 writes it.
    private static func reference(_ uuid: SampleUUID) -> String {
        func hex(_ word: UInt64) -> String {
            let digits = String(word, radix: 16, uppercase: true)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        let all = Array(hex(uuid.high) + hex(uuid.low))
        return [all[0..<8], all[8..<12], all[12..<16], all[16..<20], all[20..<32]].map { String($0) }.joined(separator: "-")
    }

    @Test("Every digit, letter and half renders as the digit-at-a-time text, after bytes already in the buffer, and parses back")
    func rendering() throws {
        var state: UInt64 = 12
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            return SplitMix64.finalize(state)
        }
        var uuids = [
            SampleUUID(high: 0, low: 0), SampleUUID(high: .max, low: .max), SampleUUID(high: 0x0123_4567_89AB_CDEF, low: 0xFEDC_BA98_7654_3210),
            SampleUUID(high: 0x9A9A_9A9A_0909_A0A0, low: 0x0F0F_F0F0_1E1E_E1E1),
        ]
        for _ in 0..<2_000 { uuids.append(SampleUUID(high: next(), low: next())) }
        for uuid in uuids {
            var out: [UInt8] = Array("x,".utf8)
            uuid.render(into: &out)
            #expect(String(decoding: out, as: UTF8.self) == "x," + Self.reference(uuid))
            #expect(uuid.description == Self.reference(uuid))
            #expect(SampleUUID(uuid.description) == uuid)
        }
    }
}

import HealthLogTestSupport
import Testing

@testable import HealthLog

@Suite("XXH32")
struct XXH32Tests {
    /// The digest of `text`'s UTF-8.
    static func hash(_ text: String, seed: UInt32 = 0) -> UInt32 {
        Array(text.utf8).withUnsafeBytes { XXH32.hash($0, seed: seed) }
    }

    @Test("Known answers: the empty input, a short one and one past a 16-byte stripe")
    func knownAnswers() {
        #expect(Self.hash("") == 0x02CC_5D05)
        #expect(Self.hash("abc") == 0x32D1_53FF)
        #expect(Self.hash("Nobody inspects the spammish repetition") == 0xE229_3B2F)
    }

    @Test("liblz4's decoder takes the content checksum of every frame, at every length around a stripe and a block")
    func lz4AgreesAtEveryLength() throws {
        var random = SeededRandom(state: 12)
        let noise = (0..<(1 << 20) + 3).map { _ in UInt8.random(in: 0...255, using: &random) }
        let text = Array(String(repeating: #"{"seq":1,"op":"add","type":"HKQuantityTypeIdentifierHeartRate"}"# + "\n", count: 20000).utf8)
        let decoder = try LZ4FrameDecoder()
        for source in [noise, text] {
            for length in [0, 1, 3, 4, 5, 15, 16, 17, 31, 32, 33, 4095, 4096, 65535, 65536, 65537, 262_143, 262_144, 262_145, 1 << 20] {
                let content = Array(source.prefix(length))
                let frame = try LZ4Frame.compress(content)
                #expect(frame[4] & 0x04 != 0, "the content checksum flag is set")
                var decoded = [UInt8](repeating: 0, count: length + LZ4FrameDecoder.blockSize)
                let violation = frame.withUnsafeBytes { frame in decoded.withUnsafeMutableBytes { decoder.decompress(frame, into: $0, length: length, checkContent: true) } }
                #expect(violation == nil, "length \(length): \(violation.map { "\($0)" } ?? "")")
                #expect(decoded.prefix(length).elementsEqual(content))
            }
        }
    }
}

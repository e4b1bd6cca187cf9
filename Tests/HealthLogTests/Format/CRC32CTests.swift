import CCRC32C
import Foundation
import HealthLogTestSupport
import Testing

@testable import HealthLog

@Suite("CRC-32C")
struct CRC32CTests {
    @Test("known answers: RFC 3720's check value and iSCSI's test patterns")
    func knownAnswers() {
        #expect(CRC32C.checksum(Array("123456789".utf8)[...]) == 0xE306_9283)
        #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)[...]) == 0x8A91_36AA)
        #expect(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)[...]) == 0x62A8_AB43)
        #expect(CRC32C.checksum((0..<32).map { UInt8($0) }[...]) == 0x46DD_794E)
        #expect(CRC32C.checksum([][...]) == 0)
    }

    @Test("the instruction path equals the table at every length and alignment, and seeds chain")
    func instructionEqualsTable() {
        var random = SeededRandom(state: 32)
        let bytes = (0..<65536).map { _ in UInt8.random(in: 0...255, using: &random) }
        bytes.withUnsafeBytes { all in
            for start in 0..<9 {
                // Around the lengths taken as three runs side by side (3 x 256 and 3 x 8,192 bytes).
                for length in [0, 1, 7, 8, 9, 15, 16, 63, 64, 65, 767, 768, 769, 1000, 1543, 4087 - start, 24575, 24576, 24583, 50001, 65527 - start] {
                    let part = UnsafeRawBufferPointer(rebasing: all[start..<(start + length)])
                    let seed = UInt32(truncatingIfNeeded: length &* 2_654_435_761)
                    #expect(CRC32C.checksum(part, seed: seed) == healthlog_crc32c_table(seed, part.baseAddress, part.count))
                }
            }
            let whole = CRC32C.checksum(all)
            let split = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: all[1000...]), seed: CRC32C.checksum(UnsafeRawBufferPointer(rebasing: all[..<1000])))
            #expect(whole == split)
        }
    }

    #if arch(x86_64)
        @Test("an x86-64 machine with SSE4.2 computes it with the instruction")
        func usesInstruction() throws {
            let flags = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
            try #require(flags.contains("sse4_2"))
            #expect(healthlog_crc32c_uses_instruction() == 1)
        }
    #endif
}

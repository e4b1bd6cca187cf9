import Testing
@testable import HealthLog

/// A segment file's name, `<baseSeq, 20 digits>.<generation, 4 digits>.log.lz4`, written and
/// read back byte by byte.
@Suite("Segment file names")
struct SegmentNameTests {
    @Test("A name is written zero-padded and read back, at the ends of both numbers' ranges")
    func roundTrip() {
        for (seq, gen) in [(UInt64(1), UInt32(0)), (900_250, 3), (UInt64.max, 9999), (12_345_678_901_234_567_890, 1)] {
            let name = SegmentName(baseSeq: seq, generation: gen)
            #expect(name.fileName.utf8.count == 33)
            #expect(SegmentName(fileName: name.fileName) == name)
        }
        #expect(SegmentName(baseSeq: 1, generation: 0).fileName == "00000000000000000001.0000.log.lz4")
        #expect(SegmentName(baseSeq: 42, generation: 12_345).fileName == "00000000000000000042.12345.log.lz4", "a generation past four digits is written whole")
    }

    @Test("Anything else is no segment name: strays, temporary files, signs, other lengths, numbers past 64 bits")
    func rejects() {
        for name in [
            "00000000000000000001.0000.log.lz4.tmp", "00000000000000000001.0000.idx", "0000000000000000001.0000.log.lz4",
            "+0000000000000000001.0000.log.lz4", "00000000000000000001.00a0.log.lz4", "00000000000000000001-0000.log.lz4",
            "00000000000000000001.0000.log.lz5", "99999999999999999999.0000.log.lz4", "", "meta",
        ] {
            #expect(SegmentName(fileName: name) == nil, "\(name)")
        }
    }
}

import Testing
@testable import HealthLog

/// ``LZ4Blocks`` splits a stored frame into its blocks, each decoded on its own.
@Suite("LZ4 blocks")
struct LZ4BlocksTests {
    /// 600,000 bytes of lines that compress: three blocks of a stored frame.
    static let content: [UInt8] = Array((0..<16_000).map { n in #"{"seq":\#(n),"note":"\#(String(repeating: "ab", count: n % 20))"}"# + "\n" }.joined().utf8.prefix(600_000))

    /// The blocks decoded one after the other give the frame's content; the first bytes of
    /// a block alone are its content's first bytes.
    @Test func decodesEachBlockOnItsOwn() throws {
        let frame = try LZ4Frame.compress(Self.content)
        try frame.withUnsafeBytes { stored in
            let blocks = try #require(LZ4Blocks(stored))
            #expect(blocks.count == 3)
            var decoded: [UInt8] = []
            var room = [UInt8](repeating: 0, count: LZ4FrameDecoder.blockSize)
            for k in 0..<blocks.count {
                let produced = try #require(room.withUnsafeMutableBytes { blocks.decode(k, into: $0) })
                decoded += room[0..<produced]
            }
            #expect(decoded == Self.content)
            let start = try #require(room.withUnsafeMutableBytes { blocks.decode(1, into: $0, limit: 100) })
            #expect(start == 100)
            #expect(Array(room[0..<100]) == Array(Self.content[LZ4FrameDecoder.blockSize..<LZ4FrameDecoder.blockSize + 100]))
        }
    }

    /// A frame cut short, or not a frame, is not split (it is decoded whole, which reports
    /// what is wrong); a block that does not fit its room does not decode.
    @Test func refusesWhatItCannotSplit() throws {
        let frame = try LZ4Frame.compress(Self.content)
        frame.dropLast(100).withUnsafeBytes { #expect(LZ4Blocks($0) == nil) }
        Self.content.withUnsafeBytes { #expect(LZ4Blocks($0) == nil) }
        try frame.withUnsafeBytes { stored in
            let blocks = try #require(LZ4Blocks(stored))
            var small = [UInt8](repeating: 0, count: 1000)
            #expect(small.withUnsafeMutableBytes { blocks.decode(0, into: $0) } == nil)
        }
    }
}

import CLZ4

/// The blocks of a stored LZ4 frame, each decoded on its own with liblz4's block API, so a
/// reader that needs only a frame's later lines (those after an anchor) skips the blocks
/// before them. Only a frame of independent blocks (as ``LZ4Frame`` writes them) is split;
/// its content checksum, which covers every block, is not checked here.
struct LZ4Blocks {
    /// Where each block's stored bytes start in the frame, how many there are, and whether
    /// they are stored uncompressed.
    private var blocks: [(start: Int, count: Int, isRaw: Bool)] = []
    private let frame: UnsafeRawBufferPointer

    /// The blocks of `frame`; `nil` when it is not a frame of independent blocks this
    /// reads (then it is decoded whole, with ``LZ4FrameDecoder``, which reports what is wrong).
    init?(_ frame: UnsafeRawBufferPointer) {
        self.frame = frame
        guard frame.count >= 7, frame.loadUnaligned(as: UInt32.self).littleEndian == 0x184D_2204 else { return nil }
        let flags = frame[4]
        // Version 01, independent blocks, no dictionary identifier.
        guard flags & 0xC0 == 0x40, flags & 0x20 != 0, flags & 0x01 == 0 else { return nil }
        let blockChecksum = flags & 0x10 != 0 ? 4 : 0
        let maxBlock = 1 << (8 + 2 * Int((frame[5] >> 4) & 0x07))
        var at = 6 + (flags & 0x08 != 0 ? 8 : 0) + 1
        while true {
            guard at + 4 <= frame.count else { return nil }
            let word = UInt32(littleEndian: frame.loadUnaligned(fromByteOffset: at, as: UInt32.self))
            at += 4
            if word == 0 { break }
            let count = Int(word & 0x7FFF_FFFF)
            guard count <= maxBlock, at + count + blockChecksum <= frame.count else { return nil }
            blocks.append((at, count, word & 0x8000_0000 != 0))
            at += count + blockChecksum
        }
    }

    /// How many blocks the frame holds.
    var count: Int { blocks.count }

    /// Decodes block `k` into the start of `dst`, at most `limit` bytes of it (the whole
    /// block when it fits); returns how many bytes it wrote, or `nil` when the block is
    /// damaged or does not fit in `dst` whole while no limit was asked.
    func decode(_ k: Int, into dst: UnsafeMutableRawBufferPointer, limit: Int? = nil) -> Int? {
        let block = blocks[k]
        let source = (frame.baseAddress! + block.start).assumingMemoryBound(to: CChar.self)
        if block.isRaw {
            let count = min(block.count, limit ?? block.count)
            guard count <= dst.count else { return nil }
            dst.baseAddress!.copyMemory(from: source, byteCount: count)
            return count
        }
        let target = dst.baseAddress!.assumingMemoryBound(to: CChar.self)
        let capacity = Int32(clamping: dst.count)
        let produced =
            limit.map { LZ4_decompress_safe_partial(source, target, Int32(block.count), Int32(clamping: min($0, dst.count)), capacity) }
            ?? LZ4_decompress_safe(source, target, Int32(block.count), capacity)
        return produced >= 0 ? Int(produced) : nil
    }
}

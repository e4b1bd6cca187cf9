import CLZ4

/// liblz4's frame API, the only place the library touches it.
///
/// Frames are written with content size and content checksum and independent blocks, so
/// `lz4 -t` checks them and `lz4 -dc` decodes them. liblz4 compresses the blocks
/// (`LZ4F_compressFrame`, asked for no content checksum); the content checksum and the
/// header checksum that covers its flag are this library's ``XXH32``, which gives the
/// bytes liblz4 would and is about twice as fast as the distribution's build of it.
enum LZ4Frame {
    /// The most bytes the frame of `count` bytes of content takes
    /// (`LZ4F_compressFrameBound`, content checksum included).
    static func bound(_ count: Int) -> Int {
        var prefs = preferences(contentSize: count)
        prefs.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled
        return LZ4F_compressFrameBound(count, &prefs)
    }

    /// Compresses `bytes` into one LZ4 frame.
    static func compress(_ bytes: [UInt8]) throws -> [UInt8] {
        try [UInt8](unsafeUninitializedCapacity: bound(bytes.count)) { output, count in
            count = try bytes.withUnsafeBytes { try compress($0, into: UnsafeMutableRawBufferPointer(output)) }
        }
    }

    /// Writes the LZ4 frame of `input` at the start of `output`, which holds at least
    /// ``bound(_:)`` of its length (nothing is zero-filled first); returns the frame's length.
    static func compress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws -> Int {
        precondition(output.count >= bound(input.count), "LZ4Frame.compress: the output is smaller than the bound")
        var prefs = preferences(contentSize: input.count)
        let written = LZ4F_compressFrame(output.baseAddress, output.count, input.baseAddress, input.count, &prefs)
        guard LZ4F_isError(written) == 0 else {
            throw HealthLogError(.io, "LZ4 compression failed: \(String(cString: LZ4F_getErrorName(written)))")
        }
        // The frame descriptor: FLG, BD, the content size when FLG's bit 3 says so (liblz4
        // leaves it out of an empty frame), then the header checksum, the second byte of
        // the descriptor's XXH32. Setting the content checksum flag (bit 2) changes it.
        let flags = output[4] | 0x04
        output[4] = flags
        let checksumAt = 6 + (flags & 0x08 != 0 ? 8 : 0)
        output[checksumAt] = UInt8(truncatingIfNeeded: XXH32.hash(UnsafeRawBufferPointer(rebasing: output[4..<checksumAt])) >> 8)
        output.storeBytes(of: XXH32.hash(input).littleEndian, toByteOffset: written, as: UInt32.self)
        return written + 4
    }

    /// The frame that opens every segment: an LZ4 frame with no content, so the file starts
    /// with a data frame as the LZ4 format advises before skippable frames.
    static let emptyFrame: [UInt8] = {
        var prefs = LZ4F_preferences_t()
        prefs.frameInfo.blockMode = LZ4F_blockIndependent
        var output = [UInt8](repeating: 0, count: 64)
        let written = output.withUnsafeMutableBytes { out in
            LZ4F_compressFrame(out.baseAddress, 64, nil, 0, &prefs)
        }
        return LZ4F_isError(written) == 0 ? Array(output[0..<written]) : []
    }()

    /// What liblz4 is asked for: 256 KiB independent blocks, the content size, level 0
    /// (LZ4's fast compressor), and no content checksum (``compress(_:into:)`` adds it).
    private static func preferences(contentSize: Int) -> LZ4F_preferences_t {
        var prefs = LZ4F_preferences_t()
        prefs.frameInfo.blockSizeID = LZ4F_max256KB
        prefs.frameInfo.blockMode = LZ4F_blockIndependent
        prefs.frameInfo.contentSize = UInt64(contentSize)
        prefs.compressionLevel = 0
        return prefs
    }
}

/// Decompresses LZ4 frames with one reusable `LZ4F_dctx`. Not thread-safe: one per reader.
final class LZ4FrameDecoder {
    /// The largest block a stored frame holds (`LZ4F_max256KB`, see ``LZ4Frame``).
    static let blockSize = 256 << 10
    private var context: OpaquePointer?

    /// Creates the decompression context (`LZ4F_createDecompressionContext`).
    init() throws {
        var ctx: OpaquePointer?
        let code = LZ4F_createDecompressionContext(&ctx, UInt32(LZ4F_VERSION))
        guard LZ4F_isError(code) == 0, let ctx else { throw HealthLogError(.io, "cannot create an LZ4 decompression context") }
        context = ctx
    }

    deinit {
        LZ4F_freeDecompressionContext(context)
    }

    /// Decompresses the single frame `input` into `dst`, which it must fill exactly;
    /// returns `nil` on success, else what is wrong (the caller adds the location).
    /// `checkContent` verifies LZ4's own content checksum too (`verify` does; queries rely
    /// on the CRC-32C of the stored frame, checked before decompressing).
    func decompress(_ input: [UInt8], into dst: UnsafeMutableRawBufferPointer, checkContent: Bool) -> FormatViolation? {
        input.withUnsafeBytes { decompress($0, into: dst, checkContent: checkContent) }
    }

    /// ``decompress(_:into:checkContent:)`` of a frame held anywhere in memory.
    func decompress(_ frame: UnsafeRawBufferPointer, into dst: UnsafeMutableRawBufferPointer, checkContent: Bool) -> FormatViolation? {
        decompress(frame, into: dst, length: dst.count, checkContent: checkContent)
    }

    /// Decompresses `frame`, which must hold exactly `rawLength` bytes, into the start of
    /// `dst`, which may be longer: with room for a whole block (``blockSize``) past the
    /// end of the content, LZ4 decodes every block in place instead of decoding the last
    /// one into its own buffer and copying it (bytes past `rawLength` may be overwritten).
    func decompress(_ frame: UnsafeRawBufferPointer, into dst: UnsafeMutableRawBufferPointer, length rawLength: Int, checkContent: Bool) -> FormatViolation? {
        LZ4F_resetDecompressionContext(context)
        var options = LZ4F_decompressOptions_t()
        options.stableDst = 1
        options.skipChecksums = checkContent ? 0 : 1
        var consumed = 0
        var produced = 0
        var status = 1
        while consumed < frame.count {
            var srcSize = frame.count - consumed
            var dstSize = dst.count - produced
            status = LZ4F_decompress(context, dst.baseAddress.map { $0 + produced }, &dstSize, frame.baseAddress! + consumed, &srcSize, &options)
            if LZ4F_isError(status) != 0 {
                return FormatViolation("LZ4 frame is damaged (\(String(cString: LZ4F_getErrorName(status))))")
            }
            consumed += srcSize
            produced += dstSize
            if status == 0 || (srcSize == 0 && dstSize == 0) { break }
        }
        guard status == 0, consumed == frame.count else { return FormatViolation("LZ4 frame is incomplete") }
        guard produced == rawLength else { return FormatViolation("LZ4 frame holds \(produced) bytes, header says \(rawLength)") }
        return nil
    }
}

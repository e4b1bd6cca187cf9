import CLZ4
import HealthLog

/// One chunk of an ``EventSpill``: records compressed as one LZ4 frame with liblz4's frame
/// API (`LZ4F_compressFrame`, `LZ4F_decompress`), the import's only use of it. Event lines
/// repeat their keys, types and sources, so a chunk is several times smaller than its
/// records.
enum SpillChunk {
    /// `raw` compressed into one frame.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when liblz4 fails.
    static func compress(_ raw: [UInt8]) throws -> [UInt8] {
        var prefs = LZ4F_preferences_t()
        prefs.frameInfo.blockSizeID = LZ4F_max4MB
        prefs.frameInfo.contentSize = UInt64(raw.count)
        let bound = LZ4F_compressFrameBound(raw.count, &prefs)
        var out = [UInt8](repeating: 0, count: bound)
        let written = raw.withUnsafeBytes { input in
            out.withUnsafeMutableBytes { LZ4F_compressFrame($0.baseAddress, bound, input.baseAddress, input.count, &prefs) }
        }
        guard LZ4F_isError(written) == 0 else {
            throw HealthLogError(.io, "cannot compress the import's temporary data: \(String(cString: LZ4F_getErrorName(written)))")
        }
        return Array(out[0..<written])  // a copy of its size: the bound's capacity would stay held
    }

    /// Decompresses the frame `frame` into `raw`, whose size is the frame's content size.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when the frame does not decompress to exactly
    ///   `raw.count` bytes.
    static func decompress(_ frame: UnsafeRawBufferPointer, into raw: UnsafeMutableRawBufferPointer) throws {
        var context: OpaquePointer?
        guard LZ4F_isError(LZ4F_createDecompressionContext(&context, UInt32(LZ4F_VERSION))) == 0, let context else {
            throw HealthLogError(.io, "cannot create an LZ4 decompression context")
        }
        defer { LZ4F_freeDecompressionContext(context) }
        var consumed = 0
        var produced = 0
        var status = 1
        while status != 0, consumed < frame.count {
            var source = frame.count - consumed
            var room = raw.count - produced
            status = LZ4F_decompress(context, raw.baseAddress.map { $0 + produced }, &room, frame.baseAddress! + consumed, &source, nil)
            guard LZ4F_isError(status) == 0 else { break }
            consumed += source
            produced += room
        }
        guard LZ4F_isError(status) == 0, status == 0, produced == raw.count else {
            throw HealthLogError(.io, "the import's temporary data does not decompress")
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The data-key epochs an encrypted store's segments are sealed under, read without a key:
/// a sealed batch table is a unit whose first four bytes, right after the header's 48
/// fixed bytes, name its epoch in clear (the batch's frames are sealed with it under the
/// same epoch). `key list` shows them, so an epoch no file uses any more can be told.
enum SealedEpochs {
    /// How many batches each epoch seals, over every segment file of `layout`; a segment's
    /// walk stops at the first batch that does not read (a torn tail, or damage, which
    /// `verify` reports).
    ///
    /// - Throws: ``HealthLogError/Code/io`` when a segment cannot be read.
    static func count(_ layout: StoreLayout) throws -> [UInt32: Int] {
        var counts: [UInt32: Int] = [:]
        for name in try layout.listSegments() {
            let fd = try FileDescriptor.open(layout.segment(baseSeq: name.baseSeq, generation: name.generation), flags: O_RDONLY)
            defer { fd.close() }
            let size = try fd.size()
            var offset = SegmentLayout.prologueLength
            while offset + 8 <= size {
                let frame = try fd.read(at: offset, count: 8)
                let length = Int(ByteReaderValue.u32(frame, 4))
                guard ByteReaderValue.u32(frame, 0) == FormatConstants.batchHeaderMagic, length >= BatchHeader.FixedFields.length + 8,
                    offset + 8 + length <= size
                else { break }
                let payload = try fd.read(at: offset + 8, count: length)
                guard let fixed = payload.withUnsafeBytes({ BatchHeader.FixedFields($0) }) else { break }
                if fixed.flags & FormatConstants.flagSealed != 0 {
                    counts[ByteReaderValue.u32(payload, BatchHeader.FixedFields.length), default: 0] += 1
                }
                offset += 8 + length + fixed.framesLength
            }
        }
        return counts
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The stored header payloads of one segment's batches, for writing its index
/// (``SegmentIndex/write(_:name:batches:cipher:staged:)``): a plaintext header's encoding,
/// the payload a writer's sealed batch keeps (``BatchRef/sealedPayload``), or else (a sealed
/// header, or one whose dropped list the snapshot keeps as a count) one read back from the
/// segment, so a snapshot that walks a compacted store keeps no header as stored.
///
/// A payload read back is taken as the segment holds it now: the frame at the batch's
/// offset must be a batch header of the batch's payload length, or the write stops. Nothing
/// more is checked; an index is derived data, and a reader takes an entry only once the
/// segment holds the same bytes (``SegmentFile/holdsHeader(_:at:buffer:)``).
struct StoredHeaderPayloads: ~Copyable {
    /// The segment's path.
    private let path: String
    /// The path relative to the store directory, for messages.
    private let displayPath: String
    /// The segment, opened at the first payload read back.
    private var descriptor: FileDescriptor?
    /// The last payload read back.
    private var buffer: [UInt8] = []

    /// The payloads of the batches of segment `name`.
    init(_ layout: StoreLayout, _ name: SegmentName) {
        path = layout.segment(baseSeq: name.baseSeq, generation: name.generation)
        displayPath = "segments/" + name.fileName
    }

    deinit { descriptor?.close() }

    /// The header payload of `batch` as its segment stores it.
    ///
    /// - Throws: ``HealthLogError/Code/corrupt`` when a payload read back is not there.
    mutating func payload(of batch: BatchRef) throws -> ArraySlice<UInt8> {
        if let kept = batch.sealedPayload { return kept[...] }
        if !batch.header.isSealed, !batch.header.dropped.isCountOnly { return batch.header.encoded().dropFirst(8) }
        let length = batch.payloadLength
        if descriptor == nil { descriptor = try FileDescriptor.open(path, flags: O_RDONLY) }
        buffer.resize(forOverwrite: 8 + length)
        guard try descriptor!.read(into: &buffer, at: batch.offset) == buffer.count, ByteReaderValue.u32(buffer, 0) == FormatConstants.batchHeaderMagic,
            ByteReaderValue.u32(buffer, 4) == UInt32(length)
        else {
            throw HealthLogError(.corrupt, "\(displayPath) at byte \(batch.offset): the batch header is not there to copy into its index")
        }
        return buffer[8...]
    }
}

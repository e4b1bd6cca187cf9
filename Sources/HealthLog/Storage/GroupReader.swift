/// Reads and decompresses groups of a ``LogSnapshot``'s batches on a thread other than the
/// snapshot's: the snapshot's segments as it recorded them, through descriptors, an LZ4
/// decoder and a frame buffer of its own (a snapshot's serve one thread at a time). The
/// same checks as ``LogSnapshot/readGroup(_:_:into:at:)``, the same errors.
///
/// Made on the snapshot's thread, then used by one other thread only.
final class GroupReader {
    private let segments: [SegmentFile]
    private let decoder: LZ4FrameDecoder
    private let checksContent: Bool
    private let cipher: StoreCipher?
    private var frameBuffer: [UInt8] = []

    /// A reader of `snapshot`'s segments.
    init(_ snapshot: LogSnapshot) throws {
        let descriptors = SegmentDescriptors(snapshot.layout)
        segments = snapshot.segments.map { $0.reading(through: descriptors) }
        decoder = try LZ4FrameDecoder()
        checksContent = snapshot.checksContent
        cipher = snapshot.cipher
    }

    /// Decompresses group `group` of `batch` into `storage` at `offset`, as
    /// ``LogSnapshot/readGroup(_:_:into:at:)`` does; returns the number of bytes written.
    func readGroup(_ batch: BatchRef, _ group: Int, into storage: inout [UInt8], at offset: Int) throws -> Int {
        try LogSnapshot.readGroup(
            batch, group, of: segments[batch.segment], frameBuffer: &frameBuffer, decoder: decoder, cipher: cipher, checksContent: checksContent, into: &storage, at: offset)
    }
}

/// Encodes an append's batches — each group's LZ4 frame and checksums — on a background
/// thread while the session fills the next batch, and writes them through the
/// ``LogWriter`` in order, on the session's thread. Up to two batches are being encoded
/// while the next fills, so memory holds about three batches: with one, the session's
/// thread waited on each batch's encoding while a core stood idle (a 1M-event append took
/// about 3% longer).
///
/// In an encrypted store an encoded batch is then placed (``LogWriter/place(_:length:)``:
/// where it will lie, which its sealed units are bound to) and sealed on a background
/// thread too, while the batch before it is written: one encoded batch more in memory (its
/// builder is reused as soon as it is encoded, as in a plaintext store), and the session's
/// thread does no sealing. A batch is sealed into the buffer of a batch written before
/// (two take turns: one being sealed while the other is written), not into fresh memory the
/// kernel must fault in and zero for every batch.
///
/// The bytes written are the ones ``BatchBuilder/encode(storeTag:appendedMillis:endOfAppend:names:)``
/// makes; only when they are written moves, by one batch.
final class BatchPipeline {
    /// An encoded batch, and its builder to reuse.
    private typealias Encoded = (header: BatchHeader, bytes: [UInt8], builder: BatchBuilder)
    /// A batch sealed at its place, in its buffer.
    private typealias Sealed = (header: BatchHeader, buffer: ReusedBytes, place: BatchPlace)

    /// Writes the encoded batches.
    private let writer: LogWriter
    /// The batches being encoded, oldest first. The writer waits for each, so their threads
    /// give way less than the line parsers' (user-initiated against default): behind those,
    /// the writer would sit idle while a core parsed lines it could not store yet.
    private let jobs = OrderedJobs<Result<Encoded, any Error>>(qos: .userInitiated)
    /// The batches of an encrypted store being sealed, oldest first, after those being
    /// encoded.
    private let sealing = OrderedJobs<Sealed>(qos: .userInitiated)
    /// A written batch's builder, emptied, for the next batch.
    private var spare: BatchBuilder?
    /// The buffers of written sealed batches, for the next batches to be sealed into.
    private var spareBuffers: [ReusedBytes] = []

    /// A pipeline writing through `writer`.
    init(_ writer: LogWriter) {
        self.writer = writer
    }

    /// Hands `builder`'s batch over to be encoded, then writes the batch handed over two
    /// before it (waiting for its encoding); returns an empty builder for the next batch.
    func submit(_ builder: BatchBuilder, storeTag: UInt64, appendedMillis: Int64, endOfAppend: Bool, origin: BatchOrigin? = nil, names: Interner) throws -> BatchBuilder {
        jobs.submit {
            Result {
                let batch = try builder.encode(storeTag: storeTag, appendedMillis: appendedMillis, endOfAppend: endOfAppend, origin: origin, names: names)
                return (batch.header, batch.bytes, builder)
            }
        }
        while jobs.pending > 2 { try writeNext() }
        defer { spare = nil }
        return spare ?? BatchBuilder()
    }

    /// Writes every batch handed over, in order.
    func drain() throws {
        while jobs.pending > 0 { try writeNext() }
        while sealing.pending > 0 { try writeSealed() }
    }

    /// Writes the oldest batch handed over once it is encoded; in an encrypted store,
    /// places it and starts its sealing, then writes the oldest sealed batch if another is
    /// being sealed.
    private func writeNext() throws {
        guard let result = jobs.next() else { return }
        // Taken apart, so the builder is the only holder of its buffers when it is emptied.
        let (header, bytes, builder) = try (consume result).get()
        guard let place = try writer.place(header, length: bytes.count) else {
            try writer.write(bytes, header: header)
            builder.frameRoom.keepWritten(consume bytes)
            recycle(consume builder)
            return
        }
        // Sealing needs the encoded bytes only: the builder goes back to fill the next batch.
        recycle(consume builder)
        let buffer = spareBuffers.popLast() ?? ReusedBytes()
        sealing.submit {
            let sealed = header.sealed(bytes, at: place, into: &buffer.bytes)
            return (sealed, buffer, place)
        }
        while sealing.pending > 1 { try writeSealed() }
    }

    /// Writes the oldest batch being sealed once it is sealed.
    private func writeSealed() throws {
        guard let batch = sealing.next() else { return }
        try writer.write(sealed: batch.buffer.bytes, header: batch.header, at: batch.place)
        spareBuffers.append(batch.buffer)
    }

    /// Keeps a written batch's builder, emptied, for a later batch: given its only copy, it
    /// keeps its groups' buffers (a shared one would be copied afresh, and faulted in again).
    private func recycle(_ builder: consuming BatchBuilder) {
        builder.reset()
        spare = builder
    }
}

/// Encodes an append's batches — each group's LZ4 frame and checksums — on a background
/// thread while the session fills the next batch, and writes them through the
/// ``LogWriter`` in order, on the session's thread. At most one batch is being encoded
/// while the next fills, so memory holds about two batches.
///
/// The bytes written are the ones ``BatchBuilder/encode(storeTag:appendedMillis:endOfAppend:names:)``
/// makes; only when they are written moves, by one batch.
final class BatchPipeline {
    /// An encoded batch, and its builder to reuse.
    private typealias Encoded = (header: BatchHeader, bytes: [UInt8], builder: BatchBuilder)

    /// Writes the encoded batches.
    private let writer: LogWriter
    /// The batches being encoded, oldest first. The writer waits for each, so they run
    /// ahead of the chunks of lines waiting to be parsed at the default class: behind those,
    /// the writer would sit idle while a core parsed lines it could not store yet.
    private let jobs = OrderedJobs<Result<Encoded, any Error>>(qos: .userInitiated)
    /// A written batch's builder, emptied, for the batch after next.
    private var spare: BatchBuilder?

    /// A pipeline writing through `writer`.
    init(_ writer: LogWriter) {
        self.writer = writer
    }

    /// Hands `builder`'s batch over to be encoded, then writes the batch handed over
    /// before it (waiting for its encoding); returns an empty builder for the next batch.
    func submit(_ builder: BatchBuilder, storeTag: UInt64, appendedMillis: Int64, endOfAppend: Bool, origin: BatchOrigin? = nil, names: Interner) throws -> BatchBuilder {
        jobs.submit {
            Result {
                let batch = try builder.encode(storeTag: storeTag, appendedMillis: appendedMillis, endOfAppend: endOfAppend, origin: origin, names: names)
                return (batch.header, batch.bytes, builder)
            }
        }
        while jobs.pending > 1 { try writeNext() }
        defer { spare = nil }
        return spare ?? BatchBuilder()
    }

    /// Writes every batch handed over, in order.
    func drain() throws {
        while jobs.pending > 0 { try writeNext() }
    }

    /// Writes the oldest batch handed over once it is encoded.
    private func writeNext() throws {
        guard let result = jobs.next() else { return }
        let batch = try result.get()
        try writer.write(batch.bytes, header: batch.header)
        var emptied = batch.builder
        emptied.reset()
        spare = emptied
    }
}

/// A consistent, read-only view of the log: the committed batches up to the end of the
/// last complete append when the snapshot was opened.
///
/// Opening walks the batch headers of every segment (not the data), checks their
/// checksums and sequence continuity, and tells a torn tail (an unfinished or unverifiable
/// last append, which is ignored) from damage (a bad batch with valid data after it, which
/// is an error naming the file and byte offset). Readers never write; any number of them
/// can run while a writer appends.
final class LogSnapshot {
    /// The store's files.
    let layout: StoreLayout
    /// The store's identity and format.
    let meta: StoreMeta
    /// The segments, in sequence order.
    let segments: [SegmentFile]
    /// The committed batches, in sequence order.
    let batches: [BatchRef]
    /// The highest committed sequence number (0 when empty).
    let headSeq: UInt64
    /// The ignored tail, if any.
    let tornTail: TornTail?
    /// Where the next append starts: the segment index and offset just past the last
    /// committed batch (or past the first segment's header when no batch is committed);
    /// `nil` when no segment exists yet.
    let appendPoint: (segment: Int, offset: Int)?

    private let decoder: LZ4FrameDecoder
    private var frameBuffer: [UInt8] = []

    /// Opens a snapshot of the store at `layout`.
    init(_ layout: StoreLayout) throws {
        self.layout = layout
        meta = try StoreMeta.read(layout)
        decoder = try LZ4FrameDecoder()
        var scan = try LogScan(layout: layout, meta: meta)
        try scan.run()
        try scan.verifyLastAppend(Checkpoint.read(layout), decoder: decoder)
        segments = scan.segments
        batches = Array(scan.batches[0..<scan.committedCount])
        headSeq = batches.last?.header.lastSeq ?? 0
        tornTail = scan.tornTail()
        appendPoint = scan.appendPoint()
    }

    /// Decompresses group `group` of `batch` into `output`, after checking the frame's
    /// CRC-32C; damage is reported with the file and byte offset.
    func readGroup(_ batch: BatchRef, _ group: Int, into output: inout [UInt8]) throws {
        let entry = batch.header.groups[group]
        let file = segments[batch.segment]
        let offset = batch.groupOffsets[group]
        try file.read(into: &frameBuffer, at: offset, count: Int(entry.frameLength))
        guard CRC32C.checksum(frameBuffer[...]) == entry.frameCRC else {
            throw HealthLogError(.corrupt, "\(file.location(offset)): frame checksum mismatch (\(entry.type) events \(entry.firstSeq)...\(entry.lastSeq))")
        }
        if let violation = decoder.decompress(frameBuffer, rawLength: Int(entry.rawLength), into: &output) {
            throw HealthLogError(.corrupt, "\(file.location(offset)): \(violation.reason)")
        }
    }
}

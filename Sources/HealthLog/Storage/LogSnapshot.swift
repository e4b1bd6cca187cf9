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
    /// Segments whose sidecar index the next writer must rewrite.
    let segmentsNeedingIndex: [Int]

    /// Whether reads also verify LZ4's content checksum (set by `verify`; the CRC-32C of
    /// every frame is checked on every read regardless).
    var checksContent = false
    private let decoder: LZ4FrameDecoder
    private var frameBuffer: [UInt8] = []

    /// Opens a snapshot of the store at `layout`; `usingIndexes: false` walks every batch
    /// header instead of trusting the segments' sidecar indexes (as `verify` does).
    init(_ layout: StoreLayout, usingIndexes: Bool = true) throws {
        self.layout = layout
        meta = try StoreMeta.read(layout)
        decoder = try LZ4FrameDecoder()
        var scan = try LogScan(layout: layout, meta: meta, usingIndexes: usingIndexes)
        try scan.run()
        try scan.verifyLastAppend(Checkpoint.read(layout), decoder: decoder)
        segments = scan.segments
        batches = Array(scan.batches[0..<scan.committedCount])
        headSeq = batches.last?.header.lastSeq ?? 0
        tornTail = scan.tornTail()
        appendPoint = scan.appendPoint()
        segmentsNeedingIndex = scan.segmentsNeedingIndex()
    }

    /// Decompresses group `group` of `batch` into `storage` at `offset` (growing it as
    /// needed), after checking the frame's CRC-32C; damage is reported with the file and
    /// byte offset. Returns the number of bytes written.
    func readGroup(_ batch: BatchRef, _ group: Int, into storage: inout [UInt8], at offset: Int) throws -> Int {
        let entry = batch.header.groups[group]
        let file = segments[batch.segment]
        let frameOffset = batch.groupOffsets[group]
        try file.read(into: &frameBuffer, at: frameOffset, count: Int(entry.frameLength))
        guard CRC32C.checksum(frameBuffer[...]) == entry.frameCRC else {
            throw HealthLogError(.corrupt, "\(file.location(frameOffset)): frame checksum mismatch (\(entry.type) events \(entry.firstSeq)...\(entry.lastSeq))")
        }
        let length = Int(entry.rawLength)
        if storage.count < offset + length { storage.append(contentsOf: repeatElement(0, count: offset + length - storage.count)) }
        let failure = storage.withUnsafeMutableBytes { raw in
            decoder.decompress(frameBuffer, into: UnsafeMutableRawBufferPointer(rebasing: raw[offset..<offset + length]), checkContent: checksContent)
        }
        if let failure { throw HealthLogError(.corrupt, "\(file.location(frameOffset)): \(failure.reason)") }
        return length
    }
}

/// A consistent, read-only view of the log: the committed batches up to the end of the
/// last complete append when the snapshot was opened.
///
/// Opening reads the batch headers at the end of the log (not the data), checks their
/// checksums and sequence continuity, and tells a torn tail (an unfinished or unverifiable
/// last append, which is ignored) from damage (a bad batch with valid data after it, which
/// is an error naming the file and byte offset; so is a log that holds less than the
/// checkpoint says was acknowledged). Sealed segments before that are taken on
/// their sidecar index's word and their batch tables loaded only when a query reaches them,
/// and so is the last segment when its index, the checkpoint and the file end at the same
/// batch, so opening costs the same for ten million events as for one million. Readers never
/// write; any number of them can run while a writer appends.
final class LogSnapshot {
    /// The store's files.
    let layout: StoreLayout
    /// The store's identity and format.
    let meta: StoreMeta
    /// The cipher of an encrypted store (its batches' tables and frames are sealed); `nil`
    /// for a plaintext store.
    let cipher: StoreCipher?
    /// The segments, in sequence order: names and sizes, their descriptors opened only
    /// while their bytes are read (at most ``SegmentDescriptors/defaultCapacity`` at once).
    let segments: [SegmentFile]
    /// The committed batches of the walked segments at the end of the log.
    private let tail: [BatchRef]
    /// The leading segments known from their index headers (see ``LogScan/prefix``), and
    /// their batch tables once loaded.
    private let prefix: [SegmentIndex.Summary]
    /// (One entry per leading segment: arrays, not dictionaries keyed by segment, which
    /// would make a page's first lookup search every `Hashable` conformance of the binary.)
    private var loadedPrefix: [[BatchRef]?] = []
    /// The ends of leading segments' batch tables read so far: the batches after `seq`.
    private var loadedTails: [LoadedTail?] = []

    /// The batches of a leading segment after `seq`; with `types`, their headers may list
    /// only the groups of those types (see ``batches(after:types:)``).
    private struct LoadedTail {
        var seq: UInt64
        var batches: [BatchRef]
        var types: Set<String>? = nil
    }
    private let scan: LogScan
    /// Where restores cut the log (empty for a store never restored).
    var timelines: Timelines { scan.timelines }
    /// What `compact` committed (empty for a store never compacted).
    var compactions: Compactions { scan.compactions }
    /// The shared lock that keeps superseded segment files this snapshot may open in place.
    private let readerLock: ReaderLock?
    /// The highest committed sequence number (0 when empty).
    let headSeq: UInt64
    /// The checkpoint the log was checked against (`nil` when the store has none).
    let checkpoint: Checkpoint?
    /// The ignored tail, if any.
    let tornTail: TornTail?
    /// Where the next append starts: the segment index and offset just past the last
    /// committed batch (or past the first segment's header when no batch is committed);
    /// `nil` when no segment exists yet.
    let appendPoint: (segment: Int, offset: Int)?
    /// Segments whose sidecar index the next writer must rewrite.
    let segmentsNeedingIndex: [Int]

    /// The headers ``fullHeader(of:)`` read last.
    private var wholeHeaders = WholeHeaders()

    /// How many batch headers of the leading segments reads have decoded since opening:
    /// what a query's table of batches cost (a page should decode a few, not every one
    /// after its anchor).
    private(set) var headersDecoded = 0

    /// Whether reads also verify LZ4's content checksum (set by `verify`; the CRC-32C of
    /// every frame is checked on every read regardless).
    var checksContent = false
    private let decoder: LZ4FrameDecoder
    private var frameBuffer: [UInt8] = []

    /// Whether this is a keyless snapshot of an encrypted store: its batch headers are
    /// shells (``BatchHeader/shell``: fixed fields, no groups), so it knows the log's
    /// structure (segments, sequence numbers, the append point, each batch's frames and
    /// their CRC-32C) and none of its content. Its batches are given only to those who ask
    /// for shells (``allBatches(allowingShells:)``, ``batches(inSegment:allowingShells:)``):
    /// any other read throws ``HealthLogError/Code/keyRequired``, so no query can answer
    /// from shells (nothing, silently).
    let readsShells: Bool

    /// Opens a snapshot of the store at `layout`; `usingIndexes: false` walks every batch
    /// header instead of trusting the segments' sidecar indexes (as `verify` does).
    /// `keyless` opens an encrypted store without asking for its key (see ``readsShells``):
    /// what a backup, which copies ciphertext, needs; a plaintext store's snapshot is the
    /// same either way. Its headers keep their dropped lists as counts
    /// (``BatchHeader/DroppedList``, ``fullHeader(of:)``). `betweenReads` runs between
    /// reading the checkpoint and listing the segments (tests commit an append there, as a
    /// concurrent writer may).
    init(_ layout: StoreLayout, usingIndexes: Bool = true, keyless: Bool = false, betweenReads: () throws -> Void = {}) throws {
        self.layout = layout
        meta = try StoreMeta.read(layout)
        readsShells = keyless && meta.isEncrypted
        cipher = readsShells ? nil : try layout.cipher(meta)
        readerLock = try ReaderLock.shared(layout)
        decoder = try LZ4FrameDecoder()
        // The checkpoint first, then the segments' list and sizes: read the other way round, an
        // append committing in between would leave a checkpoint past the sizes seen, which
        // reads as acknowledged events missing.
        let acknowledged = try Checkpoint.read(layout)
        try betweenReads()
        var scan = try LogScan(layout: layout, meta: meta, usingIndexes: usingIndexes, keyless: keyless)
        checkpoint = scan.compactions.translate(acknowledged)
        try scan.run(checkpoint: checkpoint)
        try scan.verifyLastAppend(checkpoint, decoder: decoder)
        try scan.checkAcknowledged(checkpoint)
        segments = scan.segments
        tail = Array(scan.batches[0..<scan.committedCount])
        prefix = scan.prefix
        loadedPrefix = Array(repeating: nil, count: scan.prefix.count)
        loadedTails = Array(repeating: nil, count: scan.prefix.count)
        headSeq = tail.last?.header.lastSeq ?? prefix.last?.lastSeq ?? 0
        tornTail = scan.tornTail()
        appendPoint = scan.appendPoint()
        segmentsNeedingIndex = scan.segmentsNeedingIndex()
        self.scan = scan
    }

    /// The leading segments taken on their index header's word (see ``LogScan/prefix``).
    var prefixSegmentCount: Int { prefix.count }

    /// The number of committed batches.
    var batchCount: Int { prefix.reduce(0) { $0 + $1.batchCount } + tail.count }

    /// The committed batches of segment `index`; `allowingShells` takes a keyless
    /// snapshot's shells (see ``readsShells``).
    func batches(inSegment index: Int, allowingShells: Bool = false) throws -> [BatchRef] {
        if !allowingShells { try requireKey() }
        if index < prefix.count { return try prefixBatches(index) }
        return tail.filter { $0.segment == index }
    }

    /// Lets go of the batch table of segment `index` that reads kept (a walk over the
    /// segments one at a time, like a compaction's, holds one table, not every one); a
    /// later read of the segment loads it again.
    func releaseBatches(inSegment index: Int) {
        guard index < loadedPrefix.count else { return }
        loadedPrefix[index] = nil
        loadedTails[index] = nil
    }

    /// Every committed batch holding a sequence number above `seq`, in order. With `types`,
    /// for a reader that looks at no other group, a batch's header may list only the groups
    /// of those types (with their frames' offsets): a segment index's by-type copy of the
    /// tables then opens only their units.
    func batches(after seq: UInt64, types: Set<String>? = nil) throws -> [BatchRef] {
        try requireKey()
        return try batches(from: seq, types: types)
    }

    /// Refuses, with ``HealthLogError/Code/keyRequired``, a read of a keyless snapshot's
    /// batches by a reader that needs their content.
    private func requireKey() throws {
        if readsShells { throw StoreKeys.keyRequired(layout) }
    }

    /// ``batches(after:types:)`` without the check.
    private func batches(from seq: UInt64, types: Set<String>? = nil) throws -> [BatchRef] {
        var out: [BatchRef] = []
        if let last = prefix.last, seq < last.lastSeq {
            var first = 0
            while first < prefix.count, prefix[first].lastSeq <= seq { first += 1 }
            for index in first..<prefix.count { out += try prefixBatches(index, after: seq, types: types) }
        }
        return out + tail[tailStart(after: seq)...]
    }

    /// The position in ``tail`` of the first batch holding a sequence number above `seq`.
    private func tailStart(after seq: UInt64) -> Int {
        var low = 0
        var high = tail.count
        while low < high {
            let mid = (low + high) / 2
            if tail[mid].header.lastSeq <= seq { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The committed batches holding a sequence number above `seq`, in order, up to and
    /// including the one that brings the sum of `count` over them to `wanted`, and whether
    /// they reach the head. A limited query asks for the few batches its limit needs (`count`
    /// says how many of a batch's events it may deliver): of a sealed segment's table only
    /// those headers are decoded, the rest of its sidecar walked by the fixed fields only
    /// (the table is loaded in full, as ``batches(after:)`` does, when the sidecar does not
    /// vouch for it). Partial tables are not kept.
    func batches(after seq: UInt64, upTo wanted: Int, counting count: (BatchRef) -> Int) throws -> (batches: [BatchRef], reachesHead: Bool) {
        try requireKey()
        var out: [BatchRef] = []
        var counted = 0
        func isEnough(_ batch: BatchRef) -> Bool {
            counted += count(batch)
            return counted >= wanted
        }
        if let last = prefix.last, seq < last.lastSeq {
            var first = 0
            while first < prefix.count, prefix[first].lastSeq <= seq { first += 1 }
            for index in first..<prefix.count {
                if loadedPrefix[index] == nil, loadedTails[index].map({ $0.seq > seq }) ?? true,
                    let bounded = boundedIndexedBatches(index, after: seq, upTo: wanted - counted, counting: count)
                {
                    out += bounded.batches
                    counted += bounded.counted
                    if counted >= wanted { return (out, out.last?.header.lastSeq == headSeq) }
                    continue
                }
                for batch in try prefixBatches(index, after: seq) {
                    out.append(batch)
                    if isEnough(batch) { return (out, batch.header.lastSeq == headSeq) }
                }
            }
        }
        for batch in tail[tailStart(after: seq)...] {
            out.append(batch)
            if isEnough(batch) { return (out, batch.header.lastSeq == headSeq) }
        }
        return (out, true)
    }

    /// The batches of leading segment `index` whose `lastSeq` is above `seq`, up to the one
    /// that brings the sum of `count` to `wanted` (and that sum), decoded from the sidecar
    /// as they are reached; `nil` when the sidecar does not vouch for the segment.
    private func boundedIndexedBatches(
        _ index: Int, after seq: UInt64, upTo wanted: Int, counting count: (BatchRef) -> Int
    ) -> (batches: [BatchRef], counted: Int)? {
        guard scan.usingIndexes else { return nil }
        var counted = 0
        let walked = scan.decodedEntries(index, after: seq, summary: prefix[index]) { batch in
            counted += count(batch)
            return counted < wanted
        }
        headersDecoded += walked.batches.count
        guard walked.isSound else { return nil }
        return (walked.batches, counted)
    }

    /// Every committed batch, in order; `allowingShells` takes a keyless snapshot's shells
    /// (see ``readsShells``).
    func allBatches(allowingShells: Bool = false) throws -> [BatchRef] {
        if !allowingShells { try requireKey() }
        return try batches(from: 0)
    }

    /// Where a committed batch lies and the sequence numbers it holds: what a reader that
    /// finds events by number keeps of every batch (``LoggedUUIDs``), 32 bytes, instead of
    /// its decoded header.
    struct BatchSpan {
        let firstSeq: UInt64
        let lastSeq: UInt64
        let segment: Int
        let offset: Int
    }

    /// Every committed batch's span, in order. A leading segment's come from its sidecar
    /// index by the headers' fixed fields, each header found byte for byte in the segment
    /// (as ``allBatches(allowingShells:)`` checks them), none decoded or kept, so a store of
    /// any length costs 32 bytes a batch; a segment whose sidecar does not vouch for it, and
    /// the walked segments at the end, give theirs from their batches.
    func batchSpans() throws -> [BatchSpan] {
        try requireKey()
        var spans: [BatchSpan] = []
        for index in prefix.indices {
            if loadedPrefix[index] == nil, let indexed = indexedSpans(index) {
                spans += indexed
            } else {
                spans += try prefixBatches(index).map(BatchSpan.init)
            }
        }
        return spans + tail.map(BatchSpan.init)
    }

    /// The spans of leading segment `index` from its sidecar index; `nil` when the sidecar
    /// does not vouch for the segment.
    private func indexedSpans(_ index: Int) -> [BatchSpan]? {
        guard scan.usingIndexes else { return nil }
        let file = segments[index]
        let timelines = scan.timelines
        var spans: [BatchSpan] = []
        var buffer: [UInt8] = []
        var isFound = true
        let isSound = SegmentIndex.walk(
            layout, file.name, after: 0, matching: prefix[index], storeTag: meta.storeID.tag,
            continues: { first, expected in timelines.continues(first, after: expected - 1) }
        ) { offset, payload in
            guard file.holdsHeader(payload, at: offset, buffer: &buffer), let fixed = BatchHeader.FixedFields(payload) else {
                isFound = false
                return false
            }
            spans.append(BatchSpan(firstSeq: fixed.firstSeq, lastSeq: fixed.lastSeq, segment: index, offset: offset))
            return true
        }
        return isSound && isFound ? spans : nil
    }

    /// The header of `batch` (one of this snapshot's) with its dropped list, which the
    /// snapshot keeps as a count (``BatchHeader/DroppedList``): read again from the segment,
    /// with every group, when the list is not empty; else `batch`'s own.
    ///
    /// - Throws: ``HealthLogError/Code/corrupt`` naming the place when the segment no
    ///   longer holds that batch there.
    func fullHeader(of batch: BatchRef) throws -> BatchHeader {
        guard batch.header.dropped.isCountOnly else { return batch.header }
        if let kept = wholeHeaders.header(segment: batch.segment, offset: batch.offset) { return kept }
        let read = try scan.batch(inSegment: batch.segment, at: batch.offset, keepingDropped: true).header
        guard read.firstSeq == batch.header.firstSeq, read.lastSeq == batch.header.lastSeq, read.dropped.count == batch.header.dropped.count else {
            throw HealthLogError(.corrupt, "\(segments[batch.segment].location(batch.offset)): the batch header changed after this reader opened the log")
        }
        wholeHeaders.keep(read, segment: batch.segment, offset: batch.offset)
        return read
    }

    /// The committed batch of `span` (one ``batchSpans()`` gave): its header read from the
    /// segment, checked and decoded, and not kept.
    ///
    /// - Throws: ``HealthLogError/Code/corrupt`` naming the place when no sound header
    ///   of this store holding the span's numbers is there.
    func batch(at span: BatchSpan) throws -> BatchRef {
        try requireKey()
        let batch = try scan.batch(inSegment: span.segment, at: span.offset)
        guard batch.header.firstSeq == span.firstSeq, batch.header.lastSeq == span.lastSeq else {
            throw HealthLogError(
                .corrupt,
                "\(segments[span.segment].location(span.offset)): holds events \(batch.header.firstSeq)...\(batch.header.lastSeq), not \(span.firstSeq)...\(span.lastSeq)")
        }
        return batch
    }

    /// The stored header payload of the last committed batch, with its segment and offset;
    /// `nil` when nothing is committed. Only that header is read, from its segment.
    func lastCommittedPayload() throws -> (segment: Int, offset: Int, payload: [UInt8])? {
        let last: (segment: Int, offset: Int)
        if let batch = tail.last {
            last = (batch.segment, batch.offset)
        } else if let summary = prefix.last {
            last = (prefix.count - 1, summary.lastOffset)
        } else {
            return nil
        }
        let file = segments[last.segment]
        guard let payload = try file.headerPayload(at: last.offset) else {
            throw HealthLogError(.corrupt, "\(file.location(last.offset)): no whole batch header")
        }
        return (last.segment, last.offset, payload)
    }

    /// The committed batch holding `seq`, if any: of the leading segments, only the table
    /// of the one whose range reaches `seq` is read. Its header's fixed fields, dropped
    /// events and origin are whole; its groups may be only those of the types an earlier
    /// read of the segment asked for (``batches(after:types:)``), whose batches are reused.
    func batch(containing seq: UInt64) throws -> BatchRef? {
        try requireKey()
        guard seq >= 1 else { return nil }
        let found: BatchRef?
        if let index = prefix.firstIndex(where: { $0.lastSeq >= seq }) {
            found = try prefixBatches(index, after: seq - 1, types: loadedTails[index]?.types).first
        } else {
            let k = tailStart(after: seq - 1)
            found = k < tail.count ? tail[k] : nil
        }
        return found.flatMap { $0.header.firstSeq <= seq ? $0 : nil }
    }

    /// The batches of leading segment `index` whose `lastSeq` is above `seq`: read from the
    /// end of its sidecar index when it vouches for them (a query from an anchor near the
    /// segment's end decodes only those headers), else from the whole table. With `types`,
    /// the headers may list only the groups of those types.
    private func prefixBatches(_ index: Int, after seq: UInt64, types: Set<String>? = nil) throws -> [BatchRef] {
        if let loaded = loadedPrefix[index] { return loaded.filter { $0.header.lastSeq > seq } }
        if let tail = loadedTails[index], tail.seq <= seq, tail.types == nil || tail.types == types {
            return tail.batches.filter { $0.header.lastSeq > seq }
        }
        if let batches = scan.indexedBatches(index, after: seq, summary: prefix[index], types: types) {
            headersDecoded += batches.count
            loadedTails[index] = LoadedTail(seq: seq, batches: batches, types: types)
            return batches
        }
        return try prefixBatches(index).filter { $0.header.lastSeq > seq }
    }

    /// Loads the batch table of leading segment `index` (from its full sidecar index, or by
    /// walking its headers), and checks it against the index header it was taken on.
    private func prefixBatches(_ index: Int) throws -> [BatchRef] {
        if let loaded = loadedPrefix[index] { return loaded }
        let summary = prefix[index]
        // Its index walked where it is mapped, each entry decoded as it comes, rather than
        // read whole first: a compacted segment's index lists its dropped events.
        if let batches = scan.indexedBatches(index, after: 0, summary: summary) {
            headersDecoded += batches.count
            loadedPrefix[index] = batches
            return batches
        }
        let result = try scan.scanSegment(index, expectedSeq: summary.firstSeq)
        headersDecoded += result.batches.count
        let file = segments[index]
        if let failure = result.failure {
            throw HealthLogError(.corrupt, "\(file.location(failure.offset)): \(failure.violation.reason)")
        }
        // The walk checked every header; only the range the snapshot was opened on must
        // hold (the index header's other claims, such as its batch count, are the index's
        // word, and a wrong one only leaves the index to be rebuilt).
        guard result.batches.first?.header.firstSeq == summary.firstSeq, result.batches.last?.header.lastSeq == summary.lastSeq else {
            throw HealthLogError(.corrupt, "\(file.displayPath): holds events \(result.batches.first?.header.firstSeq ?? 0)...\(result.batches.last?.header.lastSeq ?? 0), its index says \(summary.firstSeq)...\(summary.lastSeq): run 'healthlog reindex'")
        }
        loadedPrefix[index] = result.batches
        return result.batches
    }

    /// Decompresses group `group` of `batch` into `storage` at `offset` (growing it as
    /// needed, to a block's room past the group so LZ4 decodes every block in place: bytes
    /// after the group's may be overwritten), after checking the frame's CRC-32C; damage is
    /// reported with the file and byte offset. Returns the number of bytes written.
    func readGroup(_ batch: BatchRef, _ group: Int, into storage: inout [UInt8], at offset: Int) throws -> Int {
        try Self.readGroup(
            batch, group, of: segments[batch.segment], frameBuffer: &frameBuffer, decoder: decoder, cipher: cipher, checksContent: checksContent, into: &storage, at: offset)
    }

    /// ``readGroup(_:_:into:at:)`` from `file` (the batch's segment) through the given
    /// frame buffer and decoder: what a ``GroupReader`` on another thread runs with its own.
    static func readGroup(
        _ batch: BatchRef, _ group: Int, of file: SegmentFile, frameBuffer: inout [UInt8], decoder: LZ4FrameDecoder, cipher: StoreCipher?,
        checksContent: Bool, into storage: inout [UInt8], at offset: Int
    ) throws -> Int {
        let entry = batch.header.groups[group]
        let frameOffset = batch.groupOffsets[group]
        try file.read(into: &frameBuffer, at: frameOffset, count: Int(entry.frameLength))
        let length = Int(entry.rawLength)
        let room = offset + length + LZ4FrameDecoder.blockSize
        if storage.count < room { storage.append(contentsOf: repeatElement(0, count: room - storage.count)) }
        let failure = try frameBuffer.withUnsafeMutableBytes { stored in
            let frame = try file.checkedFrame(stored, group: group, of: batch, cipher: cipher, checkContent: checksContent)
            return storage.withUnsafeMutableBytes { raw in
                decoder.decompress(frame, into: UnsafeMutableRawBufferPointer(rebasing: raw[offset...]), length: length, checkContent: checksContent)
            }
        }
        if let failure { throw HealthLogError(.corrupt, "\(file.location(frameOffset)): \(failure.reason)") }
        return length
    }
}

extension LogSnapshot.BatchSpan {
    /// The span of `batch`.
    init(_ batch: BatchRef) {
        self.init(firstSeq: batch.header.firstSeq, lastSeq: batch.header.lastSeq, segment: batch.segment, offset: batch.offset)
    }
}

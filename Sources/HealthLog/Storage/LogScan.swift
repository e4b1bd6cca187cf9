/// The header walk behind ``LogSnapshot``: reads every segment's prologue and batch
/// headers in order, stops at the first thing that is not a valid next batch, and decides
/// whether that is a torn tail or damage.
///
/// Invariants it checks: segment i+1 starts at the sequence number after segment i's last
/// batch; every batch starts at the previous batch's `lastSeq + 1`, or exactly where a
/// timeline start recorded in ``Timelines`` says the log jumps from that `lastSeq`; every
/// batch carries this store's tag; frames lie inside the file. A batch is committed once a batch with
/// the end-of-append flag at or after it is valid.
struct LogScan {
    let layout: StoreLayout
    let meta: StoreMeta
    /// The cipher of an encrypted store, whose batch headers' tables are sealed.
    let cipher: StoreCipher?
    /// Whether batch headers are read as shells (``BatchHeader/shell``): an encrypted store
    /// walked without its key, as a backup does.
    let readsShells: Bool
    /// Where restores cut the log: the only gaps in sequence numbers it accepts.
    let timelines: Timelines
    /// What `compact` committed: which generation of each segment is in use.
    let compactions: Compactions
    private(set) var segments: [SegmentFile] = []
    private(set) var batches: [BatchRef] = []
    /// How many leading batches are committed.
    private(set) var committedCount = 0
    /// The first invalid thing found: segment index, offset, what is wrong.
    private var failure: (segment: Int, offset: Int, violation: FormatViolation)?
    /// Set when the last append was demoted because its frames failed verification.
    private var demotedReason: String?
    /// Offset just past each walked segment's prologue.
    private var prologueEnds: [Int: Int] = [:]
    /// How many batches each walked segment's sidecar index supplied (-1: no usable index).
    private var indexedCounts: [Int: Int] = [:]

    /// Whether segments' sidecar indexes may stand in for walking their headers.
    let usingIndexes: Bool

    /// A scan of the store at `layout`; `keyless` reads an encrypted store's batch headers
    /// as shells without asking for its key (see ``LogSnapshot/init(_:usingIndexes:keyless:betweenReads:)``).
    init(layout: StoreLayout, meta: StoreMeta, usingIndexes: Bool = true, keyless: Bool = false) throws {
        self.layout = layout
        self.meta = meta
        self.usingIndexes = usingIndexes
        readsShells = keyless && meta.isEncrypted
        cipher = readsShells ? nil : try layout.cipher(meta)
        timelines = try Timelines.read(layout)
        compactions = try Compactions.read(layout)
        let descriptors = SegmentDescriptors(layout)
        for name in compactions.current(try layout.listSegments()) {
            guard let file = try SegmentFile(layout, name, descriptors: descriptors) else { continue }
            segments.append(file)
        }
    }

    /// One segment's scan: its valid batches in order, the first problem after them, and
    /// how many batches its sidecar index supplied (-1: none usable).
    struct SegmentScan {
        var batches: [BatchRef] = []
        var failure: (offset: Int, violation: FormatViolation)?
        var indexed = -1
    }

    /// Segments at the start of the log that are known from their sidecar index's header
    /// alone (their batches are loaded only when a reader needs them): sealed ones, and the
    /// last one too when its index and the checkpoint both end where the file ends (see
    /// ``adoptLastSegment(_:nextSeq:)``).
    private(set) var prefix: [SegmentIndex.Summary] = []

    /// Finds the committed end of the log. The last segment is taken on its sidecar index's
    /// word when every segment before it is and the index, the checkpoint and the file all
    /// end at the same batch; otherwise sealed segments whose sidecar index vouches for them
    /// are skipped (see ``prefix``) as long as a later segment holds a committed batch, and
    /// the rest are walked.
    ///
    /// Then it decides whether the first invalid thing is a torn tail or damage. The
    /// checkpoint, when there is one, marks where durably acknowledged appends end: bytes
    /// past it belong to an append that never returned, so anything wrong there is a torn
    /// tail (a power cut may keep a later page of it and lose an earlier one); bytes before
    /// it were synced and acknowledged, so anything wrong or missing there is damage.
    /// Without a checkpoint, valid data after the failure makes it damage.
    mutating func run(checkpoint: Checkpoint?) throws {
        var lazy = usingIndexes ? max(0, segments.count - 1) : 0
        while true {
            batches = []
            committedCount = 0
            failure = nil
            prologueEnds = [:]
            indexedCounts = [:]
            let start = try adoptPrefix(upTo: lazy)
            if start.count == segments.count - 1, try adoptLastSegment(checkpoint, nextSeq: start.nextSeq) { return }
            try scanSuffix(from: start.count, nextSeq: start.nextSeq)
            if committedCount > 0 || start.count == 0 { break }
            lazy = start.count - 1
        }
        guard let failure else { return }
        if let checkpoint {
            let base = segments[failure.segment].name.baseSeq
            let isPast = base > checkpoint.segmentBase || (base == checkpoint.segmentBase && UInt64(failure.offset) >= checkpoint.endOffset)
            if isPast { return }
            let location = segments[failure.segment].location(failure.offset)
            throw HealthLogError(.corrupt, "\(location): \(failure.violation.reason); acknowledged up to sequence \(checkpoint.seq), so this is damage, not a torn tail")
        }
        try refuseIfValidDataFollows(failure)
    }

    /// Takes up to `limit` leading segments on their sidecar index's word: each must have a
    /// sound prologue, an index header that starts at the segment's base, continues the
    /// sequence, covers the whole file, and names a last batch that is byte-identical in the
    /// segment and ends, with the index's last sequence number and flag, where the file does.
    private mutating func adoptPrefix(upTo limit: Int) throws -> (count: Int, nextSeq: UInt64) {
        prefix = []
        var nextSeq: UInt64 = 1
        for file in segments.prefix(limit) {
            guard try checkPrologue(file, expectedBase: nextSeq) == nil, let summary = SegmentIndex.readSummary(layout, file.name),
                summary.batchCount > 0, summary.firstSeq == file.name.baseSeq, continues(summary.firstSeq, nextSeq),
                summary.coveredLength == file.size, try lastBatchMatches(file, summary)
            else { break }
            prefix.append(summary)
            nextSeq = summary.lastSeq + 1
        }
        return (prefix.count, nextSeq)
    }

    /// Takes the last segment on its sidecar index's word, after the sealed ones before it
    /// (which end at `nextSeq` - 1), when nothing can lie past its last committed batch: the
    /// index covers the whole file, the checkpoint names exactly that file, offset and
    /// sequence number (so the last append was acknowledged and its frames need no check),
    /// and the batch header the index names last is there, whole (magic, length, checksum,
    /// store tag, frames inside the file), ends the file and an append, and is the one the
    /// index last saw. On any mismatch it takes nothing and returns `false`: the segment is
    /// walked, as it always was, and a torn tail or damage is found there.
    private mutating func adoptLastSegment(_ checkpoint: Checkpoint?, nextSeq: UInt64) throws -> Bool {
        guard usingIndexes, let checkpoint, let file = segments.last, checkpoint.segmentBase == file.name.baseSeq,
            try checkPrologue(file, expectedBase: nextSeq) == nil, let summary = SegmentIndex.readSummary(layout, file.name),
            summary.batchCount > 0, summary.firstSeq == file.name.baseSeq, continues(summary.firstSeq, nextSeq), summary.lastIsEndOfAppend,
            summary.coveredLength == file.size, checkpoint.endOffset == UInt64(file.size), checkpoint.seq == summary.lastSeq,
            case .success(let last) = try readBatch(file, segments.count - 1, at: summary.lastOffset, expectedSeq: nil),
            last.end == file.size, last.header.isEndOfAppend, last.header.lastSeq == summary.lastSeq,
            last.header.firstSeq >= summary.firstSeq, try lastBatchMatches(file, summary)
        else { return false }
        prefix.append(summary)
        return true
    }

    /// Whether the batch header at `summary`'s last offset is the one the index header names
    /// and says what the header says of it: this store's, its last sequence number and its
    /// end-of-append flag, and frames that end where the covered length does.
    ///
    /// The payload's checksum, stored and as the index recorded it, and its fixed fields
    /// answer that; its table is not decoded (nor, in an encrypted store, opened) here,
    /// since the index was written from a header that decoded, and a reader decodes the
    /// table of any batch it reads.
    private func lastBatchMatches(_ file: SegmentFile, _ summary: SegmentIndex.Summary) throws -> Bool {
        guard let payload = try file.headerPayload(at: summary.lastOffset) else { return false }
        let length = payload.count
        guard length >= 4, SegmentIndex.lastBatchCheck(payload[...]) == summary.lastPayloadCRC,
            ByteReaderValue.u32(payload, length - 4) == summary.lastPayloadCRC,
            let fields = payload.withUnsafeBytes({ BatchHeader.FixedFields($0) }), fields.version <= FormatConstants.originBatchVersion
        else { return false }
        return fields.storeTag == meta.storeID.tag && fields.lastSeq == summary.lastSeq && fields.firstSeq >= summary.firstSeq
            && fields.isEndOfAppend == summary.lastIsEndOfAppend && summary.lastOffset + 8 + length + fields.framesLength == summary.coveredLength
    }

    /// Walks the segments from `first` on.
    private mutating func scanSuffix(from first: Int, nextSeq start: UInt64) throws {
        var nextSeq = start
        for index in segments.indices.dropFirst(first) {
            let scan = try scanSegment(index, expectedSeq: nextSeq)
            // A failure at byte 0 is a broken prologue: appending after it would write
            // events into a file no reader can open, so such a segment is cut whole.
            if scan.failure?.offset != 0 { prologueEnds[index] = SegmentLayout.prologueLength }
            indexedCounts[index] = scan.indexed
            for batch in scan.batches {
                batches.append(batch)
                nextSeq = batch.header.lastSeq + 1
                if batch.header.isEndOfAppend { committedCount = batches.count }
            }
            if let problem = scan.failure {
                failure = (index, problem.offset, problem.violation)
                break
            }
        }
    }

    /// Scans one segment: its prologue, then its sidecar index if usable, then the headers
    /// after what the index covers.
    func scanSegment(_ index: Int, expectedSeq: UInt64) throws -> SegmentScan {
        let file = segments[index]
        var scan = SegmentScan()
        if let violation = try checkPrologue(file, expectedBase: expectedSeq) {
            scan.failure = (0, violation)
            return scan
        }
        var nextSeq = expectedSeq
        var offset = SegmentLayout.prologueLength
        if let indexed = walkedIndex(file, index, expectedSeq: nextSeq) {
            scan.batches = indexed.batches
            nextSeq = indexed.batches.last.map { $0.header.lastSeq + 1 } ?? nextSeq
            offset = indexed.covered
            scan.indexed = indexed.batches.count
        }
        // The segment's batches name the same few types: their groups share those strings.
        let names = BatchHeader.Names()
        while offset < file.size {
            switch try readBatch(file, index, at: offset, expectedSeq: nextSeq, names: names) {
            case .success(let batch):
                scan.batches.append(batch)
                nextSeq = batch.header.lastSeq + 1
                offset = batch.end
            case .failure(let violation):
                scan.failure = (offset, violation)
                return scan
            }
        }
        return scan
    }

    /// Checks a segment's prologue; returns what is wrong when it is not valid.
    private func checkPrologue(_ file: SegmentFile, expectedBase: UInt64) throws -> FormatViolation? {
        let bytes = try file.read(at: 0, count: SegmentLayout.prologueLength)
        guard bytes.count == SegmentLayout.prologueLength else { return FormatViolation("segment header is incomplete") }
        guard Array(bytes[0..<LZ4Frame.emptyFrame.count]) == LZ4Frame.emptyFrame else {
            return FormatViolation("segment does not start with an empty LZ4 frame")
        }
        let header: SegmentHeader
        do {
            header = try SegmentHeader.decode(Array(bytes[LZ4Frame.emptyFrame.count...]))
        } catch let violation as FormatViolation {
            if violation.isNewerVersion { throw HealthLogError(.unsupportedVersion, "\(file.displayPath): \(violation.reason): upgrade healthlog") }
            return violation
        }
        guard header.storeID == meta.storeID else { return FormatViolation("segment belongs to another store") }
        guard header.baseSeq == file.name.baseSeq else {
            return FormatViolation("segment header says it starts at \(header.baseSeq), its name says \(file.name.baseSeq)")
        }
        guard continues(header.baseSeq, expectedBase) else { return FormatViolation("segment starts at sequence \(header.baseSeq), expected \(expectedBase)") }
        return nil
    }

    /// The batches listed by segment `file`'s sidecar index and what it covers, walked where
    /// the file is mapped, each entry decoded as it comes and found in the segment
    /// (``indexedBatches(_:after:summary:types:)``), rather than read whole first: a
    /// compacted segment's index lists every dropped event (24 bytes each), and a last
    /// segment no checkpoint vouches for is scanned here. `nil` when the walk does not
    /// vouch for them.
    private func walkedIndex(_ file: SegmentFile, _ index: Int, expectedSeq: UInt64) -> (batches: [BatchRef], covered: Int)? {
        guard usingIndexes, let summary = SegmentIndex.readSummary(layout, file.name), summary.batchCount > 0, summary.coveredLength <= file.size,
            continues(summary.firstSeq, expectedSeq), let batches = indexedBatches(index, after: 0, summary: summary)
        else { return nil }
        return (batches, summary.coveredLength)
    }

    /// The committed batches of sealed segment `index` whose `lastSeq` is above `seq`, from
    /// its sidecar index, each found in the segment, without reading the table before them (see
    /// ``SegmentIndex/walk(_:_:after:matching:storeTag:continues:visit:copy:)``); `nil` when the
    /// index does not vouch for them, or does not decode. In an encrypted store their tables
    /// come from the index's sealed copy (``OpenedTableCopy``) when it opens and reading it
    /// costs less than opening theirs. With `types`, a batch's header may list only the
    /// groups of those types, with their frames' offsets: a by-type copy opens their units only.
    ///
    /// For readers: the batches keep no sealed payload (``BatchRef/sealedPayload``, what only
    /// an index written from them needs). The copy lies after the entries, so an encrypted
    /// store's index is walked twice: once to open the copy, then to decode each entry where
    /// the mapping holds it. The entries' sealed payloads (a compacted segment's dropped
    /// lists, sealed) and the opened copy are then never held together.
    func indexedBatches(_ index: Int, after seq: UInt64, summary: SegmentIndex.Summary, types: Set<String>? = nil) -> [BatchRef]? {
        guard usingIndexes else { return nil }
        let name = segments[index].name
        var copy: OpenedTableCopy?
        var listed = 0
        if let cipher {
            let opensCopy = { (header: UnsafeRawBufferPointer, unit: UnsafeRawBufferPointer, release: (Int) -> Void) in
                let copyHeader = Array(header.prefix(SegmentIndex.copyPlaceLength))
                guard SealedTableCopy.pays(listed, of: summary.batchCount, someTypes: types != nil && SegmentIndex.isCopyByType(copyHeader)),
                    OpenedTableCopy.isWithinReaderBound(unit, header: copyHeader)
                else { return }
                var failedAt = 0
                // Read out of the mapping a MiB at a time, its pages let go behind, and opened in
                // that memory: the copy's sealed bytes and its opened directory (a compacted
                // segment's dropped lists) are not both held.
                let owned = SegmentIndex.copyOut(unit, letGo: release)
                copy = OpenedTableCopy.open(owned: consume owned, header: copyHeader, cipher: cipher, batchCount: summary.batchCount, types: types, failedAt: &failedAt)
            }
            let isSound = SegmentIndex.walk(
                layout, name, after: seq, matching: summary, storeTag: meta.storeID.tag, continues: continues,
                visit: { _, _ in
                    listed += 1
                    return true
                }, copy: opensCopy)
            guard isSound else { return nil }
        }
        let walked = decodedEntries(index, after: seq, summary: summary, copy: copy, first: summary.batchCount - listed)
        return walked.isSound ? walked.batches : nil
    }

    /// The batches of sealed segment `index` whose `lastSeq` is above `seq`, decoded from its
    /// sidecar index as the walk reaches them (each once the segment holds its header; its
    /// table from `copy`, whose batch `first` is the first one visited, when given), keeping
    /// no sealed payload, until `keep` returns `false` for the one just taken; and whether
    /// the walk was sound and each decoded (when not, the batches must be thrown away).
    func decodedEntries(
        _ index: Int, after seq: UInt64, summary: SegmentIndex.Summary, copy: OpenedTableCopy? = nil, first: Int = 0,
        while keep: (BatchRef) -> Bool = { _ in true }
    ) -> (batches: [BatchRef], isSound: Bool) {
        let names = BatchHeader.Names()
        let file = segments[index]
        var refs: [BatchRef] = []
        var buffer: [UInt8] = []
        var isDecoded = true
        let isSound = SegmentIndex.walk(
            layout, file.name, after: seq, matching: summary, storeTag: meta.storeID.tag, continues: continues
        ) { offset, payload in
            let stored = Array(payload)[...]
            let copied = copy?.table(first + refs.count, payload: stored)
            guard file.holdsHeader(payload, at: offset, buffer: &buffer),
                let header = try? decode(stored, file, offset, names: copied == nil ? names : nil, copied: copied)
            else {
                isDecoded = false
                return false
            }
            if let part = copied?.part {
                refs.append(BatchRef(segment: index, offset: offset, payloadLength: payload.count, header: header, part: part))
            } else {
                refs.append(BatchRef(segment: index, offset: offset, payloadLength: payload.count, header: header))
            }
            return keep(refs[refs.count - 1])
        }
        return (refs, isSound && isDecoded)
    }

    /// The segments whose sidecar index is missing, unusable, or does not list exactly the
    /// segment's committed batches: the next writer rewrites these.
    func segmentsNeedingIndex() -> [Int] {
        var committed = [Int](repeating: 0, count: segments.count)
        for batch in batches[0..<committedCount] { committed[batch.segment] += 1 }
        return indexedCounts.keys.sorted().filter { index in
            let indexed = indexedCounts[index] ?? -1
            return (committed[index] > 0 || indexed > 0) && indexed != committed[index]
        }
    }

    /// What reading a batch header found: the batch, or what is wrong with it. A plain
    /// enum rather than `Result`, whose `Error` requirement makes the Swift runtime search
    /// the binary's protocol conformances the first time a process meets the type (a
    /// 10,000-line page spends 7% of its instructions instantiating generic types at first
    /// use; this one was 0.8%).
    private enum BatchRead {
        case success(BatchRef)
        case failure(FormatViolation)
    }

    /// Reads and checks the batch header at `offset`; its group names shared with `names`'s
    /// when given (``BatchHeader/Names``).
    private func readBatch(
        _ file: SegmentFile, _ index: Int, at offset: Int, expectedSeq: UInt64?, names: BatchHeader.Names? = nil, keepingDropped: Bool = false
    ) throws -> BatchRead {
        let prefix = try file.read(at: offset, count: 8)
        guard prefix.count == 8 else { return .failure(FormatViolation("batch header is incomplete")) }
        guard ByteReaderValue.u32(prefix, 0) == FormatConstants.batchHeaderMagic else {
            return .failure(FormatViolation("bytes that are not a batch header"))
        }
        let length = Int(ByteReaderValue.u32(prefix, 4))
        guard length <= FormatConstants.maxBatchHeaderLength else { return .failure(FormatViolation("batch header claims \(length) bytes")) }
        let payload = try file.read(at: offset + 8, count: length)
        guard payload.count == length else { return .failure(FormatViolation("batch header is incomplete")) }
        let header: BatchHeader
        do {
            header = try decode(payload[...], file, offset, names: names, keepingDropped: keepingDropped)
        } catch let violation as FormatViolation {
            if violation.isNewerVersion { throw HealthLogError(.unsupportedVersion, "\(file.location(offset)): \(violation.reason): upgrade healthlog") }
            if let epoch = violation.unopened, payload.withUnsafeBytes({ BatchHeader.FixedFields($0)?.storeTag }) == meta.storeID.tag {
                // A sealed table of this store with a sound checksum is what was written: a
                // missing key or tampering, never a torn tail a writer may cut.
                throw epoch == 0
                    ? HealthLogError(.corrupt, "\(file.location(offset)): \(violation.reason)")
                    : HealthLogError(
                        .keyRequired,
                        "\(file.location(offset)): sealed under key epoch \(epoch), which the keys opened for this command lack (the key slots changed while it ran?): run it again")
            }
            return .failure(violation)
        }
        guard header.storeTag == meta.storeID.tag else { return .failure(FormatViolation("batch belongs to another store")) }
        if let expectedSeq, !continues(header.firstSeq, expectedSeq) {
            return .failure(FormatViolation("batch starts at sequence \(header.firstSeq), expected \(expectedSeq)"))
        }
        let ref = BatchRef(segment: index, offset: offset, payloadLength: length, header: header)
        guard ref.end <= file.size else { return .failure(FormatViolation("batch frames end past the end of the file")) }
        return .success(ref)
    }

    /// The batch whose header is at `offset` of segment `index`, read and checked;
    /// `keepingDropped` keeps its dropped list whole (see ``decode(_:_:_:verifyingChecksum:names:copied:keepingDropped:)``).
    ///
    /// - Throws: ``HealthLogError/Code/corrupt`` naming the place when no sound batch header
    ///   of this store is there.
    func batch(inSegment index: Int, at offset: Int, keepingDropped: Bool = false) throws -> BatchRef {
        switch try readBatch(segments[index], index, at: offset, expectedSeq: nil, keepingDropped: keepingDropped) {
        case .success(let batch): return batch
        case .failure(let violation): throw HealthLogError(.corrupt, "\(segments[index].location(offset)): \(violation.reason)")
        }
    }

    /// Where the batch at `offset` of `file` lies, for opening its sealed table; `nil` in a
    /// plaintext store.
    func place(_ file: SegmentFile, _ offset: Int) -> BatchPlace? {
        cipher.map { file.place(offset, cipher: $0) }
    }

    /// Decodes the batch header `payload` found at `offset` of `file`: opened in place with
    /// the store's cipher, or read as a shell when ``readsShells`` (and then refused unless
    /// it is sealed, as every header of an encrypted store is).
    /// `copied` is the table as the segment index's sealed copy gives it, taken instead of
    /// opening the header's own (its dropped list, a count, is not checked then). The
    /// dropped list is checked, then kept as its count only unless `keepingDropped` (see
    /// ``BatchHeader/DroppedList``), which needs a header decoded from its own table.
    func decode(
        _ payload: ArraySlice<UInt8>, _ file: SegmentFile, _ offset: Int, verifyingChecksum: Bool = true, names: BatchHeader.Names? = nil,
        copied: BatchHeader.CopiedTable? = nil, keepingDropped: Bool = false
    ) throws -> BatchHeader {
        precondition(!keepingDropped || copied == nil, "a sealed copy's table gives a dropped list's count only")
        var header = try BatchHeader.decode(
            payload: payload, verifyingChecksum: verifyingChecksum, names: names, place: place(file, offset), shell: readsShells, copied: copied)
        if readsShells, header.shell == nil { throw FormatViolation("batch header is not sealed in an encrypted store") }
        // Checked whole, kept as a count: see ``BatchHeader/DroppedList``.
        if !keepingDropped { header.dropped = header.dropped.countOnly() }
        return header
    }

    /// Whether something starting at `first` may come where `expected` (the previous
    /// batch's last + 1) is due: `expected` itself, or a jump a timeline start records.
    private func continues(_ first: UInt64, _ expected: UInt64) -> Bool {
        timelines.continues(first, after: expected - 1)
    }

    /// Damage, not a torn tail: if any valid batch of this store lies after the failure,
    /// the failure is in the middle of the log and is reported as an error.
    private func refuseIfValidDataFollows(_ failure: (segment: Int, offset: Int, violation: FormatViolation)) throws {
        let after = batches.last?.header.lastSeq ?? prefix.last?.lastSeq ?? 0
        for index in failure.segment..<segments.count {
            let file = segments[index]
            let start = index == failure.segment ? failure.offset + 1 : 0
            guard start < file.size else { continue }
            let bytes = try file.read(at: start, count: file.size - start)
            var k = 0
            while k + 4 <= bytes.count {
                if bytes[k] == 0x51, bytes[k + 1] == 0x2A, bytes[k + 2] == 0x4D, bytes[k + 3] == 0x18,
                    case .success(let batch) = try readBatch(file, index, at: start + k, expectedSeq: nil),
                    batch.header.firstSeq > after
                {
                    let location = segments[failure.segment].location(failure.offset)
                    throw HealthLogError(.corrupt, "\(location): \(failure.violation.reason); valid data follows at \(file.location(start + k)), so this is damage, not a torn tail")
                }
                k += 1
            }
        }
    }

    /// Verifies every frame checksum of the last committed append when it ends past the
    /// checkpoint (it may not have been acknowledged); on a mismatch the append is demoted
    /// to a torn tail.
    mutating func verifyLastAppend(_ checkpoint: Checkpoint?, decoder: LZ4FrameDecoder) throws {
        guard committedCount > 0 else { return }
        let last = batches[committedCount - 1].header.lastSeq
        if let checkpoint, checkpoint.seq >= last { return }
        var first = committedCount - 1
        while first > 0, !batches[first - 1].header.isEndOfAppend { first -= 1 }
        var buffer: [UInt8] = []
        for batch in batches[first..<committedCount] {
            if let shell = batch.header.shell {
                try segments[batch.segment].read(into: &buffer, at: batch.end - shell.framesLength, count: shell.framesLength)
                if CRC32C.checksum(buffer[...]) != shell.framesCRC {
                    committedCount = first
                    demotedReason = "the last append fails its frame checksum"
                    return
                }
            }
            for (g, group) in batch.header.groups.enumerated() {
                try segments[batch.segment].read(into: &buffer, at: batch.groupOffsets[g], count: Int(group.frameLength))
                if CRC32C.checksum(buffer[...]) != group.frameCRC {
                    committedCount = first
                    demotedReason = "the last append fails its frame checksum"
                    return
                }
            }
        }
    }

    /// Where the next append goes (see ``LogSnapshot/appendPoint``): past the last
    /// committed batch, else past the first segment's prologue when that prologue is
    /// sound; `nil` when no segment can take an append (none exists, or the first one's
    /// prologue is broken, so the next writer removes it and starts a new one).
    func appendPoint() -> (segment: Int, offset: Int)? {
        if committedCount > 0 {
            let last = batches[committedCount - 1]
            return (last.segment, last.end)
        }
        // Only when the last segment was taken on its index's word: nothing was walked.
        if let last = prefix.last { return (prefix.count - 1, last.coveredLength) }
        guard let end = prologueEnds[0] else { return nil }
        return (0, end)
    }

    /// The torn tail: every byte past the append point.
    func tornTail() -> TornTail? {
        let point = appendPoint()
        let start = point ?? (0, 0)
        var bytes = 0
        for index in start.segment..<segments.count {
            bytes += segments[index].size - (index == start.segment ? start.offset : 0)
        }
        // An empty first segment holds no bytes of the tail, but is in the way of a new one.
        let isUnusableFile = point == nil && !segments.isEmpty
        guard bytes > 0 || segments.count > start.segment + 1 || isUnusableFile else { return nil }
        let reason: String
        if let demotedReason {
            reason = demotedReason
        } else if let failure {
            reason = failure.violation.reason
        } else {
            reason = "the append never finished"
        }
        let file = segments.isEmpty ? "segments/" : segments[start.segment].displayPath
        return TornTail(file: file, offset: start.offset, bytes: bytes, reason: reason)
    }
}

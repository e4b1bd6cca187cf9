/// The header walk behind ``LogSnapshot``: reads every segment's prologue and batch
/// headers in order, stops at the first thing that is not a valid next batch, and decides
/// whether that is a torn tail or damage.
///
/// Invariants it checks: segment i+1 starts at the sequence number after segment i's last
/// batch; every batch starts at the previous batch's `lastSeq + 1`; every batch carries
/// this store's tag; frames lie inside the file. A batch is committed once a batch with
/// the end-of-append flag at or after it is valid.
struct LogScan {
    let layout: StoreLayout
    let meta: StoreMeta
    private(set) var segments: [SegmentFile] = []
    private(set) var batches: [BatchRef] = []
    /// How many leading batches are committed.
    private(set) var committedCount = 0
    /// The first invalid thing found: segment index, offset, reason.
    private var failure: (segment: Int, offset: Int, reason: String)?
    /// Set when the last append was demoted because its frames failed verification.
    private var demotedReason: String?
    /// Offset just past each segment's prologue.
    private var prologueEnds: [Int] = []
    /// How many batches each segment's sidecar index supplied (-1: no usable index).
    private var indexedCounts: [Int] = []

    /// Whether segments' sidecar indexes may stand in for walking their headers.
    let usingIndexes: Bool

    init(layout: StoreLayout, meta: StoreMeta, usingIndexes: Bool = true) throws {
        self.layout = layout
        self.meta = meta
        self.usingIndexes = usingIndexes
        for name in try layout.listSegments() {
            guard let file = try SegmentFile(layout, name) else { continue }
            segments.append(file)
        }
    }

    /// The length of a segment prologue: the empty LZ4 frame plus the segment header frame.
    static var prologueLength: Int { SegmentLayout.prologueLength }

    /// Walks all headers.
    mutating func run() throws {
        var nextSeq: UInt64 = 1
        for (index, file) in segments.enumerated() {
            if let reason = try checkPrologue(file, expectedBase: nextSeq) {
                failure = (index, 0, reason)
                break
            }
            prologueEnds.append(Self.prologueLength)
            var offset = Self.prologueLength
            if let indexed = try adoptIndex(file, index, expectedSeq: nextSeq) {
                for batch in indexed.batches {
                    batches.append(batch)
                    nextSeq = batch.header.lastSeq + 1
                    if batch.header.isEndOfAppend { committedCount = batches.count }
                }
                offset = indexed.covered
                indexedCounts.append(indexed.batches.count)
            } else {
                indexedCounts.append(-1)
            }
            while offset < file.size {
                switch try readBatch(file, index, at: offset, expectedSeq: nextSeq) {
                case .success(let batch):
                    batches.append(batch)
                    nextSeq = batch.header.lastSeq + 1
                    if batch.header.isEndOfAppend { committedCount = batches.count }
                    offset = batch.end
                case .failure(let violation):
                    failure = (index, offset, violation.reason)
                }
                if failure != nil { break }
            }
            if failure != nil { break }
        }
        if let failure { try refuseIfValidDataFollows(failure) }
    }

    /// Checks a segment's prologue; returns a reason when it is not valid.
    private func checkPrologue(_ file: SegmentFile, expectedBase: UInt64) throws -> String? {
        let bytes = try file.read(at: 0, count: Self.prologueLength)
        guard bytes.count == Self.prologueLength else { return "segment header is incomplete" }
        guard Array(bytes[0..<LZ4Frame.emptyFrame.count]) == LZ4Frame.emptyFrame else { return "segment does not start with an empty LZ4 frame" }
        let header: SegmentHeader
        do {
            header = try SegmentHeader.decode(Array(bytes[LZ4Frame.emptyFrame.count...]))
        } catch let violation as FormatViolation {
            if violation.isNewerVersion { throw HealthLogError(.unsupportedVersion, "\(file.displayPath): \(violation.reason): upgrade healthlog") }
            return violation.reason
        }
        guard header.storeID == meta.storeID else { return "segment belongs to another store" }
        guard header.baseSeq == file.name.baseSeq else { return "segment header says it starts at \(header.baseSeq), its name says \(file.name.baseSeq)" }
        guard header.baseSeq == expectedBase else { return "segment starts at sequence \(header.baseSeq), expected \(expectedBase)" }
        return nil
    }

    /// The batches listed by segment `file`'s sidecar index, when it is sound and matches
    /// the segment (see ``SegmentIndex``); `nil` otherwise.
    private func adoptIndex(_ file: SegmentFile, _ index: Int, expectedSeq: UInt64) throws -> (batches: [BatchRef], covered: Int)? {
        guard usingIndexes, let sidecar = SegmentIndex.read(layout, file.name), sidecar.coveredLength <= file.size else { return nil }
        var refs: [BatchRef] = []
        var offset = Self.prologueLength
        var seq = expectedSeq
        for entry in sidecar.entries {
            guard entry.offset == offset, let header = try? BatchHeader.decode(payload: entry.payload),
                header.storeTag == meta.storeID.tag, header.firstSeq == seq
            else { return nil }
            var groupOffsets: [Int] = []
            var at = offset + 8 + entry.payload.count
            for group in header.groups {
                groupOffsets.append(at)
                at += Int(group.frameLength)
            }
            refs.append(BatchRef(segment: index, offset: offset, groupOffsets: groupOffsets, end: at, header: header))
            offset = at
            seq = header.lastSeq + 1
        }
        guard offset == sidecar.coveredLength else { return nil }
        if let last = sidecar.entries.last {
            var expected = ByteWriter()
            expected.append(FormatConstants.batchHeaderMagic)
            expected.append(UInt32(last.payload.count))
            expected.append(bytes: last.payload)
            guard try file.read(at: last.offset, count: expected.bytes.count) == expected.bytes else { return nil }
        }
        return (refs, offset)
    }

    /// The segments whose sidecar index is missing, unusable, or does not list exactly the
    /// segment's committed batches: the next writer rewrites these.
    func segmentsNeedingIndex() -> [Int] {
        var committed = [Int](repeating: 0, count: segments.count)
        for batch in batches[0..<committedCount] { committed[batch.segment] += 1 }
        return segments.indices.filter { index in
            index < indexedCounts.count && (committed[index] > 0 || indexedCounts[index] > 0) && indexedCounts[index] != committed[index]
        }
    }

    /// Reads and checks the batch header at `offset`.
    private func readBatch(_ file: SegmentFile, _ index: Int, at offset: Int, expectedSeq: UInt64?) throws -> Result<BatchRef, FormatViolation> {
        let prefix = try file.read(at: offset, count: 8)
        guard prefix.count == 8 else { return .failure(FormatViolation("batch header is incomplete", isTruncation: true)) }
        guard ByteReaderValue.u32(prefix, 0) == FormatConstants.batchHeaderMagic else {
            return .failure(FormatViolation("bytes that are not a batch header"))
        }
        let length = Int(ByteReaderValue.u32(prefix, 4))
        guard length <= FormatConstants.maxBatchHeaderLength else { return .failure(FormatViolation("batch header claims \(length) bytes")) }
        let payload = try file.read(at: offset + 8, count: length)
        guard payload.count == length else { return .failure(FormatViolation("batch header is incomplete", isTruncation: true)) }
        let header: BatchHeader
        do {
            header = try BatchHeader.decode(payload: payload)
        } catch let violation as FormatViolation {
            if violation.isNewerVersion { throw HealthLogError(.unsupportedVersion, "\(file.location(offset)): \(violation.reason): upgrade healthlog") }
            return .failure(violation)
        }
        guard header.storeTag == meta.storeID.tag else { return .failure(FormatViolation("batch belongs to another store")) }
        if let expectedSeq, header.firstSeq != expectedSeq {
            return .failure(FormatViolation("batch starts at sequence \(header.firstSeq), expected \(expectedSeq)"))
        }
        var groupOffsets: [Int] = []
        groupOffsets.reserveCapacity(header.groups.count)
        var at = offset + 8 + length
        for group in header.groups {
            groupOffsets.append(at)
            at += Int(group.frameLength)
        }
        guard at <= file.size else { return .failure(FormatViolation("batch frames end past the end of the file", isTruncation: true)) }
        return .success(BatchRef(segment: index, offset: offset, groupOffsets: groupOffsets, end: at, header: header))
    }

    /// Damage, not a torn tail: if any valid batch of this store lies after the failure,
    /// the failure is in the middle of the log and is reported as an error.
    private func refuseIfValidDataFollows(_ failure: (segment: Int, offset: Int, reason: String)) throws {
        let after = batches.last?.header.lastSeq ?? 0
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
                    throw HealthLogError(.corrupt, "\(location): \(failure.reason); valid data follows at \(file.location(start + k)), so this is damage, not a torn tail")
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

    /// Where the next append goes (see ``LogSnapshot/appendPoint``).
    func appendPoint() -> (segment: Int, offset: Int)? {
        if committedCount > 0 {
            let last = batches[committedCount - 1]
            return (last.segment, last.end)
        }
        return prologueEnds.isEmpty ? nil : (0, prologueEnds[0])
    }

    /// The torn tail: every byte past the append point.
    func tornTail() -> TornTail? {
        let start = appendPoint() ?? (0, 0)
        var bytes = 0
        for index in start.segment..<segments.count {
            bytes += segments[index].size - (index == start.segment ? start.offset : 0)
        }
        guard bytes > 0 || (segments.count > start.segment + 1) else { return nil }
        let reason: String
        if let demotedReason {
            reason = demotedReason
        } else if let failure {
            reason = failure.reason
        } else {
            reason = "the append never finished"
        }
        let file = segments.isEmpty ? "segments/" : segments[start.segment].displayPath
        return TornTail(file: file, offset: start.offset, bytes: bytes, reason: reason)
    }
}

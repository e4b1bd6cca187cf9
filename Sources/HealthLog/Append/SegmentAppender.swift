#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes batches at the end of the log: holds the segment being appended to, rolls to a
/// new one at the size limit, and remembers what the open append wrote, so that
/// ``LogWriter`` can sync it at commit or undo it byte for byte.
///
/// A segment the append fills is synced (unless `--no-sync`) and closed when the next one
/// starts: its bytes are final, and an append across any number of segments holds one
/// descriptor.
final class SegmentAppender {
    private let layout: StoreLayout
    private let options: StoreOptions
    private let faults: FaultCounter
    private let storeID: StoreID
    /// The cipher of an encrypted store: each batch is sealed where it is written.
    private let cipher: StoreCipher?
    /// The segment being appended to, open read-write, and the offset of the next batch.
    private(set) var current: (name: SegmentName, fd: FileDescriptor, offset: Int)?
    /// Where the open append started: segment and offset, to undo back to.
    private var appendStart: (name: SegmentName, offset: Int)?
    /// Segment files created by the open append.
    private(set) var created: [SegmentName] = []
    /// Whether the open append wrote to ``current`` since its last sync.
    private var currentIsDirty = false
    /// Where the bytes of ``current`` start that were written but not yet handed to the
    /// kernel's writeback (``FileDescriptor/startWriteback(at:count:)``).
    private(set) var writebackFrom = 0
    /// The end of the last batch placed: where the next one goes, which may be past the
    /// batches written when batches are placed ahead (``place(_:length:)``). `nil` before
    /// the first, and after a failed write or an undo (the next goes where the log ends).
    private var placedEnd: (name: SegmentName, offset: Int)?

    /// An appender for the store `storeID`, continuing at `resume` (the append point of the
    /// committed log) or, without one, starting a segment at the first write.
    init(
        _ layout: StoreLayout, options: StoreOptions, faults: FaultCounter, storeID: StoreID, cipher: StoreCipher?, resume: (name: SegmentName, offset: Int)?
    ) throws {
        self.layout = layout
        self.options = options
        self.faults = faults
        self.storeID = storeID
        self.cipher = cipher
        if let resume {
            let fd = try FileDescriptor.open(layout.segment(baseSeq: resume.name.baseSeq, generation: resume.name.generation), flags: O_RDWR)
            current = (resume.name, fd, resume.offset)
            writebackFrom = resume.offset
        }
    }

    deinit {
        current?.fd.close()
    }

    /// Writes one encoded batch (`bytes`, whose header is `header`), first rolling to a new
    /// segment when the current one would pass the size limit; in an encrypted store the
    /// batch is sealed here for the place it goes to (``BatchHeader/sealed(_:at:)``).
    /// Returns the segment and where the batch's frames lie.
    func write(_ plain: [UInt8], header plainHeader: BatchHeader) throws -> (name: SegmentName, batch: BatchRef) {
        guard let place = place(plainHeader, length: plain.count) else {
            return try write(plain, header: plainHeader, at: reserve(byteCount: plain.count, firstSeq: plainHeader.firstSeq))
        }
        let (header, bytes) = plainHeader.sealed(plain, at: place)
        return try write(bytes, header: header, at: (SegmentName(baseSeq: place.segmentBase, generation: place.generation), place.offset))
    }

    /// In an encrypted store, the place of the next batch not yet placed, whose plaintext
    /// encoding is `length` bytes with header `header`: the batch is to be sealed there
    /// (on any thread) and handed to ``write(sealed:header:at:)`` after the batches placed
    /// before it. `nil` in a plaintext store.
    func place(_ header: BatchHeader, length: Int) -> BatchPlace? {
        guard let cipher else { return nil }
        let at = reserve(byteCount: header.sealedLength(length), firstSeq: header.firstSeq)
        return BatchPlace(cipher: cipher, segmentBase: at.name.baseSeq, generation: at.name.generation, offset: at.offset)
    }

    /// Writes a batch sealed at `place` (``place(_:length:)``; `bytes` and `header` from
    /// ``BatchHeader/sealed(_:at:)``), rolling to the new segment the place is in.
    func write(sealed bytes: [UInt8], header: BatchHeader, at place: BatchPlace) throws -> (name: SegmentName, batch: BatchRef) {
        try write(bytes, header: header, at: (SegmentName(baseSeq: place.segmentBase, generation: place.generation), place.offset))
    }

    /// Where the next batch of `byteCount` bytes goes, after every batch placed so far: the
    /// end of the last one, or a new segment at `firstSeq` when that segment holds a batch
    /// already and would pass the size limit.
    private func reserve(byteCount: Int, firstSeq: UInt64) -> (name: SegmentName, offset: Int) {
        let end = placedEnd ?? current.map { ($0.name, $0.offset) }
        var at = (name: SegmentName(baseSeq: firstSeq, generation: 0), offset: SegmentLayout.prologueLength)
        if let end, end.offset == SegmentLayout.prologueLength || end.offset + byteCount <= options.segmentBytes { at = end }
        placedEnd = (at.name, at.offset + byteCount)
        return at
    }

    /// Writes `bytes` (the batch `header`, sealed or plaintext) at `place`, which
    /// ``reserve(byteCount:firstSeq:)`` gave: in the current segment, or in a new one it
    /// rolls to. A place that is not where the log ends (an internal fault) throws and
    /// writes nothing, since sealed units would not open anywhere else.
    private func write(_ bytes: [UInt8], header: BatchHeader, at place: (name: SegmentName, offset: Int)) throws -> (name: SegmentName, batch: BatchRef) {
        do {
            let misplaced = HealthLogError(.io, "internal: a batch placed in segment \(place.name.baseSeq) at offset \(place.offset) is not where the log ends")
            var segment: (name: SegmentName, fd: FileDescriptor, offset: Int)
            if let current, current.name == place.name {
                segment = current
            } else {
                guard place.offset == SegmentLayout.prologueLength, place.name.generation == 0 else { throw misplaced }
                segment = try roll(baseSeq: place.name.baseSeq)
            }
            guard segment.offset == place.offset else { throw misplaced }
            if appendStart == nil { appendStart = (segment.name, segment.offset) }
            try faults.write(bytes, to: segment.fd, at: segment.offset)
            currentIsDirty = true
            var groupOffsets: [Int] = []
            var at = segment.offset + 8 + Int(ByteReaderValue.u32(bytes, 4))
            for group in header.groups {
                groupOffsets.append(at)
                at += Int(group.frameLength)
            }
            var batch = BatchRef(segment: -1, offset: segment.offset, groupOffsets: groupOffsets, end: at, header: header)
            if header.isSealed { batch.sealedPayload = Array(bytes[8..<8 + Int(ByteReaderValue.u32(bytes, 4))]) }
            segment.offset += bytes.count
            current = segment
            startWriteback()
            return (segment.name, batch)
        } catch {
            placedEnd = nil
            throw error
        }
    }

    /// With syncs on, once ``StoreOptions/writebackBytes`` or more of the current segment
    /// were written since, asks the kernel to start writing them to disk: the disk then works
    /// while the append goes on, and the `fdatasync` at the segment's roll or at the commit
    /// waits for the last of them only, not for every byte of the segment at once (a 1M
    /// append's 64 MiB segment waited ~110 ms there).
    private func startWriteback() {
        guard options.sync, let segment = current, segment.offset - writebackFrom >= options.writebackBytes else { return }
        segment.fd.startWriteback(at: writebackFrom, count: segment.offset - writebackFrom)
        writebackFrom = segment.offset
    }

    /// `fdatasync` of the current segment if the open append wrote to it.
    func syncCurrent() throws {
        guard currentIsDirty, let segment = current else { return }
        try faults.syncData(segment.fd)
        currentIsDirty = false
    }

    /// Closes the current segment, once an append is committed, so that the next batch
    /// starts a new one (``StoreOptions/segmentIndexBytes``).
    func endSegment() {
        precondition(appendStart == nil, "a segment ends between appends")
        current?.fd.close()
        current = nil
        placedEnd = nil
        writebackFrom = 0
    }

    /// Forgets the open append once it is committed: its bytes stay.
    func finishAppend() {
        appendStart = nil
        created = []
        currentIsDirty = false
    }

    /// Undoes the open append: removes the segment files it created, last first, then
    /// truncates back to where it started, so that killed at any step it leaves a torn
    /// tail, never a gap. The appender holds no segment afterwards.
    func undoAppend() {
        let startedInCreated = appendStart.map { $0.offset == SegmentLayout.prologueLength } ?? true
        for name in created.reversed() where name != appendStart?.name || startedInCreated {
            unlink(layout.segment(baseSeq: name.baseSeq, generation: name.generation))
            faults.reach(.unfinishedSegmentRemoved)
        }
        if let start = appendStart {
            let path = layout.segment(baseSeq: start.name.baseSeq, generation: start.name.generation)
            if let fd = try? FileDescriptor.open(path, flags: O_RDWR) {
                try? fd.truncate(to: start.offset)
                fd.close()
            }
        }
        current?.fd.close()
        current = nil
        placedEnd = nil
        finishAppend()
    }

    /// Seals the current segment (synced first when this append wrote to it and syncs are
    /// on, then closed) and starts a new one at `baseSeq`, created 0600 with `O_EXCL`.
    private func roll(baseSeq: UInt64) throws -> (name: SegmentName, fd: FileDescriptor, offset: Int) {
        try OwnedDirectory.prepare(layout.segments)
        if options.sync { try syncCurrent() }
        let name = SegmentName(baseSeq: baseSeq, generation: 0)
        let fd = try FileDescriptor.open(layout.segment(baseSeq: baseSeq), flags: O_RDWR | O_CREAT | O_EXCL)
        created.append(name)
        do {
            try fd.setMode(0o600)
            let header = SegmentHeader(storeID: storeID, baseSeq: baseSeq, generation: 0, createdMillis: Clock.nowMillis())
            try faults.write(LZ4Frame.emptyFrame + header.encoded(), to: fd, at: 0)
        } catch {
            fd.close()
            throw error
        }
        current?.fd.close()
        let segment = (name: name, fd: fd, offset: SegmentLayout.prologueLength)
        current = segment
        writebackFrom = 0
        currentIsDirty = true
        faults.reach(.segmentCreated)
        return segment
    }
}

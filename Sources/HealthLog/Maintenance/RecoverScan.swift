/// One segment file of a damaged store, read batch by batch for `recover`: every batch
/// whose header and frames all check out, kept verbatim, and every byte range that could
/// not be read, with the reason and the sequence numbers a sound header there names.
///
/// The walk trusts nothing but checksums: the segment's own header is checked but not
/// needed (a garbage prologue loses no batch), a batch is sound when its header's CRC-32C,
/// store tag and every frame's CRC-32C hold, every frame decompresses with its LZ4 content
/// checksum to the length its header says, and its lines are exactly the batch's
/// sequence numbers. After anything that is not a batch header, it resynchronises on the
/// next byte where a sound batch header of this store starts (the skippable-frame magic,
/// a length, a payload whose CRC-32C holds), so a zeroed or garbled region costs only the
/// batches it overlaps. A batch whose header is sound but whose frames are not is skipped
/// to its end, and its sequence range is known.
///
/// In an encrypted store each batch's table opens with the place it was sealed for (the
/// segment's base and generation from the file's name, the batch's offset) and each frame
/// opens in place before it is decompressed; a unit that does not open is damage like any
/// other. A sealed header whose checksum holds but whose table does not open (or that no
/// key was given for) still tells the batch's numbers and length from its fixed fields.
struct RecoverScan {
    /// A batch that checked out: its sequence numbers and where its bytes (header frame and
    /// data frames) are, so they are read again, header and all, only when written, one
    /// batch at a time (memory holds no batch's table).
    struct SoundBatch {
        /// Its first sequence number.
        var firstSeq: UInt64
        /// Its last sequence number.
        var lastSeq: UInt64
        /// How many events it holds: its range less the events `compact` dropped.
        var events: UInt64
        /// Whether it ends an append (as stored, or as ``RecoverPlan`` marked it).
        var isEndOfAppend: Bool
        /// The segment file holding it.
        var path: String
        /// Where it starts in that file.
        var offset: Int
        /// Its length in bytes.
        var length: Int
        /// Where its units are bound, in an encrypted store; `nil` in a plaintext one.
        var place: BatchPlace?
        /// Whether its header differs from the stored one (``RecoverPlan`` marked it as
        /// ending its append), so its header frame is written encoded anew.
        var isHeaderRewritten = false

        /// The batch `header` describes, `length` bytes at `offset` of the file at `path`.
        init(_ header: BatchHeader, path: String, offset: Int, length: Int, place: BatchPlace?) {
            firstSeq = header.firstSeq
            lastSeq = header.lastSeq
            events = header.lastSeq - header.firstSeq + 1 - UInt64(header.dropped.count)
            isEndOfAppend = header.isEndOfAppend
            self.path = path
            self.offset = offset
            self.length = length
            self.place = place
        }

        /// Its header, decoded again from `stored` (its bytes as the file holds them),
        /// marked as ending its append when the plan did; throws when those bytes no longer
        /// hold this batch (the file changed while recovering).
        func header(in stored: [UInt8]) throws -> BatchHeader {
            let length = stored.count >= 8 ? Int(ByteReaderValue.u32(stored, 4)) : 0
            guard stored.count >= 8 + length, var header = try? BatchHeader.decode(payload: Array(stored[8..<8 + length]), place: place),
                header.firstSeq == firstSeq, header.lastSeq == lastSeq, 8 + length + header.framesLength == stored.count
            else {
                throw HealthLogError(.corrupt, "\(path): the batch at byte \(offset) no longer reads as it did (changed while recovering)")
            }
            if isEndOfAppend { header.flags |= FormatConstants.flagEndOfAppend }
            return header
        }
    }

    /// A byte range that could not be read.
    struct Unreadable: Equatable, Sendable {
        /// The file, relative to the store (`segments/…`).
        var file: String
        /// The first byte.
        var offset: Int
        /// How many bytes.
        var length: Int
        /// What was wrong at its start.
        var reason: String
        /// The sequence numbers of the batch there, when its header was sound.
        var seqs: ClosedRange<UInt64>?
    }

    /// The sound batches, in file order.
    private(set) var batches: [SoundBatch] = []
    /// The unreadable ranges, in file order.
    private(set) var unreadable: [Unreadable] = []
    /// Whether a batch header of this store flagged sealed was found with no cipher to
    /// open it (an encrypted store's batch).
    private(set) var foundSealedWithoutKey = false

    /// The file's name in messages.
    private let file: String
    /// The file's path.
    private let path: String
    /// The file's name: the segment's base and generation, part of every unit's place.
    private let name: SegmentName
    /// The store's cipher; `nil` for a plaintext store.
    private let cipher: StoreCipher?
    /// The file's bytes, read a window at a time.
    private let bytes: SegmentWindow
    /// The store's tag; batches of another store are not this store's events.
    private let storeTag: UInt64
    /// Decompresses frames to check them.
    private let decoder: LZ4FrameDecoder

    /// Walks `bytes`, the content of segment `name` (at `path`, `file` in messages),
    /// keeping the batches of the store with tag `storeTag`, whose units open with `cipher`
    /// in an encrypted store.
    init(_ bytes: SegmentWindow, name: SegmentName, file: String, path: String, storeTag: UInt64, cipher: StoreCipher?, decoder: LZ4FrameDecoder) {
        self.file = file
        self.path = path
        self.name = name
        self.cipher = cipher
        self.bytes = bytes
        self.storeTag = storeTag
        self.decoder = decoder
        var offset = SegmentLayout.prologueLength
        var pending: (offset: Int, reason: String)?
        if let problem = Self.prologueProblem(bytes.array(0..<min(bytes.count, SegmentLayout.prologueLength))) {
            pending = (0, problem)
            offset = nextHeader(from: 0) ?? bytes.count
        }
        while offset < bytes.count {
            guard let (header, end, sealedProblem) = soundHeader(at: offset) else {
                if pending == nil { pending = (offset, headerProblem(at: offset)) }
                offset = nextHeader(from: offset + 1) ?? bytes.count
                continue
            }
            if let bad = pending {
                unreadable.append(Unreadable(file: file, offset: bad.offset, length: offset - bad.offset, reason: bad.reason, seqs: nil))
                pending = nil
            }
            let stop = min(end, bytes.count)
            if let problem = sealedProblem ?? framesProblem(header, at: offset, end: end) {
                unreadable.append(Unreadable(file: file, offset: offset, length: stop - offset, reason: problem, seqs: header.firstSeq...header.lastSeq))
            } else {
                batches.append(SoundBatch(header, path: path, offset: offset, length: end - offset, place: batchPlace(offset)))
            }
            offset = stop
        }
        if let bad = pending {
            unreadable.append(Unreadable(file: file, offset: bad.offset, length: bytes.count - bad.offset, reason: bad.reason, seqs: nil))
        }
    }

    /// What is wrong with the segment's prologue (empty frame and segment header), or `nil`.
    static func prologueProblem(_ bytes: [UInt8]) -> String? {
        guard bytes.count >= SegmentLayout.prologueLength else { return "segment header is incomplete" }
        guard Array(bytes[0..<LZ4Frame.emptyFrame.count]) == LZ4Frame.emptyFrame else { return "segment does not start with an empty LZ4 frame" }
        do {
            _ = try SegmentHeader.decode(Array(bytes[LZ4Frame.emptyFrame.count..<SegmentLayout.prologueLength]))
            return nil
        } catch let violation as FormatViolation {
            return violation.reason
        } catch {
            return "segment header is unreadable"
        }
    }

    /// The place of the batch at `offset`, in an encrypted store.
    private func batchPlace(_ offset: Int) -> BatchPlace? {
        cipher.map { BatchPlace(cipher: $0, segmentBase: name.baseSeq, generation: name.generation, offset: offset) }
    }

    /// The sound batch header of this store at `offset` and where its frames end (maybe
    /// past the end of the file), or `nil`. A sealed header whose table cannot be opened
    /// (no cipher, or its table does not authenticate here) comes as a shell, with why.
    private mutating func soundHeader(at offset: Int) -> (BatchHeader, Int, String?)? {
        guard offset + 8 <= bytes.count, bytes.u32(offset) == FormatConstants.batchHeaderMagic else { return nil }
        let length = Int(bytes.u32(offset + 4))
        guard length <= FormatConstants.maxBatchHeaderLength, offset + 8 + length <= bytes.count else { return nil }
        let payload = bytes.array((offset + 8)..<(offset + 8 + length))
        let end = offset + 8 + length
        guard let place = batchPlace(offset) else {
            guard let header = try? BatchHeader.decode(payload: payload, shell: true), header.storeTag == storeTag else { return nil }
            guard header.shell == nil else {
                foundSealedWithoutKey = true
                return (header, end + header.framesLength, "batch is sealed (an encrypted store's) and no key was given to open it")
            }
            return (header, end + header.framesLength, nil)
        }
        do {
            let header = try BatchHeader.decode(payload: payload, place: place)
            return header.storeTag == storeTag ? (header, end + header.framesLength, nil) : nil
        } catch {
            guard let shell = try? BatchHeader.decode(payload: payload, shell: true), shell.isSealed, shell.storeTag == storeTag else { return nil }
            return (shell, end + shell.framesLength, (error as? FormatViolation)?.reason ?? "batch header's table does not open")
        }
    }

    /// Why there is no sound batch header at `offset`.
    private func headerProblem(at offset: Int) -> String {
        guard offset + 8 <= bytes.count else { return "batch header is incomplete" }
        guard bytes.u32(offset) == FormatConstants.batchHeaderMagic else { return "bytes that are not a batch header" }
        let length = Int(bytes.u32(offset + 4))
        guard length <= FormatConstants.maxBatchHeaderLength, offset + 8 + length <= bytes.count else { return "batch header is incomplete" }
        do {
            let header = try BatchHeader.decode(payload: bytes.array((offset + 8)..<(offset + 8 + length)), place: batchPlace(offset))
            return header.storeTag == storeTag ? "batch header is unreadable" : "batch belongs to another store"
        } catch let violation as FormatViolation {
            return violation.reason
        } catch {
            return "batch header is unreadable"
        }
    }

    /// The offset of the next sound batch header at or after `start`, or `nil`.
    private mutating func nextHeader(from start: Int) -> Int? {
        var k = start
        while k + 8 <= bytes.count {
            if bytes.byte(k) == 0x51, bytes.byte(k + 1) == 0x2A, bytes.byte(k + 2) == 0x4D, bytes.byte(k + 3) == 0x18, soundHeader(at: k) != nil { return k }
            k += 1
        }
        return nil
    }

    /// What is wrong with the frames of the batch at `offset` (header `header`, ending at
    /// `end`), or `nil` when every frame (opened first, in an encrypted store) and line
    /// checks out.
    private func framesProblem(_ header: BatchHeader, at offset: Int, end: Int) -> String? {
        guard end <= bytes.count else { return "batch frames end past the end of the file" }
        var seen = [Bool](repeating: false, count: Int(header.lastSeq - header.firstSeq + 1))
        // Events `compact` dropped are accounted for by the header's list (BatchHeader.dropped).
        for event in header.dropped { seen[Int(event.seq - header.firstSeq)] = true }
        var at = end - header.framesLength
        var raw: [UInt8] = []
        let place = header.isSealed ? batchPlace(offset) : nil
        for (index, group) in header.groups.enumerated() {
            guard at + Int(group.frameLength) <= bytes.count else { return "batch frames end past the end of the file" }
            var frame = bytes.array(at..<(at + Int(group.frameLength)))
            at += Int(group.frameLength)
            guard CRC32C.checksum(frame[...]) == group.frameCRC else { return "frame checksum mismatch in group '\(group.type)'" }
            if let place {
                guard let opened = frame.withUnsafeMutableBytes({ place.openGroup(index, group, in: $0) }) else {
                    return "frame of group '\(group.type)': " + frame.withUnsafeBytes { place.cipher.failure(of: $0) }
                }
                frame = Array(frame[opened])
            }
            raw = [UInt8](repeating: 0, count: Int(group.rawLength))
            if let violation = raw.withUnsafeMutableBytes({ decoder.decompress(frame, into: $0, checkContent: true) }) {
                return violation.reason
            }
            if let problem = Self.linesProblem(raw, group, firstSeq: header.firstSeq, seen: &seen) { return problem }
        }
        return seen.allSatisfy { $0 } ? nil : "batch does not hold every event of its sequence range"
    }

    /// What is wrong with the lines of one decompressed group, or `nil`: each must start
    /// with its sequence number, the numbers rise within the group's range, no number is
    /// in two groups, and the group holds as many lines as its header says.
    static func linesProblem(_ raw: [UInt8], _ group: BatchHeader.Group, firstSeq: UInt64, seen: inout [Bool]) -> String? {
        raw.withUnsafeBytes { buffer in
            var start = 0
            var count: UInt32 = 0
            var previous: UInt64 = 0
            while start < buffer.count {
                let window = UnsafeRawBufferPointer(rebasing: buffer[start..<min(buffer.count, start + 32)])
                guard let (seq, _) = StoredLinePrefix.sequenceNumber(window) else { return "a line does not start with its sequence number" }
                guard seq > previous, seq >= group.firstSeq, seq <= group.lastSeq, !seen[Int(seq - firstSeq)] else {
                    return "event \(seq) is out of order, outside its group or repeated"
                }
                seen[Int(seq - firstSeq)] = true
                previous = seq
                count += 1
                guard let newline = buffer[start...].firstIndex(of: 10) else { return "the last line has no newline" }
                start = newline + 1
            }
            return count == group.count && previous == group.lastSeq ? nil : "group '\(group.type)' holds \(count) events, its header says \(group.count)"
        }
    }
}

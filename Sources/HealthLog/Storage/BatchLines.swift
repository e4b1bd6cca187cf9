#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decompresses chosen groups of a batch and lists their lines in sequence order.
///
/// Stored lines start with ``StoredLinePrefix`` (`{"seq":N,"op":"add","uuid":"…"`), so
/// the sequence number and the UUID are read at fixed places without parsing the line as
/// JSON; the operation comes from the group's kind.
struct BatchLines {
    /// One line: where it is in the storage.
    struct Line {
        var seq: UInt64
        var start: Int
        var end: Int
        var isDelete: Bool
        /// Set by ``index(_:groups:in:hiding:)``: a line the reader leaves out.
        var isHidden = false
    }

    /// The decompressed groups, one after the other.
    private var storage: [UInt8] = []
    /// The lines, in sequence order.
    private(set) var lines: [Line] = []
    private var unordered: [Line] = []
    /// Where each group's lines end in ``unordered`` (each group's lines rise).
    private var groupEnds: [Int] = []
    /// Where in the storage each group ``decompress(frames:at:of:groups:in:decoder:cipher:checkContent:after:)``
    /// decoded starts and how many bytes it holds, and whether it holds only the group's
    /// later lines (its first blocks skipped).
    private var spans: [(start: Int, count: Int, isTail: Bool)] = []
    /// How many bytes the last ``decompress(frames:at:of:groups:in:decoder:cipher:checkContent:after:)`` decoded.
    private(set) var decompressed = 0

    /// Loads `groups` (indexes into the header's groups) of `batch`, read through `reader`
    /// when given (on a thread other than the snapshot's), else through the snapshot.
    mutating func load(_ snapshot: LogSnapshot, _ batch: BatchRef, groups: [Int], through reader: GroupReader? = nil) throws {
        unordered.removeAll(keepingCapacity: true)
        groupEnds.removeAll(keepingCapacity: true)
        // Room for every group and a block past the last, unzeroed, so no group grows it.
        reserve(Self.room(for: groups, of: batch))
        var used = 0
        for g in groups {
            let length = try reader?.readGroup(batch, g, into: &storage, at: used) ?? snapshot.readGroup(batch, g, into: &storage, at: used)
            try splitGroup(batch.header.groups[g], at: used, length: length, location: snapshot.segments[batch.segment].location(batch.groupOffsets[g]))
            used += length
        }
        if let reason = order(batch.header, allGroups: !batch.isPart && groups.count == batch.header.groups.count) {
            throw HealthLogError(.corrupt, "\(snapshot.segments[batch.segment].location(batch.offset)): \(reason)")
        }
    }

    /// Splits one group's decompressed NDJSON (`length` bytes of the storage from `start`)
    /// into lines and checks them against the group's header entry (count, first and last
    /// sequence number, the first line's type); errors name
    /// `location`, the group's frame.
    private mutating func splitGroup(_ entry: BatchHeader.Group, at start: Int, length: Int, isTail: Bool = false, location: @autoclosure () -> String) throws {
        let before = unordered.count
        // The header's count, bounded by what the bytes can hold, so a damaged count allocates nothing large.
        unordered.reserveCapacity(before + min(Int(entry.count), length / 16))
        let reason = storage.withUnsafeBytes { raw in
            Self.split(UnsafeRawBufferPointer(rebasing: raw[start..<start + length]), base: start, isDelete: entry.isDelete, into: &unordered)
        }
        if let reason { throw HealthLogError(.corrupt, "\(location()): \(reason)") }
        groupEnds.append(unordered.count)
        let found = unordered.count - before
        // A group's tail holds its last lines only: fewer, from a later first.
        let isWhole = isTail ? found <= Int(entry.count) && unordered[before].seq >= entry.firstSeq : found == Int(entry.count) && unordered[before].seq == entry.firstSeq
        guard found > 0, isWhole, unordered[unordered.count - 1].seq == entry.lastSeq else {
            throw HealthLogError(.corrupt, "\(location()): frame holds \(found) events, its header says \(entry.count) (\(entry.firstSeq)...\(entry.lastSeq))")
        }
        let first = unordered[before]
        let isOfType = storage.withUnsafeBytes { raw in
            StoredLinePrefix.hasType(UnsafeRawBufferPointer(rebasing: raw[first.start..<first.end]), entry.type, isDelete: entry.isDelete)
        }
        guard isOfType else { throw HealthLogError(.corrupt, "\(location()): frame holds events of another type than its header's \(entry.type)") }
    }

    /// Puts the lines in sequence order: by direct placement when every group of the batch
    /// was loaded and compaction dropped none (its sequence numbers are then exactly
    /// first...last), else by merging the groups' lines, which rise within each group (a
    /// page of one type merges its adds with its deletes).
    /// Returns what is wrong when two groups hold the same sequence number (the header's
    /// counts then add up while some number of the range is missing).
    private mutating func order(_ header: BatchHeader, allGroups: Bool) -> String? {
        guard !unordered.isEmpty else {
            lines.removeAll(keepingCapacity: true)
            return nil
        }
        if !allGroups || !header.dropped.isEmpty {
            swap(&lines, &unordered)
            return mergeGroups()
        }
        // Placed straight from the split lines into a list of their count (no copy first).
        if lines.count > unordered.count {
            lines.removeLast(lines.count - unordered.count)
        } else if lines.count < unordered.count {
            lines.append(contentsOf: unordered[lines.count...])
        }
        let first = header.firstSeq
        let outside = lines.withUnsafeMutableBufferPointer { placed in
            unordered.withUnsafeBufferPointer { split -> UInt64? in
                // Places left from an earlier batch must not pass for this one's lines.
                for k in placed.indices { placed[k].seq = .max }
                for line in split {
                    guard line.seq >= first, line.seq - first < UInt64(placed.count) else { return line.seq }
                    placed[Int(line.seq - first)] = line
                }
                return nil
            }
        }
        if let outside { return "event \(outside) lies outside its batch's range \(first)...\(header.lastSeq)" }
        // Each place was written by the line of its own number unless a number is missing
        // (its place keeps the mark), which happens exactly when another is repeated.
        for (k, line) in lines.enumerated() where line.seq != header.firstSeq + UInt64(k) {
            return "event \(header.firstSeq + UInt64(k)) is missing from its batch, another is in two groups"
        }
        return nil
    }

    /// Merges the groups' lines (``groupEnds`` marks where each ends in ``lines``) into
    /// sequence order, one group after another into the ones before, with ``unordered`` as
    /// scratch; returns what is wrong when two groups hold the same sequence number.
    private mutating func mergeGroups() -> String? {
        // Each merge copies the lines before it: past a few groups, one sort costs less.
        if groupEnds.count > 16 {
            lines.sort { $0.seq < $1.seq }
            for k in lines.indices.dropFirst() where lines[k - 1].seq == lines[k].seq {
                return "event \(lines[k].seq) is in two groups"
            }
            return nil
        }
        var merged = 0
        for end in groupEnds {
            defer { merged = end }
            guard merged > 0, lines[merged - 1].seq >= lines[merged].seq else { continue }
            unordered.removeAll(keepingCapacity: true)
            unordered.reserveCapacity(end)
            let duplicate = lines.withUnsafeBufferPointer { all -> UInt64? in
                var i = 0
                var j = merged
                while i < merged, j < end {
                    if all[i].seq < all[j].seq {
                        unordered.append(all[i])
                        i += 1
                    } else if all[j].seq < all[i].seq {
                        unordered.append(all[j])
                        j += 1
                    } else {
                        return all[i].seq
                    }
                }
                unordered.append(contentsOf: all[i..<merged])
                unordered.append(contentsOf: all[j..<end])
                return nil
            }
            if let duplicate { return "event \(duplicate) is in two groups" }
            lines.withUnsafeMutableBufferPointer { all in
                unordered.withUnsafeBufferPointer { sorted in
                    for k in 0..<end { all[k] = sorted[k] }
                }
            }
        }
        return nil
    }

    /// Calls `body` with the storage the lines point into.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try storage.withUnsafeBytes(body)
    }

    /// The UUID of a stored line in `storage`, read at its fixed place.
    static func uuid(of line: Line, in storage: UnsafeRawBufferPointer) -> SampleUUID? {
        StoredLinePrefix.uuid(UnsafeRawBufferPointer(rebasing: storage[line.start..<line.end]), isDelete: line.isDelete)
    }

    /// The number written by the decimal digits that start the eight bytes at `text` (up
    /// to eight of them), and `offset` moved past them: a few word operations instead of a
    /// loop over each digit, as this runs for every line a query reads. All eight being
    /// digits, the caller reads on from there.
    @inline(__always)
    private static func leadingDigits(_ text: UnsafeRawPointer, _ offset: Int) -> (value: UInt64, end: Int) {
        let word = UInt64(littleEndian: text.loadUnaligned(as: UInt64.self))
        // A byte is a digit when its high nibble is 3, and still is after adding 6.
        let high: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
        let threes: UInt64 = 0x3030_3030_3030_3030
        let nonDigits = ((word & high) ^ threes) | (((word &+ 0x0606_0606_0606_0606) & high) ^ threes)
        let count = nonDigits.trailingZeroBitCount / 8
        guard count > 0 else { return (0, offset) }
        // The digits' values moved to the top bytes (the ones below are leading zeros), then
        // paired into 2-, 4- and 8-digit numbers.
        var value = (word & 0x0F0F_0F0F_0F0F_0F0F) &<< UInt64(8 * (8 - count))
        value = (value &* 2561) &>> 8
        value = ((value & 0x00FF_00FF_00FF_00FF) &* 6_553_601) &>> 16
        value = ((value & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) &>> 32
        return (value, offset + count)
    }

    /// Splits a decompressed group (at `base` in the storage) into lines, reading each
    /// line's sequence number and checking that they rise; returns what is wrong, or `nil`.
    /// Works on the raw bytes (no bounds-checked slices a line): this runs for every line
    /// a query reads.
    static func split(_ raw: UnsafeRawBufferPointer, base: Int, isDelete: Bool, into lines: inout [Line]) -> String? {
        guard let bytes = raw.baseAddress else { return nil }
        let prefix = StoredLinePrefix.bytes(StoredLinePrefix.seq)
        let prefixCount = prefix.count
        // The prefix (seven bytes) compared as two overlapping four-byte words, not with a
        // call to memcmp for every line.
        let head = prefix.loadUnaligned(as: UInt32.self)
        let tail = prefix.loadUnaligned(fromByteOffset: prefixCount - 4, as: UInt32.self)
        let n = raw.count
        var start = 0
        var previous: UInt64 = 0
        while start < n {
            guard n - start > prefixCount, bytes.loadUnaligned(fromByteOffset: start, as: UInt32.self) == head,
                bytes.loadUnaligned(fromByteOffset: start + prefixCount - 4, as: UInt32.self) == tail
            else {
                return "line at byte \(start) of the frame does not start with {\"seq\":"
            }
            var at = start + prefixCount
            let digitsEnd = min(n, at + 19)
            var seq: UInt64 = 0
            if at + 8 <= n {
                (seq, at) = Self.leadingDigits(bytes + at, at)
            }
            while at < digitsEnd {
                let digit = bytes.load(fromByteOffset: at, as: UInt8.self) &- 48
                guard digit <= 9 else { break }
                seq = seq &* 10 &+ UInt64(digit)
                at += 1
            }
            guard at > start + prefixCount else { return "line at byte \(start) of the frame does not start with {\"seq\":" }
            guard seq > previous else { return "sequence numbers in the frame do not rise at byte \(start)" }
            previous = seq
            guard let found = memchr(bytes + at, 10, n - at) else { return "last line of the frame has no newline" }
            let end = bytes.distance(to: UnsafeRawPointer(found)) + 1
            lines.append(Line(seq: seq, start: base + start, end: base + end, isDelete: isDelete))
            start = end
        }
        return nil
    }
}

extension BatchLines {
    /// The first half of ``load(_:_:groups:through:)`` for frames already in memory: `frames`
    /// holds the stored frame of each of `groups` (indexes into the batch header's groups)
    /// at the matching entry of `starts`, as read from `file`, the batch's segment. Checks
    /// each frame and opens it in place with `cipher` when the batch is sealed
    /// (``SegmentFile/checkedFrame(_:group:of:cipher:checkContent:)``), and
    /// decompresses it through `decoder` (not the snapshot's), with
    /// the errors reading through the snapshot gives (`file` is only named in them), so a
    /// thread other than the snapshot's can do it. ``index(_:groups:in:hiding:)`` then
    /// lists the lines.
    ///
    /// A group that holds the anchor of a replay after `after` (its first line is at or
    /// before it, its last after it) is decoded from the last of its blocks whose first whole
    /// line is numbered at most `after` + 1, when that is not its first block: every line
    /// before that one is at or before the anchor, so not needed. Not with `checkContent`,
    /// whose checksum covers every block.
    mutating func decompress(
        frames: UnsafeMutableRawBufferPointer, at starts: [Int], of batch: BatchRef, groups: [Int], in file: SegmentFile, decoder: LZ4FrameDecoder,
        cipher: StoreCipher?, checkContent: Bool = false, after: UInt64 = 0
    ) throws {
        reserve(Self.room(for: groups, of: batch))
        spans.removeAll(keepingCapacity: true)
        decompressed = 0
        var used = 0
        for (k, g) in groups.enumerated() {
            let entry = batch.header.groups[g]
            let frameOffset = batch.groupOffsets[g]
            let stored = UnsafeMutableRawBufferPointer(rebasing: frames[starts[k]..<starts[k] + Int(entry.frameLength)])
            let frame = try file.checkedFrame(stored, group: g, of: batch, cipher: cipher, checkContent: checkContent)
            let length = Int(entry.rawLength)
            if !checkContent, entry.firstSeq <= after, entry.lastSeq > after, let tail = try decodeTail(frame, at: used, length: length, after: after, location: file.location(frameOffset)) {
                spans.append((used + tail.start, tail.count - tail.start, true))
                used += tail.count
                continue
            }
            let failure = storage.withUnsafeMutableBytes { raw in
                decoder.decompress(frame, into: UnsafeMutableRawBufferPointer(rebasing: raw[used...]), length: length, checkContent: checkContent)
            }
            if let failure { throw HealthLogError(.corrupt, "\(file.location(frameOffset)): \(failure.reason)") }
            spans.append((used, length, false))
            used += length
        }
        decompressed = used
    }

    /// How many bytes of a block's start are decoded to find the first line that starts in
    /// it: a few lines' worth.
    private static let probeBytes = 4096

    /// Decodes `frame` (of a group of `length` bytes) at `at` in the storage from its last
    /// block whose first line that starts in it is numbered at most `after` + 1 (so every
    /// line before that one is at or before `after`); returns where that line starts and how
    /// many bytes were decoded, relative to `at`; `nil` when no block but the first is such
    /// (then the frame is decoded whole). Throws when a block is damaged, naming `location`.
    private mutating func decodeTail(
        _ frame: UnsafeRawBufferPointer, at: Int, length: Int, after: UInt64, location: @autoclosure () -> String
    ) throws -> (start: Int, count: Int)? {
        guard length > LZ4FrameDecoder.blockSize, let blocks = LZ4Blocks(frame), blocks.count > 1 else { return nil }
        return try storage.withUnsafeMutableBytes { raw -> (start: Int, count: Int)? in
            let room = UnsafeMutableRawBufferPointer(rebasing: raw[at..<at + length])
            for first in stride(from: blocks.count - 1, through: 1, by: -1) {
                guard let probed = blocks.decode(first, into: room, limit: Self.probeBytes) else { throw Self.damagedBlock(location()) }
                let probe = UnsafeRawBufferPointer(rebasing: room[0..<probed])
                guard let newline = probe.firstIndex(of: 10),
                    let number = StoredLinePrefix.sequenceNumber(UnsafeRawBufferPointer(rebasing: probe[(newline + 1)...])),
                    newline + 1 + number.end < probed
                else { continue }
                guard number.seq <= after || number.seq - after == 1 else { continue }
                var count = 0
                for k in first..<blocks.count {
                    guard let produced = blocks.decode(k, into: UnsafeMutableRawBufferPointer(rebasing: room[count...])) else { throw Self.damagedBlock(location()) }
                    count += produced
                }
                return (newline + 1, count)
            }
            return nil
        }
    }

    /// The error for a block of the frame at `location` that liblz4 finds damaged.
    private static func damagedBlock(_ location: String) -> HealthLogError {
        HealthLogError(.corrupt, "\(location): LZ4 frame is damaged (a block does not decode)")
    }

    /// The storage ``decompress(frames:at:of:groups:in:decoder:cipher:checkContent:after:)`` needs for
    /// `groups` of `batch`: their content and a block's room past it, so LZ4 decodes every
    /// block in place.
    static func room(for groups: [Int], of batch: BatchRef) -> Int {
        groups.reduce(0) { $0 + Int(batch.header.groups[$1].rawLength) } + LZ4FrameDecoder.blockSize
    }

    /// The lines `groups` of `batch` hold as their headers count them, each group's count
    /// bounded by its bytes as splitting it bounds it.
    static func lineRoom(for groups: [Int], of batch: BatchRef) -> Int {
        groups.reduce(0) { sum, g in
            let entry = batch.header.groups[g]
            return sum + min(Int(entry.count), Int(entry.rawLength) / 16)
        }
    }

    /// Makes the storage at least `bytes` long. What it held is not kept, and the new bytes
    /// are not zeroed (LZ4 overwrites them next), so the memory's pages are first touched
    /// only as they are written: a storage reserved once for the largest batch a reader
    /// expects is not grown (freed, mapped again, faulted in again) batch after batch. It
    /// grows by an eighth more than asked, so a reader whose batches come a few percent
    /// larger now and then (``load(_:_:groups:through:)``) does not map it anew each time.
    /// The lists of lines are given room for `lines` (``lineRoom(for:of:)``) the same way:
    /// grown once, not group after group. A new storage's pages that decompressing `bytes`
    /// of ``room(for:of:)`` writes (all but the block's room), and new lists' pages, are
    /// mapped in at once (``Prefault``) rather than faulted in one by one; what the lists
    /// held is not kept either.
    mutating func reserve(_ bytes: Int, lines count: Int = 0) {
        if unordered.capacity < count {
            unordered = Self.emptyLines(room: count)
            lines = Self.emptyLines(room: count)
        }
        guard storage.count < bytes else { return }
        let size = bytes + bytes / 8
        storage = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            Prefault.populate(buffer.baseAddress!, count: bytes - LZ4FrameDecoder.blockSize)
            count = size
        }
    }

    /// An empty list of lines with room for `count`, its pages mapped in at once.
    private static func emptyLines(room count: Int) -> [Line] {
        [Line](unsafeUninitializedCapacity: count) { buffer, initialized in
            Prefault.populate(UnsafeMutableRawPointer(buffer.baseAddress!), count: count * MemoryLayout<Line>.stride)
            initialized = 0
        }
    }

    /// The second half: splits the groups ``decompress(frames:at:of:groups:in:decoder:cipher:checkContent:after:)``
    /// left in the storage into lines, checks them against the header as
    /// ``load(_:_:groups:through:)`` does, marks those `isHidden` says to leave out (visiting them
    /// in storage order, while their bytes are fresh in the cache), and puts them in
    /// sequence order.
    mutating func index(_ batch: BatchRef, groups: [Int], in file: SegmentFile, hiding isHidden: (Line, UnsafeRawBufferPointer) -> Bool) throws {
        unordered.removeAll(keepingCapacity: true)
        groupEnds.removeAll(keepingCapacity: true)
        for (k, g) in groups.enumerated() {
            let span = spans[k]
            try splitGroup(batch.header.groups[g], at: span.start, length: span.count, isTail: span.isTail, location: file.location(batch.groupOffsets[g]))
        }
        storage.withUnsafeBytes { raw in
            unordered.withUnsafeMutableBufferPointer { lines in
                for k in lines.indices where isHidden(lines[k], raw) { lines[k].isHidden = true }
            }
        }
        if let reason = order(batch.header, allGroups: !batch.isPart && groups.count == batch.header.groups.count && !spans.contains { $0.isTail }) {
            throw HealthLogError(.corrupt, "\(file.location(batch.offset)): \(reason)")
        }
    }
}

/// Collects the stored lines of one batch, grouped by (kind, type), and turns them into
/// the batch's bytes: the header frame followed by one compressed LZ4 frame per group.
struct BatchBuilder {
    /// One group being filled.
    struct GroupBuffer {
        var kind: UInt8
        var type: UInt32
        var lines: [UInt8] = []
        var count: UInt32 = 0
        var firstSeq: UInt64 = 0
        var lastSeq: UInt64 = 0
        var minStart = Int64.max
        var maxEnd = Int64.min
    }

    private(set) var groups: [GroupBuffer] = []
    /// Group index by `type id * 2 + kind`, -1 when absent.
    private var slot: [Int] = []
    /// The emptied line buffer of each group of an earlier batch, by the same key: a group
    /// starts from its buffer, whose room its lines of the batch before needed, so a batch
    /// never regrows (copies and faults in) its groups' buffers line by line.
    private var spareLines: [[UInt8]] = []
    /// The first sequence number in the batch (0 while empty).
    private(set) var firstSeq: UInt64 = 0
    /// The last sequence number in the batch.
    private(set) var lastSeq: UInt64 = 0
    /// Uncompressed bytes so far.
    private(set) var rawBytes = 0
    /// Where ``encode(storeTag:appendedMillis:endOfAppend:origin:names:)`` compresses the
    /// frames, kept for the builder's next batch: a new buffer per batch (about a MiB,
    /// mapped) was faulted in afresh every time.
    let frameRoom = FrameRoom()

    /// Whether no event was added yet.
    var isEmpty: Bool { firstSeq == 0 }

    /// Appends one event through `encode`, which writes its stored line into the group's buffer.
    mutating func add(
        kind: UInt8, type: UInt32, seq: UInt64, start: Int64, end: Int64, encode: (inout [UInt8]) -> Void
    ) {
        let key = Int(type) * 2 + Int(kind)
        if key >= slot.count {
            slot.append(contentsOf: repeatElement(-1, count: key + 1 - slot.count))
            spareLines.append(contentsOf: repeatElement([], count: key + 1 - spareLines.count))
        }
        var index = slot[key]
        if index < 0 {
            index = groups.count
            slot[key] = index
            var lines: [UInt8] = []
            swap(&lines, &spareLines[key])
            groups.append(GroupBuffer(kind: kind, type: type, lines: lines, firstSeq: seq))
        }
        let before = groups[index].lines.count
        encode(&groups[index].lines)
        rawBytes += groups[index].lines.count - before
        groups[index].count += 1
        groups[index].lastSeq = seq
        groups[index].minStart = min(groups[index].minStart, start)
        groups[index].maxEnd = max(groups[index].maxEnd, end)
        if firstSeq == 0 { firstSeq = seq }
        lastSeq = seq
    }

    /// The encoded batch (header frame + data frames), ready to write, and its header;
    /// `origin` goes into the header of the batch that ends an append.
    func encode(storeTag: UInt64, appendedMillis: Int64, endOfAppend: Bool, origin: BatchOrigin? = nil, names: Interner) throws -> (header: BatchHeader, bytes: [UInt8]) {
        var entries: [BatchHeader.Group] = []
        var flags: UInt16 = endOfAppend ? FormatConstants.flagEndOfAppend : 0
        let ordered = groups.sorted {
            $0.kind != $1.kind ? $0.kind < $1.kind : names[$0.type].lexicographicallyPrecedes(names[$1.type])
        }
        // The frames one after the other, each compressed straight into its place.
        let bound = ordered.reduce(0) { $0 + LZ4Frame.bound($1.lines.count) }
        let room = frameRoom.bytes(atLeast: bound)
        var filled = 0
        for group in ordered {
            let out = UnsafeMutableRawBufferPointer(rebasing: room[filled...])
            let length = try group.lines.withUnsafeBytes { try LZ4Frame.compress($0, into: out) }
            if group.kind == FormatConstants.groupKindDelete { flags |= FormatConstants.flagHasDeletes }
            entries.append(BatchHeader.Group(
                kind: group.kind, type: String(decoding: names[group.type], as: UTF8.self), count: group.count,
                firstSeq: group.firstSeq, lastSeq: group.lastSeq, minStart: group.minStart, maxEnd: group.maxEnd,
                frameLength: UInt32(length), rawLength: UInt32(group.lines.count),
                frameCRC: CRC32C.checksum(UnsafeRawBufferPointer(rebasing: out[0..<length]))))
            filled += length
        }
        let header = BatchHeader(
            storeTag: storeTag, flags: flags, firstSeq: firstSeq, lastSeq: lastSeq, appendedMillis: appendedMillis, groups: entries,
            origin: endOfAppend ? origin : nil)
        let head = header.encoded()
        var bytes = frameRoom.takeWritten()
        // Grown with room to spare: batches compress to different lengths.
        if bytes.capacity < head.count + filled { bytes.reserveCapacity((head.count + filled) * 9 / 8) }
        bytes.append(contentsOf: head)
        bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: room[0..<filled]).assumingMemoryBound(to: UInt8.self))
        return (header, bytes)
    }

    /// Empties the builder for the next batch, keeping buffers' capacity.
    mutating func reset() {
        for index in groups.indices {
            let key = Int(groups[index].type) * 2 + Int(groups[index].kind)
            slot[key] = -1
            swap(&spareLines[key], &groups[index].lines)
            spareLines[key].removeAll(keepingCapacity: true)
        }
        groups.removeAll(keepingCapacity: true)
        firstSeq = 0
        lastSeq = 0
        rawBytes = 0
    }
}

/// The buffer a ``BatchBuilder`` compresses its frames into, one object for the builder and
/// its copies, so the copy a pipeline's job holds writes into it as it is. It is allocated
/// uninitialized: only the pages the frames fill are faulted in.
///
/// `@unchecked Sendable`: a builder is encoded by one job at a time (``BatchPipeline``
/// waits for each before it hands the builder back), and only an encoding touches it, or
/// the pipeline between two encodings, keeping the written batch's bytes.
final class FrameRoom: @unchecked Sendable {
    /// The buffer, grown to the largest batch's bound.
    private(set) var room = UnsafeMutableRawBufferPointer(start: nil, count: 0)

    /// The buffer, grown to hold `count` bytes first if it is smaller (its bytes are then
    /// uninitialized).
    func bytes(atLeast count: Int) -> UnsafeMutableRawBufferPointer {
        if room.count < count {
            room.deallocate()
            room = .allocate(byteCount: count, alignment: 16)
        }
        return room
    }

    /// The bytes of the builder's batch before, once written: the next batch's bytes take
    /// their storage (about a MiB, mapped), rather than fresh memory faulted in every time.
    private var written: [UInt8] = []

    /// Keeps `bytes`, a batch's written, for the next batch's.
    func keepWritten(_ bytes: consuming [UInt8]) {
        written = bytes
    }

    /// The storage ``keepWritten(_:)`` kept, emptied (none at first).
    func takeWritten() -> [UInt8] {
        var bytes: [UInt8] = []
        swap(&bytes, &written)
        bytes.removeAll(keepingCapacity: true)
        return bytes
    }

    deinit {
        room.deallocate()
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One segment of a snapshot, known by name and by the size it had when the snapshot
/// listed it: a reader never looks past that size, so a concurrent writer's later bytes
/// are invisible to it. Its descriptor is opened only when bytes are read, and held in the
/// snapshot's bounded ``SegmentDescriptors``.
///
/// The file opened must be the one listed (same device and inode). A truncated segment
/// reads short past its new end, and a removed one, or a new file under its name, is
/// *vanished* and reads as empty: a writer only ever cuts bytes past the committed point
/// (old generations stay while a snapshot holds the ``ReaderLock``), so the scan sees a
/// truncation, a torn tail. Why a size from `stat(2)` and a descriptor opened later still
/// describe one consistent file: `Format.md`, "Reading, and telling a torn tail from damage".
struct SegmentFile {
    /// The file's name.
    let name: SegmentName
    /// The path relative to the store directory, for messages (`segments/…`).
    let displayPath: String
    /// The file's identity and size when the snapshot listed it.
    let status: FileStatus
    /// Where its descriptor is opened and held.
    private let descriptors: SegmentDescriptors

    /// The size when the snapshot listed it.
    var size: Int { status.size }

    /// The segment `name` of `layout` as it is now (its size from `stat(2)`), read through
    /// `descriptors`; `nil` if it vanished (a writer removed a torn leftover).
    init?(_ layout: StoreLayout, _ name: SegmentName, descriptors: SegmentDescriptors) throws {
        guard let status = try FileStatus.of(path: layout.segment(baseSeq: name.baseSeq, generation: name.generation)) else { return nil }
        self.name = name
        self.displayPath = "segments/" + name.fileName
        self.status = status
        self.descriptors = descriptors
    }

    /// The same segment, as recorded, read through `descriptors` instead: another thread's
    /// (a ``SegmentDescriptors`` serves one thread).
    func reading(through descriptors: SegmentDescriptors) -> SegmentFile {
        SegmentFile(name: name, displayPath: displayPath, status: status, descriptors: descriptors)
    }

    /// A segment of these parts.
    private init(name: SegmentName, displayPath: String, status: FileStatus, descriptors: SegmentDescriptors) {
        self.name = name
        self.displayPath = displayPath
        self.status = status
        self.descriptors = descriptors
    }

    /// Reads `count` bytes at `offset`, never past the recorded size; fewer when the file
    /// is now shorter, none when it vanished.
    func read(at offset: Int, count: Int) throws -> [UInt8] {
        let available = max(0, min(count, size - offset))
        guard available > 0, let fd = try descriptors.descriptor(for: name, expected: status) else { return [] }
        return try fd.read(at: offset, count: available)
    }

    /// Reads bytes into `buffer` (resized to `count`) at `offset`; throws if the file is
    /// shorter, or vanished after the snapshot opened.
    func read(into buffer: inout [UInt8], at offset: Int, count: Int) throws {
        if buffer.count != count { buffer.resize(forOverwrite: count) }
        guard offset + count <= size else { throw HealthLogError(.corrupt, "\(location(offset)): file ends inside a frame") }
        guard let fd = try descriptors.descriptor(for: name, expected: status) else {
            throw HealthLogError(.corrupt, "\(location(offset)): the segment was removed after this reader opened the log")
        }
        guard try fd.read(into: &buffer, at: offset) == count else {
            throw HealthLogError(.corrupt, "\(location(offset)): file ends inside a frame")
        }
    }

    /// The payload of the batch header frame at `offset`, read whole, or `nil` when no such
    /// frame is there (not the magic, a length past the format's bound, or the file ends first).
    func headerPayload(at offset: Int) throws -> [UInt8]? {
        let head = try read(at: offset, count: 8)
        guard head.count == 8, ByteReaderValue.u32(head, 0) == FormatConstants.batchHeaderMagic else { return nil }
        let length = Int(ByteReaderValue.u32(head, 4))
        guard length <= FormatConstants.maxBatchHeaderLength else { return nil }
        let payload = try read(at: offset + 8, count: length)
        return payload.count == length ? payload : nil
    }

    /// Whether the batch header frame at `offset` is byte for byte the magic, the length and
    /// `payload` (a copy, such as a sidecar index lists): one read into `buffer`. A sidecar's
    /// batch is used only once the segment confirms it, so a copy that disagrees in any
    /// field (a group's type, range or frame) is never the only witness of an answer.
    func holdsHeader(_ payload: UnsafeRawBufferPointer, at offset: Int, buffer: inout [UInt8]) -> Bool {
        let count = 8 + payload.count
        guard offset >= 0, offset + count <= size, (try? read(into: &buffer, at: offset, count: count)) != nil else { return false }
        return ByteReaderValue.u32(buffer, 0) == FormatConstants.batchHeaderMagic && ByteReaderValue.u32(buffer, 4) == UInt32(payload.count)
            && buffer.withUnsafeBytes { frame in payload.isEmpty || memcmp(frame.baseAddress! + 8, payload.baseAddress!, payload.count) == 0 }
    }

    /// The location string used in messages: `segments/NAME at byte N`.
    func location(_ offset: Int) -> String {
        "\(displayPath) at byte \(offset)"
    }
}

/// One committed batch: where its header and frames are, and what the header says.
struct BatchRef: Sendable {
    /// Index of its segment in ``LogSnapshot/segments``.
    var segment: Int
    /// Offset of the batch header's skippable frame.
    var offset: Int
    /// Offset of each group's frame, in header order; for a header of only some of the
    /// batch's groups (the types a query asks for), followed by each group's position in the
    /// batch's table (one array rather than a second one, which every copy of a batch would
    /// retain and release: a replay from 0 copies each batch several times).
    var groupOffsets: [Int]
    /// Offset just past the batch's last frame.
    var end: Int
    /// The decoded header.
    var header: BatchHeader
    /// A sealed header's payload as stored (its table is sealed with a nonce of its own,
    /// so it cannot be encoded again byte for byte), kept by a writer, which writes its
    /// segment's index after every commit; `nil` for a plaintext batch, whose payload
    /// ``BatchHeader/encoded(sealingAt:)`` gives, and for anyone else's batch, whose payload
    /// an index write reads back from the segment (``StoredHeaderPayloads``).
    var sealedPayload: [UInt8]? = nil

    /// The length of the header payload of a batch whose ``header`` lists all its groups.
    var payloadLength: Int { end - header.framesLength - offset - 8 }

    /// Whether ``header`` lists only some of the batch's groups.
    var isPart: Bool { groupOffsets.count > header.groups.count }

    /// The position in the batch's table of group `group` of ``header``: what its frame's
    /// place names.
    func position(_ group: Int) -> Int { isPart ? groupOffsets[header.groups.count + group] : group }
}

extension BatchRef {
    /// The batch of segment `segment` whose header frame, with a payload of `payloadLength`
    /// bytes, starts at `offset` and says `header`: its frames follow the header in order.
    init(segment: Int, offset: Int, payloadLength: Int, header: BatchHeader) {
        var groupOffsets: [Int] = []
        groupOffsets.reserveCapacity(header.groups.count)
        var at = offset + 8 + payloadLength
        for group in header.groups {
            groupOffsets.append(at)
            at += Int(group.frameLength)
        }
        self.init(segment: segment, offset: offset, groupOffsets: groupOffsets, end: offset + 8 + payloadLength + header.framesLength, header: header)
    }

    /// The sealed batch at `offset` of segment `segment` whose `header` lists only some of
    /// its groups, those `part` places (their frames' offsets and positions in the table).
    init(segment: Int, offset: Int, payloadLength: Int, header: BatchHeader, part: BatchHeader.CopiedTable.Part) {
        let frames = offset + 8 + payloadLength
        self.init(
            segment: segment, offset: offset, groupOffsets: part.frameOffsets.map { frames + $0 } + part.positions, end: frames + part.framesLength, header: header)
    }
}

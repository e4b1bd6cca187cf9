/// One ``PreparedEvent`` written as bytes and read back, so an import can prepare each
/// line on its mapping threads, keep the result with the line until the append, and hand
/// it to the writer without parsing and checking the line a second time.
///
/// The bytes (integers as LEB128 varints, signed ones zigzag-encoded): a flags byte; the
/// `type`, `source` and `device` ranges (each `lower + 1`, `0` for none, then the count);
/// the UUID's 16 bytes (high then low, big-endian); `start` and `end` (microseconds, UTC
/// offset, then a byte of `isZulu` and the fraction digits); the verbatim range; the sync
/// identifier's and version's tokens and the version; the correlation's members (a count,
/// then 16 bytes each); the encoded stored line when it is not the UUID's text alone; and
/// the rewritten line when the checker rewrote it. Every range is relative to the line the
/// event was prepared from: the rewritten line when there is one, else the input line.
enum PreparedEventCoding {
    /// The flags byte's bits: a delete, and which of the optional parts follow.
    private static let isDelete: UInt8 = 1, hasRewritten: UInt8 = 2, hasUUID: UInt8 = 4, hasVerbatim: UInt8 = 8
    /// More of the flags byte's bits.
    private static let hasSync: UInt8 = 16, hasObjects: UInt8 = 32, hasStart: UInt8 = 64, hasEnd: UInt8 = 128

    /// Appends the bytes of the first event `chunk` holds (prepared from one line) to `out`.
    static func encode(_ chunk: PreparedChunk, to out: inout [UInt8]) {
        let e = chunk.events[0]
        var flags: UInt8 = 0
        if e.isDelete { flags |= isDelete }
        if e.isRewritten { flags |= hasRewritten }
        if e.uuid != nil { flags |= hasUUID }
        if e.verbatim != nil { flags |= hasVerbatim }
        if e.sync != nil { flags |= hasSync }
        if e.objects != nil { flags |= hasObjects }
        if e.start != nil { flags |= hasStart }
        if e.end != nil { flags |= hasEnd }
        out.append(flags)
        appendRange(e.type, to: &out)
        appendRange(e.source, to: &out)
        appendRange(e.device, to: &out)
        if let uuid = e.uuid { appendUUID(uuid, to: &out) }
        if let start = e.start { appendTimestamp(start, to: &out) }
        if let end = e.end { appendTimestamp(end, to: &out) }
        if let verbatim = e.verbatim {
            appendVarint(UInt64(verbatim.lowerBound), to: &out)
            appendVarint(UInt64(verbatim.count), to: &out)
        }
        if let sync = e.sync {
            appendBytes(sync.identifier, to: &out)
            appendBytes(sync.versionToken, to: &out)
            appendVarint(zigzag(sync.version), to: &out)
        }
        if let objects = e.objects {
            appendVarint(UInt64(objects.count), to: &out)
            for member in objects { appendUUID(member, to: &out) }
        }
        if e.verbatim == nil { appendBytes(chunk.encoded[e.encoded], to: &out) }
        if e.isRewritten { appendBytes(chunk.rewritten[e.line], to: &out) }
    }

    /// Adds the event `bytes` encode to `chunk` as its line `index`, whose input line lies
    /// at `line` of the chunk's bytes: its encoded stored line goes to ``PreparedChunk/encoded``,
    /// a rewritten line to ``PreparedChunk/rewritten``, and its ranges are made relative to
    /// the line as ``PreparedEvent``'s are. Returns `false` when the bytes are not a whole
    /// encoding (then `chunk` is unchanged).
    static func decode(_ bytes: UnsafeRawBufferPointer, index: Int, line: Range<Int>, into chunk: inout PreparedChunk) -> Bool {
        var reader = Reader(bytes: bytes)
        guard let flags = reader.byte() else { return false }
        // Three reads into locals: an array of them was a heap allocation an event.
        guard let type = reader.range(), let source = reader.range(), let device = reader.range() else { return false }
        var uuid: SampleUUID?
        if flags & hasUUID != 0 {
            guard let given = reader.uuid() else { return false }
            uuid = given
        }
        var start: Timestamp?, end: Timestamp?
        if flags & hasStart != 0 {
            guard let t = reader.timestamp() else { return false }
            start = t
        }
        if flags & hasEnd != 0 {
            guard let t = reader.timestamp() else { return false }
            end = t
        }
        var verbatim: Range<Int>?
        if flags & hasVerbatim != 0 {
            guard let lower = reader.int(), let count = reader.int(), uuid != nil else { return false }
            verbatim = lower..<lower + count
        }
        var sync: SyncStub?
        if flags & hasSync != 0 {
            guard let identifier = reader.field(), let token = reader.field(), let version = reader.varint() else { return false }
            sync = SyncStub(identifier: Array(identifier), versionToken: Array(token), version: unzigzag(version))
        }
        var objects: [SampleUUID]?
        if flags & hasObjects != 0 {
            guard let count = reader.int(), count <= reader.remaining / 16 else { return false }
            var members: [SampleUUID] = []
            members.reserveCapacity(count)
            for _ in 0..<count {
                guard let member = reader.uuid() else { return false }
                members.append(member)
            }
            objects = members
        }
        var encoded: UnsafeRawBufferPointer?
        if flags & hasVerbatim == 0 {
            guard let body = reader.field() else { return false }
            encoded = body
        }
        var rewritten: UnsafeRawBufferPointer?
        if flags & hasRewritten != 0 {
            guard let text = reader.field() else { return false }
            rewritten = text
        }
        guard reader.remaining == 0 else { return false }
        let from = chunk.encoded.count
        if let encoded {
            LineEncoder.append(encoded, to: &chunk.encoded)
        } else if let uuid {
            uuid.render(into: &chunk.encoded)
        }
        var at = line
        if let rewritten {
            let rewrittenFrom = chunk.rewritten.count
            LineEncoder.append(rewritten, to: &chunk.rewritten)
            at = rewrittenFrom..<chunk.rewritten.count
        }
        chunk.events.append(PreparedEvent(
            index: index, isDelete: flags & isDelete != 0, isRewritten: rewritten != nil, line: at, uuid: uuid,
            type: type, source: source, device: device, start: start, end: end, sync: sync, objects: objects,
            encoded: from..<chunk.encoded.count, verbatim: verbatim))
        return true
    }

    /// `value` with its sign in the lowest bit, so small negative numbers stay short.
    private static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }

    /// The value ``zigzag(_:)`` made `value` of.
    private static func unzigzag(_ value: UInt64) -> Int64 { Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1) }

    /// Appends `value` as a LEB128 varint.
    private static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    /// Appends `range` (`lower + 1` and the count), or `0` for none.
    private static func appendRange(_ range: Range<Int>?, to out: inout [UInt8]) {
        guard let range else { return out.append(0) }
        appendVarint(UInt64(range.lowerBound) + 1, to: &out)
        appendVarint(UInt64(range.count), to: &out)
    }

    /// Appends the UUID's 16 bytes, high then low, big-endian.
    private static func appendUUID(_ uuid: SampleUUID, to out: inout [UInt8]) {
        withUnsafeBytes(of: uuid.high.bigEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: uuid.low.bigEndian) { out.append(contentsOf: $0) }
    }

    /// Appends the instant, its offset, and a byte of `isZulu` and the fraction digits.
    private static func appendTimestamp(_ t: Timestamp, to out: inout [UInt8]) {
        appendVarint(zigzag(t.microseconds), to: &out)
        appendVarint(zigzag(Int64(t.offsetMinutes)), to: &out)
        out.append((t.isZulu ? 1 : 0) | t.fractionDigits << 1)
    }

    /// Appends the count of `bytes`, then the bytes.
    private static func appendBytes<C: Collection>(_ bytes: C, to out: inout [UInt8]) where C.Element == UInt8 {
        appendVarint(UInt64(bytes.count), to: &out)
        out.append(contentsOf: bytes)
    }

    /// Reads the encoding front to back; every read returns `nil` past the end or on a
    /// value out of range.
    private struct Reader {
        /// The encoding.
        let bytes: UnsafeRawBufferPointer
        /// Where the next read starts.
        var at = 0

        /// The bytes not read yet.
        var remaining: Int { bytes.count - at }

        /// The next byte.
        mutating func byte() -> UInt8? {
            guard at < bytes.count else { return nil }
            defer { at += 1 }
            return bytes[at]
        }

        /// The next LEB128 varint.
        mutating func varint() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while shift < 64, let b = byte() {
                value |= UInt64(b & 0x7F) << shift
                if b < 0x80 { return value }
                shift += 7
            }
            return nil
        }

        /// The next varint as a length or offset (at most `Int32.max`).
        mutating func int() -> Int? {
            guard let v = varint(), v <= UInt64(Int32.max) else { return nil }
            return Int(v)
        }

        /// A range, `.some(nil)` for none, `nil` when the bytes end.
        mutating func range() -> Range<Int>?? {
            guard let lower = int() else { return nil }
            guard lower > 0 else { return .some(nil) }
            guard let count = int() else { return nil }
            return .some(lower - 1..<lower - 1 + count)
        }

        /// The next 16 bytes as a UUID.
        mutating func uuid() -> SampleUUID? {
            guard remaining >= 16 else { return nil }
            defer { at += 16 }
            return SampleUUID(
                high: UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self)),
                low: UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: at + 8, as: UInt64.self)))
        }

        /// The next instant, as ``appendTimestamp(_:to:)`` wrote it.
        mutating func timestamp() -> Timestamp? {
            guard let micros = varint(), let offset = varint(), let packed = byte() else { return nil }
            let minutes = PreparedEventCoding.unzigzag(offset)
            guard let offsetMinutes = Int16(exactly: minutes) else { return nil }
            return Timestamp(
                microseconds: PreparedEventCoding.unzigzag(micros), offsetMinutes: offsetMinutes, isZulu: packed & 1 != 0, fractionDigits: packed >> 1)
        }

        /// The next counted bytes, as ``appendBytes(_:to:)`` wrote them.
        mutating func field() -> UnsafeRawBufferPointer? {
            guard let count = int(), count <= remaining else { return nil }
            defer { at += count }
            return UnsafeRawBufferPointer(rebasing: bytes[at..<at + count])
        }
    }
}

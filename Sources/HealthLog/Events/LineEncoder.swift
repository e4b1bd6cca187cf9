/// Writes the stored (canonical) form of event lines: a JSON object that starts with
/// `"seq"` and `"op"`, then the fields in a fixed order, values copied verbatim from the
/// input. `lz4 -dc` of a segment prints these lines, and `replay` prints them unchanged.
enum LineEncoder {
    /// Appends the decimal digits of `value`.
    static func appendDecimal(_ value: UInt64, to out: inout [UInt8]) {
        // Digits are made last first into a fixed buffer (20 fit any UInt64), then copied.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var at = 20
            var v = value
            repeat {
                at -= 1
                digits[at] = UInt8(48 + v % 10)
                v /= 10
            } while v > 0
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[at...]))
        }
    }

    /// Appends `bytes` with one copy (as typed bytes, which `Array` copies with `memcpy`,
    /// where raw bytes would be appended one at a time).
    @inline(__always)
    static func append(_ bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        out.append(contentsOf: bytes.assumingMemoryBound(to: UInt8.self))
    }

    /// Appends `"key":` then the bytes of `token` from `line`.
    @inline(__always)
    static func appendField(_ key: StaticString, _ token: Range<Int>?, from line: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        guard let token else { return }
        append(UnsafeRawBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount), to: &out)
        append(UnsafeRawBufferPointer(rebasing: line[token]), to: &out)
    }

    /// Appends the stored line of an add (with its trailing newline).
    static func appendAdd(_ e: ParsedEvent, uuid: SampleUUID, seq: UInt64, line: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        appendAddStart(seq: seq, to: &out)
        uuid.render(into: &out)
        appendAddBody(e, line: line, to: &out)
    }

    /// Appends what ``appendAdd(seq:uuid:prepared:verbatim:to:)`` completes into an add's stored
    /// line: its UUID's text when the line gives one, then the rest after the UUID. This
    /// part depends on the line alone, so it is made off the writer's thread.
    static func prepareAdd(_ e: ParsedEvent, line: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        e.uuid?.render(into: &out)
        appendAddBody(e, line: line, to: &out)
    }

    /// Appends the stored line of an add whose other bytes ``prepareAdd(_:line:to:)`` made
    /// (`prepared`): `uuid` is the UUID the writer gave it when the line gives none, `nil`
    /// when `prepared` starts with the line's own. When `verbatim` is given, `prepared`
    /// holds only the UUID's text and the line's own bytes `verbatim` (see
    /// ``verbatimBody(_:line:)``) complete it, with a newline. The same bytes as
    /// ``appendAdd(_:uuid:seq:line:to:)``.
    static func appendAdd(seq: UInt64, uuid: SampleUUID?, prepared: UnsafeRawBufferPointer, verbatim: UnsafeRawBufferPointer? = nil, to out: inout [UInt8]) {
        guard uuid == nil, prepared.count + (verbatim?.count ?? 0) <= Self.assembledLimit else {
            appendAddStart(seq: seq, to: &out)
            uuid?.render(into: &out)
            append(prepared, to: &out)
            if let verbatim {
                append(verbatim, to: &out)
                out.append(10)
            }
            return
        }
        // The line's parts put together on the stack and appended with one copy: an
        // append to the array per part cost more than the bytes it copied.
        withUnsafeTemporaryAllocation(byteCount: Self.assembledLimit + 64, alignment: 16) { room in
            var at = 0
            func put(_ bytes: UnsafeRawBufferPointer) {
                guard let base = bytes.baseAddress else { return }
                (room.baseAddress! + at).copyMemory(from: base, byteCount: bytes.count)
                at += bytes.count
            }
            put(StoredLinePrefix.bytes(StoredLinePrefix.seq))
            at += writeDecimal(seq, at: room.baseAddress! + at)
            put(StoredLinePrefix.bytes(StoredLinePrefix.add))
            put(prepared)
            if let verbatim {
                put(verbatim)
                room.storeBytes(of: 10, toByteOffset: at, as: UInt8.self)
                at += 1
            }
            append(UnsafeRawBufferPointer(rebasing: room[0..<at]), to: &out)
        }
    }

    /// The most bytes of a prepared line (its parts from the UUID on) that
    /// ``appendAdd(seq:uuid:prepared:verbatim:to:)`` assembles on the stack (within the
    /// 1 KiB the standard library allocates there unchecked); a longer line
    /// is appended part by part.
    static let assembledLimit = 960

    /// Writes the decimal digits of `value` at `to`; returns how many.
    @inline(__always)
    private static func writeDecimal(_ value: UInt64, at to: UnsafeMutableRawPointer) -> Int {
        var count = 1
        var rest = value / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        var v = value
        for k in stride(from: count - 1, through: 0, by: -1) {
            to.storeBytes(of: UInt8(48 + v % 10), toByteOffset: k, as: UInt8.self)
            v /= 10
        }
        return count
    }

    /// The part of `line` that is, byte for byte, what ``prepareAdd(_:line:to:)`` writes
    /// after the UUID's text but the newline, or `nil` when the line does not hold it as is.
    /// It does when the line is already in the stored form from its `uuid` on: the UUID,
    /// then the fields the stored line carries, in its order, with no blanks, then `}` at
    /// the end of the line. The parser's token positions prove that: a field's token lies
    /// exactly `,"name":` past the end of the one before only when nothing, not a blank and
    /// not another field, is between them (a field's key holds no escapes, or it would not
    /// be known), so the bytes in between are that literal. `objects` and `workout`, which
    /// are written from their parsed UUIDs, never take this path.
    static func verbatimBody(_ e: ParsedEvent, line: UnsafeRawBufferPointer) -> Range<Int>? {
        guard let uuidToken = e.uuidToken, let type = e.type, e.objects == nil, e.workout == nil else { return nil }
        // `,"type":"` lies between the UUID's token and the type's characters.
        guard type.lowerBound == uuidToken.upperBound + 9 else { return nil }
        var end = type.upperBound + 1
        func follows(_ name: StaticString, _ token: Range<Int>?) -> Bool {
            guard let token else { return true }
            guard token.lowerBound == end + name.utf8CodeUnitCount + 4 else { return false }
            end = token.upperBound
            return true
        }
        let value: Range<Int>?
        switch e.value {
        case .number(let range, _), .string(let range): value = range
        case nil: value = nil
        }
        guard follows("start", e.startToken), follows("end", e.endToken), follows("value", value), follows("unit", e.unit),
            follows("source", e.source), follows("sourceVersion", e.sourceVersion), follows("device", e.device),
            follows("metadata", e.metadata), follows("activity", e.activity), follows("duration", e.duration),
            follows("totals", e.totals), follows("locations", e.locations), follows("voltages", e.voltages),
            end + 1 == line.count, line[end] == 0x7D
        else { return nil }
        return uuidToken.upperBound - 1..<line.count
    }

    /// Appends an add's stored line up to its UUID.
    private static func appendAddStart(seq: UInt64, to out: inout [UInt8]) {
        append(StoredLinePrefix.bytes(StoredLinePrefix.seq), to: &out)
        appendDecimal(seq, to: &out)
        append(StoredLinePrefix.bytes(StoredLinePrefix.add), to: &out)
    }

    /// Appends an add's stored line after its UUID: from `","type":"` to the newline.
    private static func appendAddBody(_ e: ParsedEvent, line: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        out.append(contentsOf: #"","type":""#.utf8)
        if let type = e.type { append(UnsafeRawBufferPointer(rebasing: line[type]), to: &out) }
        out.append(34)
        appendField(#","start":"#, e.startToken, from: line, to: &out)
        appendField(#","end":"#, e.endToken, from: line, to: &out)
        switch e.value {
        case .number(let range, _), .string(let range): appendField(#","value":"#, range, from: line, to: &out)
        case nil: break
        }
        appendField(#","unit":"#, e.unit, from: line, to: &out)
        appendField(#","source":"#, e.source, from: line, to: &out)
        appendField(#","sourceVersion":"#, e.sourceVersion, from: line, to: &out)
        appendField(#","device":"#, e.device, from: line, to: &out)
        appendField(#","metadata":"#, e.metadata, from: line, to: &out)
        appendField(#","activity":"#, e.activity, from: line, to: &out)
        appendField(#","duration":"#, e.duration, from: line, to: &out)
        appendField(#","totals":"#, e.totals, from: line, to: &out)
        if let objects = e.objects {
            out.append(contentsOf: #","objects":["#.utf8)
            for (k, member) in objects.enumerated() {
                out.append(contentsOf: k == 0 ? [34] : [44, 34])
                member.render(into: &out)
                out.append(34)
            }
            out.append(93)
        }
        if let workout = e.workout {
            out.append(contentsOf: #","workout":""#.utf8)
            workout.render(into: &out)
            out.append(34)
        }
        appendField(#","locations":"#, e.locations, from: line, to: &out)
        appendField(#","voltages":"#, e.voltages, from: line, to: &out)
        out.append(contentsOf: "}\n".utf8)
    }

    /// Appends the stored line of a delete, carrying the deleted sample's fields.
    static func appendDelete(
        uuid: SampleUUID, seq: UInt64, stub: SampleStub, sync: SyncStub?, names: Interner, to out: inout [UInt8]
    ) {
        out.append(contentsOf: StoredLinePrefix.bytes(StoredLinePrefix.seq))
        appendDecimal(seq, to: &out)
        out.append(contentsOf: StoredLinePrefix.bytes(StoredLinePrefix.delete))
        uuid.render(into: &out)
        out.append(contentsOf: #"","type":""#.utf8)
        out.append(contentsOf: names[stub.type])
        out.append(contentsOf: #"","start":""#.utf8)
        stub.start.render(into: &out)
        out.append(contentsOf: #"","end":""#.utf8)
        stub.end.render(into: &out)
        out.append(34)
        if stub.source != 0 {
            out.append(contentsOf: #","source":"#.utf8)
            out.append(contentsOf: names[stub.source])
        }
        if stub.device != 0 {
            out.append(contentsOf: #","device":"#.utf8)
            out.append(contentsOf: names[stub.device])
        }
        if let sync {
            out.append(contentsOf: #","metadata":{"HKMetadataKeySyncIdentifier":"#.utf8)
            out.append(contentsOf: sync.identifier)
            out.append(contentsOf: #","HKMetadataKeySyncVersion":"#.utf8)
            out.append(contentsOf: sync.versionToken)
            out.append(125)
        }
        out.append(contentsOf: "}\n".utf8)
    }
}

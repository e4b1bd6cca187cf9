/// Parses one NDJSON event line strictly: every field's JSON type, no unknown or
/// repeated fields, UUIDs and ISO 8601 instants well formed, numbers finite, and the
/// per-kind rules of ``EventRules``. Hand-written because Foundation's decoders would cap
/// ingest speed; fuzzed and tested against bad input.
enum EventLineParser {
    /// Parses `line` (without its newline) into a ``ParsedEvent``; with a `memo`, value
    /// tokens equal to ones it holds from the lines before are taken from it, and those
    /// scanned go into it (the same event and the same errors either way).
    static func parse(_ line: UnsafeRawBufferPointer, memo: TokenMemo? = nil) throws -> ParsedEvent {
        var s = JSONScanner(line)
        var event = ParsedEvent()
        var seen: UInt32 = 0
        var current: Field?
        do {
            try s.expect(0x7B, "a JSON object")
            if s.peek() == 0x7D {
                s.position += 1
            } else {
                // Lines of one input mostly give their keys in the order of the line
                // before (the memo's), so the next key is first compared with that one's.
                var keys = 0
                while true {
                    let field: Field
                    if let memo, let expected = memo.expectedField(keys, in: &s) {
                        field = expected
                    } else if let known = Field.atKey(&s) {
                        try s.expect(0x3A, "':' after a field name")
                        field = known
                    } else {
                        let key = try s.string()
                        try s.expect(0x3A, "':' after a field name")
                        guard let named = Field(s, key.range) else {
                            let name = String(decoding: UnsafeRawBufferPointer(rebasing: line[key.range.lowerBound + 1..<key.range.upperBound - 1]), as: UTF8.self)
                            throw FieldError(field: name, reason: "unknown field")
                        }
                        field = named
                    }
                    guard seen & (1 << field.rawValue) == 0 else {
                        throw FieldError(field: field.name, reason: "field appears twice")
                    }
                    seen |= 1 << field.rawValue
                    memo?.noteField(field, at: keys)
                    keys += 1
                    current = field
                    try parseField(field, &s, &event, memo: memo)
                    current = nil
                    guard let next = s.peek() else { throw s.error("expected ',' or '}'") }
                    s.position += 1
                    if next == 0x7D { break }
                    guard next == 0x2C else { throw s.error("expected ',' or '}'") }
                }
                memo?.endOrder(keys)
            }
            s.skipBlanks()
            guard s.position == line.count else { throw s.error("unexpected text after the object") }
        } catch let error as JSONScanner.SyntaxError {
            throw FieldError(field: current?.name, reason: "malformed JSON at byte \(error.position + 1): \(error.reason)")
        } catch let error as FieldError {
            throw error
        } catch {
            throw FieldError(field: nil, reason: "malformed JSON")
        }
        try EventRules.check(&event, seen: seen)
        if event.voltages != nil, let type = event.type, !UnsafeRawBufferPointer(rebasing: line[type]).elementsEqual(ElectrocardiogramSample.type.identifier.utf8) {
            throw FieldError(field: "voltages", reason: "is only for electrocardiograms (\(ElectrocardiogramSample.type.identifier))")
        }
        return event
    }

    /// Parses `voltages`: an array of numbers; returns the token's range.
    private static func parseVoltages(_ s: inout JSONScanner) throws -> Range<Int> {
        guard s.peek() == 0x5B else { throw FieldError(field: "voltages", reason: "must be an array of numbers") }
        let start = s.position
        s.position += 1
        if s.peek() == 0x5D {
            s.position += 1
            return start..<s.position
        }
        while true {
            guard let c = s.peek(), c == 0x2D || (c >= 0x30 && c <= 0x39) else { throw FieldError(field: "voltages", reason: "must be an array of numbers") }
            _ = try s.number()
            guard let next = s.peek() else { throw s.error("expected ',' or ']'") }
            s.position += 1
            if next == 0x5D { return start..<s.position }
            guard next == 0x2C else { throw s.error("expected ',' or ']'") }
        }
    }

    /// Parses the value of one field into `event`, taking tokens from `memo` (see
    /// ``TokenMemo``) when it holds them.
    private static func parseField(_ field: Field, _ s: inout JSONScanner, _ event: inout ParsedEvent, memo: TokenMemo?) throws {
        func string() throws -> Range<Int> {
            guard s.peek() == 0x22 else { throw FieldError(field: field.name, reason: "must be a string") }
            return try s.string().range
        }
        func text(_ token: Range<Int>) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(rebasing: s.bytes[token.lowerBound + 1..<token.upperBound - 1])
        }
        switch field {
        case .op:
            // `"add"` whole is the token a string scan would take.
            if s.peek() == 0x22, s.position + 5 <= s.bytes.count,
                s.bytes.loadUnaligned(fromByteOffset: s.position, as: UInt32.self) == UInt32(littleEndian: 0x6464_6122), s.bytes[s.position + 4] == 0x22
            {
                s.position += 5
                event.isDelete = false
                return
            }
            let token = try string()
            if s.equals(token, "\"add\"") {
                event.isDelete = false
            } else if s.equals(token, "\"delete\"") {
                event.isDelete = true
            } else {
                throw FieldError(field: "op", reason: "must be \"add\" or \"delete\"")
            }
        case .uuid:
            // A UUID's 36 characters hold no quote, backslash or control character, so a
            // quote after them ends the token a string scan would take.
            if s.peek() == 0x22, s.position + 38 <= s.bytes.count, s.bytes[s.position + 37] == 0x22,
                let uuid = SampleUUID(utf8: UnsafeRawBufferPointer(rebasing: s.bytes[s.position + 1..<s.position + 37]))
            {
                event.uuid = uuid
                event.uuidToken = s.position..<s.position + 38
                s.position += 38
                return
            }
            let token = try string()
            guard let uuid = SampleUUID(utf8: text(token)) else {
                throw FieldError(field: "uuid", reason: "not an RFC 4122 UUID")
            }
            event.uuid = uuid
            event.uuidToken = token
        case .type:
            if let memo, let known = remembered(memo, .type, &s, opening: 0x22) {
                event.type = known.token.lowerBound + 1..<known.token.upperBound - 1
                event.kind = memo.kind(known.entry)
                return
            }
            let token = try string()
            event.type = token.lowerBound + 1..<token.upperBound - 1
            if let kind = SampleKind(identifierBytes: text(token)) {
                event.kind = kind
                memo?.recordType(token, of: s.bytes, kind: kind)
                return
            }
            let name = JSONStringDecoder.decode(UnsafeRawBufferPointer(rebasing: s.bytes[token]))
            let known = HealthKitTypes.matching(name)
            guard known.count == 1, let kind = SampleKind(typeIdentifier: known[0]) else {
                let hint = HealthKitTypes.nearMiss(of: name).map { "; did you mean \(TypeNames.shortForm($0)) (\($0))?" } ?? ""
                throw FieldError(
                    field: "type",
                    reason: known.count > 1 ? "'\(name)' is ambiguous: \(known.joined(separator: ", "))"
                        : "'\(name)' is not a HealthKit type identifier (HKQuantityTypeIdentifier…, HKCategoryTypeIdentifier…, HKWorkoutTypeIdentifier, …) nor a short name healthlog knows" + hint)
            }
            event.kind = kind
            event.resolvedType = known[0]
        case .start, .end:
            let token: Range<Int>
            let instant: Timestamp
            if let memo, let known = remembered(memo, .instant, &s, opening: 0x22) {
                token = known.token
                instant = memo.instant(known.entry)
            } else {
                token = try string()
                var day = memo?.day ?? Timestamp.Day()
                defer { memo?.day = day }
                guard let parsed = Timestamp(utf8: text(token), day: &day) else {
                    throw FieldError(field: field.name, reason: "not an ISO 8601 instant with Z or an offset")
                }
                instant = parsed
                memo?.recordInstant(token, of: s.bytes, instant: parsed)
            }
            if field == .start {
                event.start = instant
                event.startToken = token
            } else {
                event.end = instant
                event.endToken = token
            }
        case .value:
            switch s.peek() {
            case .some(0x22): event.value = .string(try s.string().range)
            case .some(0x2D), .some(0x30...0x39):
                let number = try s.number()
                event.value = .number(number.range, isInteger: number.isInteger)
            default: throw FieldError(field: "value", reason: "must be a number or a string")
            }
        case .unit, .source, .sourceVersion, .device:
            let token: Range<Int>
            let slot: TokenMemo.Slot = field == .unit ? .unit : field == .source ? .source : field == .sourceVersion ? .sourceVersion : .device
            if let memo, let known = remembered(memo, slot, &s, opening: 0x22) {
                token = known.token
            } else {
                token = try string()
                memo?.record(slot, token, of: s.bytes)
            }
            switch field {
            case .unit: event.unit = token
            case .source: event.source = token
            case .sourceVersion: event.sourceVersion = token
            default: event.device = token
            }
        case .activity: event.activity = try string()
        case .duration:
            guard let c = s.peek(), c == 0x2D || (c >= 0x30 && c <= 0x39) else {
                throw FieldError(field: "duration", reason: "must be a number")
            }
            event.duration = try s.number().range
        case .seq:
            guard let c = s.peek(), c >= 0x30 && c <= 0x39, try s.number().isInteger else {
                throw FieldError(field: "seq", reason: "must be a non-negative integer")
            }
        case .metadata:
            // Only an object without the sync keys is remembered: it sets nothing but its range.
            if let memo, let known = remembered(memo, .metadata, &s, opening: 0x7B) {
                event.metadata = known.token
                return
            }
            try MetadataParser.parse(&s, into: &event)
            if let memo, let token = event.metadata, event.syncIdentifier == nil, event.syncVersionToken == nil {
                memo.record(.metadata, token, of: s.bytes)
            }
        case .totals: event.totals = try TotalsParser.parse(&s)
        case .objects: event.objects = try parseObjects(&s)
        case .workout:
            let token = try string()
            guard let uuid = SampleUUID(utf8: text(token)) else {
                throw FieldError(field: "workout", reason: "not an RFC 4122 UUID")
            }
            event.workout = uuid
        case .locations: event.locations = try LocationsParser.parse(&s)
        case .voltages: event.voltages = try parseVoltages(&s)
        }
    }

    /// The token of `slot` remembered in `memo` that the next bytes of `s` (after blanks)
    /// are, which it consumes, and its entry; `nil`, with only blanks consumed, when there
    /// is none or the next byte is not `opening`.
    @inline(__always)
    private static func remembered(_ memo: TokenMemo, _ slot: TokenMemo.Slot, _ s: inout JSONScanner, opening: UInt8) -> (token: Range<Int>, entry: Int)? {
        guard s.peek() == opening, let entry = memo.match(slot, s.bytes, at: s.position) else { return nil }
        let token = s.position..<s.position + memo.length(entry)
        s.position = token.upperBound
        return (token, entry)
    }

    /// Parses `objects`: a non-empty array of UUID strings.
    private static func parseObjects(_ s: inout JSONScanner) throws -> [SampleUUID] {
        guard s.peek() == 0x5B else { throw FieldError(field: "objects", reason: "must be an array of UUIDs") }
        s.position += 1
        var uuids: [SampleUUID] = []
        if s.peek() == 0x5D {
            s.position += 1
            return uuids
        }
        while true {
            guard s.peek() == 0x22 else { throw FieldError(field: "objects", reason: "must be an array of UUIDs") }
            let token = try s.string().range
            guard let uuid = SampleUUID(utf8: UnsafeRawBufferPointer(rebasing: s.bytes[token.lowerBound + 1..<token.upperBound - 1])) else {
                throw FieldError(field: "objects", reason: "item \(uuids.count + 1) is not an RFC 4122 UUID")
            }
            uuids.append(uuid)
            guard let next = s.peek() else { throw s.error("expected ',' or ']'") }
            s.position += 1
            if next == 0x5D { return uuids }
            guard next == 0x2C else { throw s.error("expected ',' or ']'") }
        }
    }
}

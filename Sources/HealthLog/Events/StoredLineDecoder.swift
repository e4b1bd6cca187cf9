#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decodes a stored line straight into the value an anchored query returns, for the lines
/// most queries are made of: adds of quantity, category and other (activity summary,
/// characteristic, data type) samples, and every delete. ``LineEncoder`` writes a stored
/// line's fields in one order, so the decoder reads each field's key where the one before
/// it ends, instead of parsing the line as JSON in general; the UUID and dates are read
/// from their fixed forms, and the type, unit, source, device, string values and metadata
/// are taken from a ``RecordMemo`` when an earlier line held the same bytes.
///
/// It answers only what ``EventRecord`` and ``SampleDecoder`` would answer for the same
/// line: anything it does not read with certainty (another field, a blank between tokens, a
/// number it cannot convert exactly, a line the parser's rules refuse) makes it return
/// `nil`, and the caller decodes that line the general way, which reports any damage.
enum StoredLineDecoder {
    /// What a stored line records.
    enum Item {
        /// A sample added.
        case added(any Sample)
        /// A sample deleted.
        case deleted(DeletedObject)
    }

    /// The item `line` (without its newline) records, or `nil` when the line is not of a
    /// shape this decoder reads.
    static func item(_ line: UnsafeRawBufferPointer, memo: inout RecordMemo) -> Item? {
        var r = Reader(line: line)
        guard r.skip(StoredLinePrefix.seq), r.skipSequenceNumber() else { return nil }
        let isDelete: Bool
        if r.skip(StoredLinePrefix.add) {
            isDelete = false
        } else if r.skip(StoredLinePrefix.delete) {
            isDelete = true
        } else {
            return nil
        }
        guard r.at + 36 <= line.count, let uuid = SampleUUID(utf8: r.bytes(r.at..<r.at + 36)) else { return nil }
        r.at += 36
        guard r.skip(StoredLinePrefix.type), let typeEnd = r.find(0x22) else { return nil }
        let typeBytes = r.bytes(r.at..<typeEnd)
        guard let type = memo.type.value(typeBytes, { SampleType(String(decoding: typeBytes, as: UTF8.self)) }) else { return nil }
        r.at = typeEnd
        guard r.skip(#"","start":""#), let start = r.instant(&memo.day), r.skip(#"","end":""#), let end = r.instant(&memo.day, sameAs: start),
            end.instant.microseconds >= start.instant.microseconds, r.skip(#"""#)
        else { return nil }

        var number: Number?
        var text: String?
        if r.skip(#","value":"#) {
            if r.peek == 0x22 {
                guard let value = r.string(&memo.text) else { return nil }
                text = value
            } else {
                guard let value = r.number() else { return nil }
                number = value
            }
        }
        // The lines of a query mostly end the same way from here on (unit, source, device,
        // metadata), so the rest of the line is looked up whole before it is read.
        let tailBytes = r.bytes(r.at..<line.count)
        let tail: Tail
        if let known = memo.tail.remembered(tailBytes) {
            tail = known
        } else {
            guard let read = r.tail(&memo) else { return nil }
            memo.tail.remember(tailBytes, read)
            tail = read
        }
        let unit = tail.unit
        let hasValue = number != nil || text != nil

        if isDelete {
            let shared = tail.shared
            guard !hasValue, unit == nil, shared.sourceVersion == nil else { return nil }
            return .deleted(
                DeletedObject(
                    uuid: uuid, sampleType: type, start: start.instant, end: end.instant, source: shared.source, device: shared.device, metadata: shared.metadata))
        }
        let fields = SampleFields(uuid: uuid, start: start.instant, end: end.instant, shared: tail.shared)
        switch type.kind {
        case .quantity:
            guard let number, let unit else { return nil }
            return .added(QuantitySample(type: type, quantity: Quantity(number.value, unit), fields: fields))
        case .category:
            guard unit == nil else { return nil }
            if let text { return .added(CategorySample(type: type, value: .name(text), fields: fields)) }
            guard let number, number.isInteger else { return nil }
            let value: CategoryValue = number.integer.map { .integer($0) } ?? .name(String(decoding: r.bytes(number.token), as: UTF8.self))
            return .added(CategorySample(type: type, value: value, fields: fields))
        case .characteristic, .activitySummary, .dataType:
            guard type.kind != .characteristic || hasValue, type != ElectrocardiogramSample.type else { return nil }
            let value: MetadataValue? = text.map { .string($0) } ?? number.map { .number($0.value) }
            return .added(OtherSample(type: type, value: value, unit: unit, fields: fields))
        case .workout, .correlation, .workoutRoute:
            return nil
        }
    }

    /// A stored line's fields after its value, through its closing brace: the unit, and
    /// the source, source version, device and metadata in the object the samples of the
    /// lines that end alike share.
    struct Tail {
        var unit: String?
        var shared: SampleFields.Shared
    }

    /// A number token as read: its value (as Swift's parser gives it), its range, whether
    /// it is an integer in JSON's sense, and, for an integer `Int` holds, its value as one.
    struct Number {
        var value: Double
        var token: Range<Int>
        var isInteger: Bool
        var integer: Int?
    }

    /// A timestamp read from its token, and where its characters are in the line.
    struct Instant {
        var instant: Timestamp
        var text: Range<Int>
    }

    /// A position in a stored line and the reads from it: each returns `nil` without
    /// moving, or reads its token and moves past it.
    struct Reader {
        let line: UnsafeRawBufferPointer
        var at = 0
        /// Set when a field's key was consumed but its value did not read.
        var failed = false

        /// The bytes of `range`.
        func bytes(_ range: Range<Int>) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(rebasing: line[range])
        }

        /// The byte at the position, or `nil` at the end.
        var peek: UInt8? { at < line.count ? line[at] : nil }

        /// Reads the fields after the value through the line's closing brace.
        mutating func tail(_ memo: inout RecordMemo) -> Tail? {
            let unit = skip(#","unit":"#) ? string(&memo.unit) : nil
            let source = skip(#","source":"#) ? string(&memo.source) : nil
            let sourceVersion = skip(#","sourceVersion":"#) ? string(&memo.sourceVersion) : nil
            let device = skip(#","device":"#) ? string(&memo.device) : nil
            var metadata: [String: MetadataValue] = [:]
            if skip(#","metadata":"#) {
                guard let known = self.metadata(&memo) else { return nil }
                metadata = known
            }
            guard !failed, at + 1 == line.count, line[at] == 0x7D else { return nil }
            return Tail(unit: unit, shared: SampleFields.Shared(source: source, sourceVersion: sourceVersion, device: device, metadata: metadata))
        }

        /// Moves past `text` when the line holds it at the position.
        @inline(__always)
        mutating func skip(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard at + count <= line.count, ShortBytes.equal(line.baseAddress! + at, text.utf8Start, count) else { return false }
            at += count
            return true
        }

        /// The index of the first `byte` at or after the position.
        func find(_ byte: UInt8) -> Int? {
            guard at < line.count, let found = memchr(line.baseAddress! + at, Int32(byte), line.count - at) else { return nil }
            return line.baseAddress!.distance(to: UnsafeRawPointer(found))
        }

        /// Moves past a JSON non-negative integer (`0`, or digits not starting with `0`).
        mutating func skipSequenceNumber() -> Bool {
            let first = at
            while at < line.count, line[at] >= 0x30, line[at] <= 0x39 { at += 1 }
            return at > first && (line[first] != 0x30 || at == first + 1)
        }

        /// The instant whose characters start at the position, up to its closing quote
        /// (left unread); the same as `earlier` when its characters are. `day` is the last
        /// date read.
        mutating func instant(_ day: inout Timestamp.Day, sameAs earlier: Instant? = nil) -> Instant? {
            guard let end = find(0x22) else { return nil }
            let text = at..<end
            if let earlier, earlier.text.count == text.count, ShortBytes.equal(line.baseAddress! + earlier.text.lowerBound, line.baseAddress! + at, text.count) {
                at = end
                return Instant(instant: earlier.instant, text: text)
            }
            guard let instant = Timestamp(utf8: bytes(text), day: &day) else { return nil }
            at = end
            return Instant(instant: instant, text: text)
        }

        /// The string whose token starts at the position, from `slot` when it holds the
        /// token's bytes, else scanned (strictly, as the parser does), decoded and remembered
        /// there. A token that does not scan sets ``failed``.
        mutating func string(_ slot: inout RecordMemo.Slot<String>) -> String? {
            guard peek == 0x22 else {
                failed = true
                return nil
            }
            if let known = slot.match(line, at: at) {
                at += known.count
                return known.value
            }
            var scanner = JSONScanner(line)
            scanner.position = at
            guard let token = try? scanner.string().range else {
                failed = true
                return nil
            }
            let value = JSONStringDecoder.decode(bytes(token))
            slot.remember(bytes(token), value)
            at = token.upperBound
            return value
        }

        /// The number whose token starts at the position, scanned as the parser scans it. Its
        /// value is computed exactly where that is plain (an integer of up to 18 digits, or a
        /// decimal of up to 15 digits with no exponent: one correctly rounded division of
        /// two exact doubles), else by Swift's parser, as ``StoredLineView/double(_:)``.
        mutating func number() -> Number? {
            guard let c = peek, c == 0x2D || (c >= 0x30 && c <= 0x39) else { return nil }
            var scanner = JSONScanner(line)
            scanner.position = at
            guard let scanned = try? scanner.number() else { return nil }
            let (token, isInteger) = scanned
            at = token.upperBound
            var k = token.lowerBound
            let negative = line[k] == 0x2D
            if negative { k += 1 }
            var mantissa: UInt64 = 0
            var digits = 0
            var fraction = 0
            var plain = true
            while k < token.upperBound {
                let d = line[k]
                if d == 0x2E {
                    fraction = token.upperBound - k - 1
                } else if d >= 0x30, d <= 0x39 {
                    mantissa = mantissa &* 10 &+ UInt64(d - 0x30)
                    digits += 1
                } else {
                    plain = false
                    break
                }
                k += 1
            }
            if isInteger, digits <= 18 {
                let magnitude = Double(mantissa)
                return Number(value: negative ? -magnitude : magnitude, token: token, isInteger: true, integer: negative ? -Int(mantissa) : Int(mantissa))
            }
            if plain, !isInteger, digits <= 15, fraction <= 22 {
                let magnitude = Double(mantissa) / Self.powersOfTen[fraction]
                return Number(value: negative ? -magnitude : magnitude, token: token, isInteger: false, integer: nil)
            }
            let text = String(decoding: bytes(token), as: UTF8.self)
            guard let value = Double(text) else { return nil }
            return Number(value: value, token: token, isInteger: isInteger, integer: isInteger ? Int(text) : nil)
        }

        /// 10⁰ through 10²², each exact as a `Double`.
        private static let powersOfTen: [Double] = (0...22).map { exponent in (0..<exponent).reduce(1.0) { value, _ in value * 10 } }

        /// The metadata whose object starts at the position and ends just before the line's
        /// closing brace: from the memo when it holds those bytes, else parsed (strictly, as
        /// the parser does, so the sync keys' rules hold), read and remembered.
        mutating func metadata(_ memo: inout RecordMemo) -> [String: MetadataValue]? {
            guard peek == 0x7B, line.count - 1 > at else { return nil }
            let object = bytes(at..<line.count - 1)
            var scanner = JSONScanner(line)
            scanner.position = at
            let known = try? memo.metadata.value(object) {
                var event = ParsedEvent()
                try MetadataParser.parse(&scanner, into: &event)
                guard scanner.position == line.count - 1, event.syncIdentifier == nil || event.syncVersion != nil else { throw NotRead() }
                let entries = JSONObjectReader.entries(object)
                return (entries, Dictionary(entries.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first }))
            }
            guard let known else { return nil }
            at = line.count - 1
            return known.dictionary
        }
    }

    /// A token that does not read as the parser would read it.
    private struct NotRead: Error {}
}

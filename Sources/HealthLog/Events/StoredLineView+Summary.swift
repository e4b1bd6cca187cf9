#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension StoredLineView {
    /// Reads the dates, value, unit and source of a stored add line without parsing it as a
    /// whole: ``LineEncoder`` writes the fields in one order (`seq`, `op`, `uuid`, `type`,
    /// `start`, `end`, `value`, `unit`, `source`, then the other free-text fields), so after
    /// the first `,"start":"` each field is looked for just where the one before it ends.
    /// What statistics need, at a fraction of a full view.
    ///
    /// Lines come in runs that repeat themselves (one source, one unit, one day, a sample
    /// whose end is its start), so the reader remembers the last unit, source and date and
    /// compares bytes before it decodes anything (``SummaryCache``).
    struct SummaryReader {
        /// What a line holds. Its texts are numbers, so that fields are plain values to copy
        /// and keep: 0 for none (an empty unit or source), else a number the reader gave the
        /// text. Two lines with the same number have the same text, and the reader's
        /// ``unitText``, ``sourceText`` and ``timeZoneText`` are the texts of the last line
        /// read.
        struct Fields {
            var start: Int64
            var end: Int64
            var value: Double?
            /// The unit's number.
            var unit: Int
            /// The source's number.
            var source: Int
            /// The UTC offset the start was recorded with, minutes east.
            var startOffset: Int16 = 0
            /// The number of the `HKTimeZone` metadata, when asked for and present; else 0.
            var timeZone: Int = 0
        }

        private var lastUnit = SummaryCache.Text()
        private var lastSource = SummaryCache.Text()
        private var lastZone = SummaryCache.Text()

        /// The unit of the last line read (empty when it had none).
        var unitText: String { lastUnit.text }
        /// The source of the last line read (empty when it had none).
        var sourceText: String { lastSource.text }
        /// The `HKTimeZone` metadata of the last line read that had it.
        var timeZoneText: String { lastZone.text }
        private var lastDate = SummaryCache.Day()

        /// A reader with nothing remembered yet.
        init() {}

        /// The fields of a stored add line, or `nil` when it is not shaped as stored lines are;
        /// with `timeZone`, also its `HKTimeZone` metadata (a string value only: metadata values
        /// are never objects, so the first `"HKTimeZone"` after the source followed by a colon
        /// is that key; JSON whitespace may surround the colon, as metadata is stored as given).
        /// `uuidAt` is where the line's UUID text starts (`StoredLinePrefix.uuidOffset`), when
        /// the caller has found it.
        mutating func fields(_ line: UnsafeRawBufferPointer, timeZone: Bool = false, uuidAt: Int? = nil) -> Fields? {
            // The fixed prefix up to the UUID holds no `,"start":"`, so the search may start at
            // the UUID.
            let from = uuidAt ?? StoredLinePrefix.uuidOffset(line, isDelete: false) ?? 0
            guard let s = Self.find(#","start":""#, in: line, from: from), let startTime = timestamp(line, s - 1),
                let e = Self.at(#","end":""#, in: line, s - 1 + startTime.length)
            else { return nil }
            let endTime: (microseconds: Int64, offsetMinutes: Int16, length: Int)
            if e + startTime.length - 1 <= line.count, SummaryCache.equal(line.baseAddress! + s - 1, line.baseAddress! + e - 1, startTime.length) {
                endTime = startTime
            } else {
                guard let parsed = timestamp(line, e - 1) else { return nil }
                endTime = parsed
            }
            var cursor = e - 1 + endTime.length
            var value: Double?
            if let v = Self.at(#","value":"#, in: line, cursor), v < line.count {
                if line[v] == 34 {
                    cursor = v + Self.tokenLength(line, v)
                } else {
                    guard let number = SummaryCache.number(line, v) else { return nil }
                    value = number.value
                    cursor = number.end
                }
            }
            var unit = 0
            if let u = Self.at(#","unit":""#, in: line, cursor) {
                guard let text = lastUnit.string(line, u - 1) else { return nil }
                unit = text.serial
                cursor = u - 1 + text.length
            }
            var source = 0
            if let u = Self.at(#","source":""#, in: line, cursor) {
                guard let text = lastSource.string(line, u - 1) else { return nil }
                source = text.serial
                cursor = u - 1 + text.length
            }
            var fields = Fields(
                start: startTime.microseconds, end: endTime.microseconds, value: value, unit: unit, source: source, startOffset: startTime.offsetMinutes)
            if timeZone, let z = Self.zoneValue(line, from: cursor) {
                var close = z
                while close < line.count, line[close] != 34, line[close] != 92 { close += 1 }
                if close < line.count, line[close] == 34 { fields.timeZone = lastZone.raw(UnsafeRawBufferPointer(rebasing: line[z..<close])) }
            }
            return fields
        }

        /// Where the string value of the first `"HKTimeZone"` key at or after `from` starts (just
        /// past its opening quote), JSON whitespace allowed around the colon.
        private static func zoneValue(_ line: UnsafeRawBufferPointer, from: Int) -> Int? {
            var at = from
            while let key = find(#""HKTimeZone""#, in: line, from: at) {
                var i = key
                while i < line.count, isSpace(line[i]) { i += 1 }
                if i < line.count, line[i] == 58 {
                    i += 1
                    while i < line.count, isSpace(line[i]) { i += 1 }
                    if i < line.count, line[i] == 34 { return i + 1 }
                }
                at = key
            }
            return nil
        }

        /// Whether `byte` is JSON whitespace.
        @inline(__always)
        private static func isSpace(_ byte: UInt8) -> Bool {
            byte == 32 || byte == 9 || byte == 10 || byte == 13
        }

        /// The length of the string token that starts with the quote at `quote`, quotes
        /// included (past the end of the line when it is not closed).
        static func tokenLength(_ line: UnsafeRawBufferPointer, _ quote: Int) -> Int {
            var close = quote + 1
            while close < line.count, line[close] != 34 {
                if line[close] == 92 { close += 1 }
                close += 1
            }
            return close + 1 - quote
        }

        /// The index just past `key` when the line holds it at `position`.
        @inline(__always)
        private static func at(_ key: StaticString, in line: UnsafeRawBufferPointer, _ position: Int) -> Int? {
            let n = key.utf8CodeUnitCount
            guard position >= 0, position + n <= line.count, SummaryCache.equal(line.baseAddress! + position, key.utf8Start, n) else { return nil }
            return position + n
        }

        /// The timestamp in the quoted token that starts at `quote`, and the token's length
        /// with its quotes: a UTC instant (`…Z`) through the remembered date when it is that
        /// day's, anything else through ``Timestamp/init(utf8:)``.
        private mutating func timestamp(_ line: UnsafeRawBufferPointer, _ quote: Int) -> (microseconds: Int64, offsetMinutes: Int16, length: Int)? {
            if let known = lastDate.instant(line.baseAddress! + quote + 1, available: line.count - quote - 1) { return (known.microseconds, 0, known.length + 2) }
            var close = quote + 1
            while close < line.count, line[close] != 34 { close += 1 }
            guard close < line.count else { return nil }
            guard let parsed = Timestamp(utf8: UnsafeRawBufferPointer(rebasing: line[(quote + 1)..<close])) else { return nil }
            if parsed.isZulu { lastDate.remember(line.baseAddress! + quote + 1, instant: parsed.microseconds) }
            return (parsed.microseconds, parsed.offsetMinutes, close + 1 - quote)
        }

        /// The index just past the first `key` at or after `from`.
        private static func find(_ key: StaticString, in line: UnsafeRawBufferPointer, from: Int) -> Int? {
            let n = key.utf8CodeUnitCount
            let first = Int32(key.utf8Start[0])
            var at = from
            while at + n <= line.count, let hit = memchr(line.baseAddress! + at, first, line.count - n + 1 - at) {
                at = UnsafeRawPointer(line.baseAddress!).distance(to: UnsafeRawPointer(hit))
                if SummaryCache.equal(line.baseAddress! + at, key.utf8Start, n) { return at + n }
                at += 1
            }
            return nil
        }
    }
}

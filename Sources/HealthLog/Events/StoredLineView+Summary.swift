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
    struct SummaryReader {
        /// What a line holds.
        struct Fields {
            var start: Int64
            var end: Int64
            var value: Double?
            var unit: String
            var source: String
            /// The UTC offset the start was recorded with, minutes east.
            var startOffset: Int16 = 0
            /// The `HKTimeZone` metadata, when asked for and present.
            var timeZone: String?
        }

        private var lastUnit = CachedString()
        private var lastSource = CachedString()

        /// The last string token read for a field, so lines that repeat it decode it once.
        private struct CachedString {
            var bytes: [UInt8] = []
            var text = ""

            /// The string of the token body `body` (`escaped` when it holds a `\`).
            mutating func text(_ body: UnsafeRawBufferPointer, escaped: Bool, token: UnsafeRawBufferPointer) -> String {
                if !body.elementsEqual(bytes) {
                    bytes = Array(body)
                    text = escaped ? JSONStringDecoder.decode(token) : String(decoding: body, as: UTF8.self)
                }
                return text
            }
        }

        /// The fields of a stored add line, or `nil` when it is not shaped as stored lines are;
        /// with `timeZone`, also its `HKTimeZone` metadata (a string value only: metadata values
        /// are never objects, so the first `"HKTimeZone":"` after the source is that key).
        mutating func fields(_ line: UnsafeRawBufferPointer, timeZone: Bool = false) -> Fields? {
            guard let s = Self.find(#","start":""#, in: line, from: 0), let startTime = Self.timestamp(line, s - 1),
                let e = Self.at(#","end":""#, in: line, s - 1 + Self.tokenLength(line, s - 1)), let end = Self.instant(line, e - 1)
            else { return nil }
            let start = startTime.microseconds
            var cursor = e - 1 + Self.tokenLength(line, e - 1)
            var value: Double?
            if let v = Self.at(#","value":"#, in: line, cursor), v < line.count {
                if line[v] == 34 {
                    cursor = v + Self.tokenLength(line, v)
                } else {
                    var stop: UnsafeMutablePointer<CChar>?
                    let base = UnsafeRawPointer(line.baseAddress! + v).assumingMemoryBound(to: CChar.self)
                    let number = strtod(base, &stop)
                    guard let stop, UnsafeRawPointer(stop) > UnsafeRawPointer(base) else { return nil }
                    value = number
                    cursor = v + UnsafeRawPointer(base).distance(to: UnsafeRawPointer(stop))
                }
            }
            var unit = ""
            if let u = Self.at(#","unit":""#, in: line, cursor) {
                guard let text = Self.string(line, u - 1, &lastUnit) else { return nil }
                unit = text
                cursor = u - 1 + Self.tokenLength(line, u - 1)
            }
            var source = ""
            if let u = Self.at(#","source":""#, in: line, cursor) {
                guard let text = Self.string(line, u - 1, &lastSource) else { return nil }
                source = text
                cursor = u - 1 + Self.tokenLength(line, u - 1)
            }
            var fields = Fields(start: start, end: end, value: value, unit: unit, source: source, startOffset: startTime.offsetMinutes)
            if timeZone, let z = Self.find(#""HKTimeZone":""#, in: line, from: cursor) {
                var close = z
                while close < line.count, line[close] != 34, line[close] != 92 { close += 1 }
                if close < line.count, line[close] == 34 { fields.timeZone = String(decoding: UnsafeRawBufferPointer(rebasing: line[z..<close]), as: UTF8.self) }
            }
            return fields
        }

        /// The string of the token that starts with the quote at `quote`, through `cache`.
        private static func string(_ line: UnsafeRawBufferPointer, _ quote: Int, _ cache: inout CachedString) -> String? {
            let length = tokenLength(line, quote)
            guard quote + length <= line.count, length >= 2 else { return nil }
            let body = UnsafeRawBufferPointer(rebasing: line[(quote + 1)..<(quote + length - 1)])
            return cache.text(body, escaped: body.contains(92), token: UnsafeRawBufferPointer(rebasing: line[quote..<(quote + length)]))
        }

        /// The length of the string token that starts with the quote at `quote`, quotes
        /// included (past the end of the line when it is not closed).
        private static func tokenLength(_ line: UnsafeRawBufferPointer, _ quote: Int) -> Int {
            var close = quote + 1
            while close < line.count, line[close] != 34 {
                if line[close] == 92 { close += 1 }
                close += 1
            }
            return close + 1 - quote
        }

        /// The index just past `key` when the line holds it at `position`.
        private static func at(_ key: StaticString, in line: UnsafeRawBufferPointer, _ position: Int) -> Int? {
            let n = key.utf8CodeUnitCount
            guard position >= 0, position + n <= line.count, memcmp(line.baseAddress! + position, key.utf8Start, n) == 0 else { return nil }
            return position + n
        }

        /// The instant in the quoted token that starts at `quote`.
        private static func instant(_ line: UnsafeRawBufferPointer, _ quote: Int) -> Int64? {
            timestamp(line, quote)?.microseconds
        }

        /// The timestamp in the quoted token that starts at `quote`.
        private static func timestamp(_ line: UnsafeRawBufferPointer, _ quote: Int) -> Timestamp? {
            var close = quote + 1
            while close < line.count, line[close] != 34 { close += 1 }
            guard close < line.count else { return nil }
            return Timestamp(utf8: UnsafeRawBufferPointer(rebasing: line[(quote + 1)..<close]))
        }

        /// The index just past the first `key` at or after `from`.
        private static func find(_ key: StaticString, in line: UnsafeRawBufferPointer, from: Int) -> Int? {
            let n = key.utf8CodeUnitCount
            let first = Int32(key.utf8Start[0])
            var at = from
            while at + n <= line.count, let hit = memchr(line.baseAddress! + at, first, line.count - n + 1 - at) {
                at = UnsafeRawPointer(line.baseAddress!).distance(to: UnsafeRawPointer(hit))
                if memcmp(line.baseAddress! + at, key.utf8Start, n) == 0 { return at + n }
                at += 1
            }
            return nil
        }
    }
}

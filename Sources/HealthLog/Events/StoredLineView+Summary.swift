#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension StoredLineView {
    /// Reads the dates, value and unit of a stored add line without parsing it as a whole:
    /// ``LineEncoder`` writes the fields in one order (`seq`, `op`, `uuid`, `type`, `start`,
    /// `end`, `value`, `unit`, then the free-text fields), so the first `,"start":"` and so on
    /// are the fields themselves. What statistics need, at a fraction of a full view.
    struct SummaryReader {
        /// What a line holds.
        struct Fields {
            var start: Int64
            var end: Int64
            var value: Double?
            var unit: String
            /// The UTC offset the start was recorded with, minutes east.
            var startOffset: Int16 = 0
            /// The `HKTimeZone` metadata, when asked for and present.
            var timeZone: String?
        }

        private var lastUnitBytes: [UInt8] = []
        private var lastUnit = ""

        /// The fields of a stored add line, or `nil` when it is not shaped as stored lines are;
        /// with `timeZone`, also its `HKTimeZone` metadata (a string value only: metadata values
        /// are never objects, so the first `"HKTimeZone":"` after the unit is that key).
        mutating func fields(_ line: UnsafeRawBufferPointer, timeZone: Bool = false) -> Fields? {
            guard let s = Self.find(#","start":""#, in: line, from: 0), let startTime = Self.timestamp(line, s - 1),
                let e = Self.find(#","end":""#, in: line, from: s), let end = Self.instant(line, e - 1)
            else { return nil }
            let start = startTime.microseconds
            var value: Double?
            var after = e
            if let v = Self.find(#","value":"#, in: line, from: e), v < line.count, line[v] != 34 {
                var stop: UnsafeMutablePointer<CChar>?
                let base = UnsafeRawPointer(line.baseAddress! + v).assumingMemoryBound(to: CChar.self)
                let number = strtod(base, &stop)
                if let stop, UnsafeRawPointer(stop) > UnsafeRawPointer(base) {
                    value = number
                    after = v
                }
            }
            var unit = ""
            if let u = Self.find(#","unit":""#, in: line, from: after) {
                var close = u
                var escaped = false
                while close < line.count, line[close] != 34 {
                    if line[close] == 92 {
                        escaped = true
                        close += 1
                    }
                    close += 1
                }
                guard close < line.count else { return nil }
                let bytes = UnsafeRawBufferPointer(rebasing: line[u..<close])
                if !bytes.elementsEqual(lastUnitBytes) {
                    lastUnitBytes = Array(bytes)
                    lastUnit = escaped ? JSONStringDecoder.decode(UnsafeRawBufferPointer(rebasing: line[(u - 1)...close])) : String(decoding: bytes, as: UTF8.self)
                }
                unit = lastUnit
            }
            var fields = Fields(start: start, end: end, value: value, unit: unit, startOffset: startTime.offsetMinutes)
            if timeZone, let z = Self.find(#""HKTimeZone":""#, in: line, from: after) {
                var close = z
                while close < line.count, line[close] != 34, line[close] != 92 { close += 1 }
                if close < line.count, line[close] == 34 { fields.timeZone = String(decoding: UnsafeRawBufferPointer(rebasing: line[z..<close]), as: UTF8.self) }
            }
            return fields
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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What ``StoredLineView/SummaryReader`` remembers from line to line, and its number
/// reader: the pieces that make a run of similar lines cost a few comparisons each.
enum SummaryCache {
    /// The last string token read for a field, so lines that repeat it decode it once, and
    /// the number of its text (from 1, one more each time the text changes).
    struct Text {
        /// The token's body (between its quotes), as stored.
        private var bytes: [UInt8] = []
        /// The text.
        private(set) var text = ""
        /// The text's number.
        private(set) var serial = 1

        /// The number of the token that starts with the quote at `quote` (its text then in
        /// ``text``), and the token's length with its quotes; `nil` when it is not closed. A
        /// token whose body and closing quote are the remembered body's bytes is that text: a
        /// body never ends in an unpaired `\`, so the quote after it closes the token.
        mutating func string(_ line: UnsafeRawBufferPointer, _ quote: Int) -> (serial: Int, length: Int)? {
            let n = bytes.count
            if quote + n + 2 <= line.count, line[quote + n + 1] == 34, holds(line.baseAddress! + quote + 1) {
                return (serial, n + 2)
            }
            let length = StoredLineView.SummaryReader.tokenLength(line, quote)
            guard quote + length <= line.count, length >= 2 else { return nil }
            let body = UnsafeRawBufferPointer(rebasing: line[(quote + 1)..<(quote + length - 1)])
            bytes = Array(body)
            text = body.contains(92) ? JSONStringDecoder.decode(UnsafeRawBufferPointer(rebasing: line[quote..<(quote + length)])) : String(decoding: body, as: UTF8.self)
            serial += 1
            return (serial, length)
        }

        /// Whether the remembered body's bytes are at `start`.
        private func holds(_ start: UnsafeRawPointer) -> Bool {
            bytes.isEmpty || bytes.withUnsafeBytes { equal(start, $0.baseAddress!, $0.count) }
        }

        /// The number of `body` taken as it is (no escapes to decode), its text then in
        /// ``text``.
        mutating func raw(_ body: UnsafeRawBufferPointer) -> Int {
            if body.count == bytes.count, let start = body.baseAddress, holds(start) { return serial }
            bytes = Array(body)
            text = String(decoding: body, as: UTF8.self)
            serial += 1
            return serial
        }
    }

    /// The date part (`YYYY-MM-DD`, 10 bytes) of the last UTC instant read
    /// (`YYYY-MM-DDTHH:MM:SS[.fraction]Z`), and its midnight: an instant of the same day is
    /// that midnight plus its time of day.
    struct Day {
        private var date: (UInt64, UInt16) = (0, 0)
        private var midnight: Int64 = 0
        private var isSet = false

        /// The instant (microseconds) of the text at `text` (`available` bytes before the
        /// line ends), and the length of the text up to its closing quote, when it is
        /// `YYYY-MM-DDTHH:MM:SS[.fraction]Z"` on the remembered date, read by the rules of
        /// ``Timestamp/init(utf8:)``; else `nil`.
        func instant(_ text: UnsafeRawPointer, available: Int) -> (microseconds: Int64, length: Int)? {
            guard isSet, available >= 21, text.loadUnaligned(as: UInt64.self) == date.0, text.loadUnaligned(fromByteOffset: 8, as: UInt16.self) == date.1,
                text.load(fromByteOffset: 10, as: UInt8.self) == 84, text.load(fromByteOffset: 13, as: UInt8.self) == 58,
                text.load(fromByteOffset: 16, as: UInt8.self) == 58
            else { return nil }
            func digit(_ at: Int) -> Int? {
                let value = Int(text.load(fromByteOffset: at, as: UInt8.self)) &- 48
                return value >= 0 && value <= 9 ? value : nil
            }
            guard let h1 = digit(11), let h2 = digit(12), let m1 = digit(14), let m2 = digit(15), let s1 = digit(17), let s2 = digit(18) else { return nil }
            let hour = h1 * 10 + h2
            let minute = m1 * 10 + m2
            let second = s1 * 10 + s2
            guard hour <= 23, minute <= 59, second <= 59 else { return nil }
            var i = 19
            var micros = 0
            if text.load(fromByteOffset: 19, as: UInt8.self) == 46 {
                i = 20
                var scale = 100_000
                var fraction = 0
                while i < available, let d = digit(i) {
                    micros += d * scale
                    scale /= 10
                    fraction += 1
                    i += 1
                    guard fraction <= 9 else { return nil }
                }
                guard fraction > 0 else { return nil }
            }
            guard i + 1 < available, text.load(fromByteOffset: i, as: UInt8.self) == 90, text.load(fromByteOffset: i + 1, as: UInt8.self) == 34 else { return nil }
            return (midnight + Int64(hour * 3600 + minute * 60 + second) * 1_000_000 + Int64(micros), i + 1)
        }

        /// Remembers the date of the UTC text at `text` (at least 10 bytes), which parsed
        /// as `instant` (from 1970 on, where a day's midnight is the instant less its
        /// remainder).
        mutating func remember(_ text: UnsafeRawPointer, instant: Int64) {
            guard instant >= 0 else { return }
            date = (text.loadUnaligned(as: UInt64.self), text.loadUnaligned(fromByteOffset: 8, as: UInt16.self))
            midnight = instant - instant % 86_400_000_000
            isSet = true
        }
    }

    /// Whether the `count` bytes at `a` and at `b` are the same: compared eight at a time
    /// (the last eight overlapping), which for the short keys and tokens of a stored line
    /// is a few loads where `memcmp` is a call.
    @inline(__always)
    static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
        guard count >= 8 else {
            for i in 0..<count where a.load(fromByteOffset: i, as: UInt8.self) != b.load(fromByteOffset: i, as: UInt8.self) { return false }
            return true
        }
        var i = 0
        while i + 8 < count {
            if a.loadUnaligned(fromByteOffset: i, as: UInt64.self) != b.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
            i += 8
        }
        return a.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) == b.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
    }

    /// The JSON number at `at` and the index just past it, or `nil` when none is there. A
    /// plain decimal of at most 15 digits and 22 decimals is its digits divided by a power of
    /// ten (both exact: 10^22 is the last power a `Double` holds, and each product on the way
    /// is exact too; so the one rounding is the correct one, as `strtod`'s); any other
    /// through `strtod`.
    static func number(_ line: UnsafeRawBufferPointer, _ at: Int) -> (value: Double, end: Int)? {
        var i = at
        let n = line.count
        let negative = i < n && line[i] == 45
        if negative { i += 1 }
        var mantissa: Int64 = 0
        var digits = 0
        var decimals = 0
        var sawPoint = false
        while i < n {
            let byte = line[i]
            if byte >= 48, byte <= 57 {
                mantissa = mantissa &* 10 &+ Int64(byte - 48)
                digits += 1
                if sawPoint { decimals += 1 }
            } else if byte == 46, !sawPoint {
                sawPoint = true
            } else {
                break
            }
            i += 1
        }
        let exponent = i < n && (line[i] == 101 || line[i] == 69)
        if !exponent, digits > 0, digits <= 15, decimals <= 22, !sawPoint || decimals > 0 {
            var power = 1.0
            for _ in 0..<decimals { power *= 10 }
            let magnitude = Double(mantissa) / power
            return (negative ? -magnitude : magnitude, i)
        }
        var stop: UnsafeMutablePointer<CChar>?
        let base = UnsafeRawPointer(line.baseAddress! + at).assumingMemoryBound(to: CChar.self)
        let number = strtod(base, &stop)
        guard let stop, UnsafeRawPointer(stop) > UnsafeRawPointer(base) else { return nil }
        return (number, at + UnsafeRawPointer(base).distance(to: UnsafeRawPointer(stop)))
    }
}

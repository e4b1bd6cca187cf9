/// An ISO 8601 instant as an event line holds it: microseconds since 1970 (UTC), plus the UTC
/// offset and spelling it was written with, so it prints back as the same instant with the
/// same offset.
public struct Timestamp: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Microseconds since 1970-01-01T00:00:00Z.
    public var microseconds: Int64
    /// The UTC offset the instant was written with, in minutes east of UTC.
    public var offsetMinutes: Int16
    /// Whether the offset was written as `Z` (rather than `+00:00`).
    public var isZulu: Bool
    /// How many fractional-second digits to print (0, or 1 to 6).
    public var fractionDigits: UInt8

    /// Creates an instant.
    public init(microseconds: Int64, offsetMinutes: Int16 = 0, isZulu: Bool = true, fractionDigits: UInt8 = 3) {
        self.microseconds = microseconds
        self.offsetMinutes = offsetMinutes
        self.isZulu = isZulu && offsetMinutes == 0
        self.fractionDigits = min(fractionDigits, 6)
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM|±HHMM)`; `nil` if malformed or out of range.
    public init?(iso8601 text: String) {
        var text = text
        guard let parsed = text.withUTF8({ Timestamp(utf8: UnsafeRawBufferPointer($0)) }) else { return nil }
        self = parsed
    }

    /// The last date an instant was read on, for ``init(utf8:day:)``: the bytes of its
    /// `YYYY-MM-DD` and its day count since 1970.
    struct Day {
        /// Whether a date was read.
        var isSet = false
        /// The date's first eight bytes and its last two.
        var text: (UInt64, UInt16) = (0, 0)
        /// Its day count since 1970-01-01.
        var days = 0
    }

    /// Parses the ISO 8601 instant in `bytes`.
    init?(utf8 b: UnsafeRawBufferPointer) {
        var day = Day()
        self.init(utf8: b, day: &day)
    }

    /// Parses the ISO 8601 instant in `bytes`; a date the same as `last`'s bytes is not
    /// read and checked again (the instants of a query's lines mostly fall on the day of the
    /// line before), and a new one becomes `last`.
    init?(utf8 b: UnsafeRawBufferPointer, day last: inout Day) {
        let n = b.count
        guard n >= 20 else { return nil }
        @inline(__always)
        func digits(_ at: Int, _ count: Int) -> Int? {
            var v = 0
            for i in at..<at + count {
                let d = Int(b[i]) &- 48
                guard d >= 0, d <= 9 else { return nil }
                v = v * 10 + d
            }
            return v
        }
        let text = (b.loadUnaligned(fromByteOffset: 0, as: UInt64.self), b.loadUnaligned(fromByteOffset: 8, as: UInt16.self))
        let days: Int
        if last.isSet, last.text == text {
            days = last.days
        } else {
            guard let year = digits(0, 4), b[4] == 45, let month = digits(5, 2), b[7] == 45, let day = digits(8, 2),
                (1...12).contains(month), day >= 1, day <= Timestamp.daysIn(month: month, year: year)
            else { return nil }
            days = Timestamp.daysFromCivil(year: year, month: month, day: day)
            last = Day(isSet: true, text: text, days: days)
        }
        guard b[10] == 84, let hour = digits(11, 2), b[13] == 58, let minute = digits(14, 2), b[16] == 58,
            let second = digits(17, 2), hour <= 23, minute <= 59, second <= 59
        else { return nil }
        var i = 19
        var micros = 0
        var fraction: UInt8 = 0
        if b[i] == 46 {
            i += 1
            var scale = 100_000
            while i < n, b[i] >= 48, b[i] <= 57 {
                micros += Int(b[i] - 48) * scale
                scale /= 10
                fraction += 1
                i += 1
                guard fraction <= 9 else { return nil }
            }
            guard fraction > 0 else { return nil }
        }
        guard i < n else { return nil }
        var offset = 0
        var zulu = false
        switch b[i] {
        case 90:
            zulu = true
            i += 1
        case 43, 45:
            let sign = b[i] == 45 ? -1 : 1
            let rest = n - i - 1
            guard rest == 5 || rest == 4, let oh = digits(i + 1, 2) else { return nil }
            let mAt = rest == 5 ? i + 4 : i + 3
            guard rest == 4 || b[i + 3] == 58, let om = digits(mAt, 2), oh <= 23, om <= 59 else { return nil }
            offset = sign * (oh * 60 + om)
            i = n
        default: return nil
        }
        guard i == n else { return nil }
        let localSeconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        self.microseconds = (localSeconds - Int64(offset * 60)) * 1_000_000 + Int64(micros)
        self.offsetMinutes = Int16(offset)
        self.isZulu = zulu
        self.fractionDigits = min(fraction, 6)
    }

    /// Days in `month` of `year` (Gregorian).
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (era-based, exact for all years).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The Gregorian date of a day count since 1970-01-01 (inverse of ``daysFromCivil(year:month:day:)``).
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Appends the ISO 8601 text (local time at the kept offset) to `out`.
    func render(into out: inout [UInt8]) {
        let local = microseconds + Int64(offsetMinutes) * 60_000_000
        var seconds = local / 1_000_000
        var micros = local % 1_000_000
        if micros < 0 {
            micros += 1_000_000
            seconds -= 1
        }
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let date = Timestamp.civil(fromDays: Int(days))
        // Written into a buffer on the stack and appended once (the longest text,
        // `YYYY-MM-DDTHH:MM:SS.ffffff+HH:MM`, is 32 bytes): a delete's stored line renders
        // two instants, and an array per field cost thousands of instructions each.
        var text: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        let count = withUnsafeMutableBytes(of: &text) { raw in
            var at = 0
            func byte(_ value: UInt8) {
                raw[at] = value
                at += 1
            }
            func put(_ value: Int, _ width: Int) {
                var v = value
                for k in stride(from: width - 1, through: 0, by: -1) {
                    raw[at + k] = UInt8(48 + v % 10)
                    v /= 10
                }
                at += width
            }
            put(date.year, 4)
            byte(45)
            put(date.month, 2)
            byte(45)
            put(date.day, 2)
            byte(84)
            put(Int(secondOfDay / 3600), 2)
            byte(58)
            put(Int(secondOfDay % 3600 / 60), 2)
            byte(58)
            put(Int(secondOfDay % 60), 2)
            if fractionDigits > 0 {
                byte(46)
                var scaled = Int(micros)
                for _ in 0..<(6 - Int(fractionDigits)) { scaled /= 10 }
                put(scaled, Int(fractionDigits))
            }
            if isZulu {
                byte(90)
            } else {
                let total = Int(offsetMinutes)
                byte(total < 0 ? 45 : 43)
                put(abs(total) / 60, 2)
                byte(58)
                put(abs(total) % 60, 2)
            }
            return at
        }
        withUnsafeBytes(of: &text) { raw in
            out.append(contentsOf: UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count))
        }
    }

    /// The ISO 8601 text.
    public var description: String {
        var out: [UInt8] = []
        render(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Orders by instant only.
    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.microseconds < b.microseconds }
}

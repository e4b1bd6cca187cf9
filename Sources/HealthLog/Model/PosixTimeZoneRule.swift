/// A POSIX TZ rule as a TZif footer holds it (RFC 8536 §3.3, POSIX.1 `TZ`):
/// `CET-1CEST,M3.5.0,M10.5.0/3` is UTC+1, and UTC+2 from the last Sunday of March at 02:00
/// to the last Sunday of October at 03:00 local time. Offsets in the text count west of UTC;
/// the values here count east, as everywhere else in healthlog.
struct PosixTimeZoneRule: Hashable, Sendable {
    /// A day of the year a change happens on.
    enum Day: Hashable, Sendable {
        /// `Jn`: day 1...365, February 29 never counted.
        case julian(Int)
        /// `n`: day 0...365, February 29 counted in leap years.
        case zeroBased(Int)
        /// `Mm.w.d`: weekday `d` (0 Sunday) of week `w` (5: the last) of month `m`.
        case month(Int, week: Int, weekday: Int)
    }

    /// A change of offset: its day and its local time in seconds (may be negative or past 24 h).
    struct Change: Hashable, Sendable {
        var day: Day
        var time: Int
    }

    /// Standard time's offset, seconds east of UTC.
    let standard: Int
    /// Daylight time's offset, when the zone has one.
    let daylight: Int?
    /// When daylight time starts (in standard time's wall clock).
    let start: Change
    /// When daylight time ends (in daylight time's wall clock).
    let end: Change

    /// Parses `text`; `nil` when it is not a TZ rule this type understands.
    init?(_ text: String) {
        var scanner = Scanner(Array(text.utf8))
        guard scanner.skipName(), let std = scanner.offset() else { return nil }
        standard = -std
        if scanner.atEnd {
            daylight = nil
            start = Change(day: .zeroBased(0), time: 0)
            end = start
            return
        }
        guard scanner.skipName() else { return nil }
        if let dst = scanner.offset() { daylight = -dst } else { daylight = -std + 3600 }
        if scanner.atEnd {
            start = Change(day: .month(3, week: 2, weekday: 0), time: 7200)
            end = Change(day: .month(11, week: 1, weekday: 0), time: 7200)
            return
        }
        guard scanner.take(44), let s = scanner.change(), scanner.take(44), let e = scanner.change(), scanner.atEnd else { return nil }
        start = s
        end = e
    }

    /// The offset in seconds east of UTC at `seconds` since 1970 UTC.
    func offsetSeconds(at seconds: Int64) -> Int {
        guard let daylight else { return standard }
        let year = Timestamp.civil(fromDays: Int(Self.floorDiv(seconds + Int64(standard), 86_400))).year
        let begins = Int64(Self.days(start.day, year)) * 86_400 + Int64(start.time - standard)
        let ends = Int64(Self.days(end.day, year)) * 86_400 + Int64(end.time - daylight)
        let isDaylight = begins < ends ? (seconds >= begins && seconds < ends) : !(seconds >= ends && seconds < begins)
        return isDaylight ? daylight : standard
    }

    /// Days since 1970 of `day` in `year`.
    private static func days(_ day: Day, _ year: Int) -> Int {
        let january1 = Timestamp.daysFromCivil(year: year, month: 1, day: 1)
        switch day {
        case .julian(let n):
            let isLeap = Timestamp.daysIn(month: 2, year: year) == 29
            return january1 + n - 1 + (isLeap && n >= 60 ? 1 : 0)
        case .zeroBased(let n):
            return january1 + n
        case .month(let m, let week, let weekday):
            let first = Timestamp.daysFromCivil(year: year, month: m, day: 1)
            let firstWeekday = ((first + 4) % 7 + 7) % 7
            var day = first + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
            let last = first + Timestamp.daysIn(month: m, year: year) - 1
            while day > last { day -= 7 }
            return day
        }
    }

    /// `a / b` rounded toward negative infinity.
    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    /// Reads the parts of a TZ string.
    private struct Scanner {
        /// The rule's bytes.
        let b: [UInt8]
        /// The next byte to read.
        var i = 0

        /// A scanner at the start of `bytes`.
        init(_ bytes: [UInt8]) { b = bytes }

        /// Whether every byte was read.
        var atEnd: Bool { i == b.count }

        /// Consumes `byte` if it is next.
        mutating func take(_ byte: UInt8) -> Bool {
            guard i < b.count, b[i] == byte else { return false }
            i += 1
            return true
        }

        /// Skips a zone abbreviation: three or more letters, or `<…>`.
        mutating func skipName() -> Bool {
            if take(60) {
                while i < b.count, b[i] != 62 { i += 1 }
                return take(62)
            }
            let from = i
            while i < b.count, (b[i] >= 65 && b[i] <= 90) || (b[i] >= 97 && b[i] <= 122) { i += 1 }
            return i - from >= 3
        }

        /// A number of up to three digits.
        mutating func number() -> Int? {
            let from = i
            var v = 0
            while i < b.count, b[i] >= 48, b[i] <= 57, i - from < 3 {
                v = v * 10 + Int(b[i] - 48)
                i += 1
            }
            return i > from ? v : nil
        }

        /// `[+-]hh[:mm[:ss]]` in seconds; `nil` (consuming nothing) when no offset is next.
        mutating func offset() -> Int? {
            let from = i
            let sign = take(45) ? -1 : (take(43) ? 1 : 1)
            guard let h = number() else {
                i = from
                return nil
            }
            var total = h * 3600
            if take(58), let m = number() {
                total += m * 60
                if take(58), let s = number() { total += s }
            }
            return sign * total
        }

        /// A change: `Jn`, `n` or `Mm.w.d`, then optionally `/time`.
        mutating func change() -> Change? {
            let day: Day
            if take(74), let n = number(), (1...365).contains(n) {
                day = .julian(n)
            } else if take(77), let m = number(), (1...12).contains(m), take(46), let w = number(), (1...5).contains(w), take(46),
                let d = number(), d <= 6
            {
                day = .month(m, week: w, weekday: d)
            } else if let n = number(), n <= 365 {
                day = .zeroBased(n)
            } else {
                return nil
            }
            var time = 7200
            if take(47) {
                guard let t = offset() else { return nil }
                time = t
            }
            return Change(day: day, time: time)
        }
    }
}

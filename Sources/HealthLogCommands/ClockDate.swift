import HealthLog

/// A date as a command takes it, on the clock its options name: an ISO 8601 instant is
/// that instant; a bare `YYYY-MM-DD` is the first instant of that day on the clock (UTC,
/// or the `--utc-offset`, or the `--time-zone`'s own midnight, daylight saving included).
enum ClockDate {
    /// `text` read on `clock`; `nil` when it is not a date.
    static func parse(_ text: String, on clock: StatisticsTimeZone) -> Timestamp? {
        guard let date = Timestamp(commandLine: text) else { return nil }
        guard Timestamp(iso8601: text) == nil else { return date }
        let localSeconds = date.microseconds / 1_000_000
        let instant: Int64
        switch clock {
        case .fixed(let minutes): instant = localSeconds - Int64(minutes) * 60
        case .named(let rules): instant = rules.firstInstant(atLocal: localSeconds)
        case .recorded: instant = localSeconds
        }
        return Timestamp(microseconds: instant * 1_000_000, fractionDigits: 0)
    }

    /// The predicates of the range `--start startText` to `--end endText` on `clock`: an
    /// instant is that instant; a bare date is its midnight on `clock`, or with
    /// ``StatisticsTimeZone/recorded`` on each sample's own local clock. `margin` (µs)
    /// widens the range on each side. Empty when neither is given; the texts are dates.
    static func range(
        start startText: String?, end endText: String?, on clock: StatisticsTimeZone, options: DateOptions = [], widenedBy margin: Int64 = 0
    ) -> [QueryPredicate] {
        var start = startText.flatMap { Timestamp(commandLine: $0) }
        var end = endText.flatMap { Timestamp(commandLine: $0) }
        var parts: [QueryPredicate] = []
        let isDate = { (text: String?) in text.map { Timestamp(iso8601: $0) == nil } ?? false }
        if clock == .recorded {
            let localStart = isDate(startText) ? start : nil
            let localEnd = isDate(endText) ? end : nil
            if localStart != nil || localEnd != nil {
                parts.append(.samples(withLocalStart: moved(localStart, -margin), end: moved(localEnd, margin), options: options))
                if localStart != nil { start = nil }
                if localEnd != nil { end = nil }
            }
        } else {
            start = startText.flatMap { parse($0, on: clock) } ?? start
            end = endText.flatMap { parse($0, on: clock) } ?? end
        }
        if start != nil || end != nil {
            parts.append(.samples(withStart: moved(start, -margin), end: moved(end, margin), options: options))
        }
        return parts
    }

    /// `time` moved by `micros`, written as it was.
    private static func moved(_ time: Timestamp?, _ micros: Int64) -> Timestamp? {
        time.map { Timestamp(microseconds: $0.microseconds + micros, offsetMinutes: $0.offsetMinutes, isZulu: $0.isZulu, fractionDigits: $0.fractionDigits) }
    }
}

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
}

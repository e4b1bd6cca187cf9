extension Timestamp {
    /// Parses a date as the command line takes it: an ISO 8601 instant, or a
    /// calendar date `YYYY-MM-DD` meaning its midnight UTC; `nil` if malformed.
    package init?(commandLine text: String) {
        if let instant = Timestamp(iso8601: text) {
            self = instant
            return
        }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), day >= 1, day <= Timestamp.daysIn(month: month, year: year)
        else { return nil }
        let days = Timestamp.daysFromCivil(year: year, month: month, day: day)
        self.init(microseconds: Int64(days) * 86_400_000_000, offsetMinutes: 0, isZulu: true, fractionDigits: 0)
    }

    /// The current time, in UTC with milliseconds.
    public static func now() -> Timestamp {
        Timestamp(microseconds: Clock.nowMillis() * 1000, offsetMinutes: 0, isZulu: true, fractionDigits: 3)
    }
}

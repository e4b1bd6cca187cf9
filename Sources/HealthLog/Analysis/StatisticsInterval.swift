/// The length of the intervals a ``StatisticsQuery`` groups samples into (HealthKit's
/// `intervalComponents`). Intervals are calendar intervals at the query's UTC offset:
/// hours, days, ISO weeks (Monday to Monday) and calendar months.
public enum StatisticsInterval: String, Sendable, Hashable, CaseIterable {
    /// One hour.
    case hour
    /// One day.
    case day
    /// One week, starting on Monday.
    case week
    /// One calendar month.
    case month

    private static let microsPerMinute: Int64 = 60_000_000
    private static let microsPerDay: Int64 = 86_400_000_000

    /// The start of the interval holding `micros` (µs since 1970, UTC) for clocks at
    /// `offsetMinutes` east of UTC, and the start of the next, both in µs since 1970 UTC.
    func bounds(of micros: Int64, offsetMinutes: Int) -> (start: Int64, end: Int64) {
        let shift = Int64(offsetMinutes) * Self.microsPerMinute
        let local = micros + shift
        switch self {
        case .hour:
            let hour: Int64 = 3_600_000_000
            let start = floorDiv(local, hour) * hour
            return (start - shift, start + hour - shift)
        case .day:
            let start = floorDiv(local, Self.microsPerDay) * Self.microsPerDay
            return (start - shift, start + Self.microsPerDay - shift)
        case .week:
            let day = floorDiv(local, Self.microsPerDay)
            let monday = day - (((day + 3) % 7) + 7) % 7
            let start = monday * Self.microsPerDay
            return (start - shift, start + 7 * Self.microsPerDay - shift)
        case .month:
            let day = Int(floorDiv(local, Self.microsPerDay))
            let (year, month, _) = Timestamp.civil(fromDays: day)
            let first = Int64(Timestamp.daysFromCivil(year: year, month: month, day: 1))
            let next = Int64(month == 12 ? Timestamp.daysFromCivil(year: year + 1, month: 1, day: 1) : Timestamp.daysFromCivil(year: year, month: month + 1, day: 1))
            return (first * Self.microsPerDay - shift, next * Self.microsPerDay - shift)
        }
    }

    /// The interval's label: `2024-03-01T08:00` (hour), `2024-03-01` (day and week: the
    /// first day), `2024-03` (month), in local time at `offsetMinutes`.
    func label(of start: Int64, offsetMinutes: Int) -> String {
        let local = start + Int64(offsetMinutes) * Self.microsPerMinute
        let (year, month, day) = Timestamp.civil(fromDays: Int(floorDiv(local, Self.microsPerDay)))
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let date = "\(year)-\(two(month))"
        switch self {
        case .month: return date
        case .day, .week: return date + "-" + two(day)
        case .hour:
            let hour = Int(floorDiv(local, 3_600_000_000) - floorDiv(local, Self.microsPerDay) * 24)
            return date + "-" + two(day) + "T" + two(hour) + ":00"
        }
    }

    private func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}

/// The intervals of a ``StatisticsQuery``: where each starts and ends, its label, and
/// every interval of a range, the empty ones too.
extension StatisticsQuery {
    /// Local midnight of Monday 1 January 2001, as µs since 1970 of wall-clock time: where
    /// intervals are laid from without an ``anchorDate``.
    private static let defaultAnchor: Int64 = 978_307_200_000_000

    /// The anchored intervals, when ``anchorDate`` or ``intervalComponents`` is set;
    /// `nil` for the calendar intervals of ``interval``.
    var schedule: IntervalSchedule? {
        guard anchorDate != nil || intervalComponents != nil else { return nil }
        var anchor = Self.defaultAnchor
        if let anchorDate {
            anchor = anchorDate.microseconds + Int64(clock.offsetMinutes(at: anchorDate.microseconds)) * 60_000_000
        }
        return IntervalSchedule(anchorLocal: anchor, components: intervalComponents ?? IntervalComponents(interval))
    }

    /// The query's clock: with ``StatisticsTimeZone/recorded``, UTC (wall-clock times as their
    /// UTC fields).
    var clock: LocalClock {
        switch timeZone {
        case .fixed(let minutes): .fixed(offsetMinutes: minutes)
        case .named(let rules): .zone(rules)
        case .recorded: .fixed(offsetMinutes: 0)
        }
    }

    /// The interval holding `instant` (µs since 1970 UTC) on `clock`.
    func interval(of instant: Int64, on clock: LocalClock) -> LocalInterval {
        if let schedule { return schedule.interval(of: instant, on: clock) }
        switch clock {
        case .fixed(let minutes): return interval.interval(of: instant, offsetMinutes: minutes)
        case .zone(let rules): return interval.interval(of: instant, in: rules)
        }
    }

    /// The label of interval `i`: its local start as ``StatisticsInterval`` labels it, or for
    /// anchored intervals `2024-03-01T06:00` (`2024-03-01` when intervals are whole days or
    /// months from a midnight); hours in a named zone add the offset.
    func label(of i: LocalInterval) -> String {
        var label: String
        if let schedule {
            let day: Int64 = 86_400_000_000
            let days = i.localStart >= 0 ? i.localStart / day : (i.localStart - day + 1) / day
            let (year, month, date) = Timestamp.civil(fromDays: Int(days))
            func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
            label = "\(year)-\(two(month))-\(two(date))"
            let isWholeDays = schedule.components.seconds == 0 && schedule.anchorLocal % day == 0
            if !isWholeDays {
                let seconds = Int((i.localStart - days * day) / 1_000_000)
                label += "T" + two(seconds / 3_600) + ":" + two(seconds / 60 % 60)
                // Intervals that do not start on whole minutes need their seconds to stay apart.
                let isWholeMinutes = schedule.components.seconds % 60 == 0 && schedule.anchorLocal % 60_000_000 == 0
                if !isWholeMinutes { label += ":" + two(seconds % 60) }
            }
        } else {
            label = interval.label(of: i.localStart, offsetMinutes: 0)
        }
        if case .named = timeZone, schedule.map({ $0.components.seconds > 0 }) ?? (interval == .hour) {
            label += Timestamp(microseconds: 0, offsetMinutes: Int16(i.startOffset), isZulu: false).offsetText
        }
        return label
    }

    /// Every interval that overlaps `[start, end)`, in order, as HealthKit's
    /// `enumerateStatistics(from:to:)` visits them: the rows of `statistics` (this query's
    /// results) for an interval that has any, else one row with a count of 0 and no
    /// figures. With ``StatisticsTimeZone/recorded``, `start` and `end` are wall-clock
    /// times given as their UTC fields.
    public func everyInterval(of statistics: [Statistics], from start: Timestamp, to end: Timestamp) -> [Statistics] {
        let rows = Dictionary(grouping: statistics, by: \.label)
        let unit = statistics.first?.unit ?? (type.kind == .quantity ? (self.unit ?? QuantityTypeInfo.of(type.identifier)?.unit)?.text ?? "" : "")
        let clock = self.clock
        var out: [Statistics] = []
        var instant = start.microseconds
        while instant < end.microseconds {
            let i = interval(of: instant, on: clock)
            let label = label(of: i)
            out += rows[label] ?? [
                Statistics(
                    start: Timestamp(microseconds: i.start, offsetMinutes: Int16(i.startOffset), isZulu: i.startOffset == 0, fractionDigits: 0),
                    end: Timestamp(microseconds: i.end, offsetMinutes: Int16(i.endOffset), isZulu: i.endOffset == 0, fractionDigits: 0), label: label,
                    unit: unit, count: 0)
            ]
            instant = i.end
        }
        return out
    }
}

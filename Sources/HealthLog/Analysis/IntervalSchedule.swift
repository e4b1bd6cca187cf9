/// Where a ``StatisticsQuery``'s intervals start when they are laid from an anchor
/// (``StatisticsQuery/anchorDate`` and ``StatisticsQuery/intervalComponents``): interval
/// `k` starts at the anchor's wall-clock time plus `k` times the months (the day clamped
/// to the month's length) and days, read on the clock, plus `k` times the seconds
/// elapsed; `k` runs both ways from 0.
struct IntervalSchedule: Hashable, Sendable {
    /// The anchor's wall-clock time, µs since 1970 of local time.
    let anchorLocal: Int64
    /// One interval's length.
    let components: IntervalComponents

    private static let microsPerDay: Int64 = 86_400_000_000

    /// The wall-clock time of interval `k`'s months and days, µs since 1970 of local time.
    private func wallClock(_ k: Int) -> Int64 {
        var local = anchorLocal
        if components.months != 0 {
            let days = Int(floorDiv(local, Self.microsPerDay))
            let timeOfDay = local - Int64(days) * Self.microsPerDay
            let (year, month, day) = Timestamp.civil(fromDays: days)
            let months = year * 12 + (month - 1) + k * components.months
            let y = Int(floorDiv(Int64(months), 12))
            let m = months - y * 12 + 1
            let length = Timestamp.daysFromCivil(year: m == 12 ? y + 1 : y, month: m == 12 ? 1 : m + 1, day: 1) - Timestamp.daysFromCivil(year: y, month: m, day: 1)
            local = Int64(Timestamp.daysFromCivil(year: y, month: m, day: min(day, length))) * Self.microsPerDay + timeOfDay
        }
        return local + Int64(k) * Int64(components.days) * Self.microsPerDay
    }

    /// The first instant of interval `k` on `clock`, µs since 1970 UTC.
    private func start(_ k: Int, on clock: LocalClock) -> Int64 {
        Self.instant(atLocal: wallClock(k), on: clock) + Int64(k) * components.seconds * 1_000_000
    }

    /// The instant of the wall-clock time `local` on `clock`: the earlier of two when clocks
    /// were set back over it, and when they were set forward over it, the time read with
    /// the offset before the change (02:30 on the night summer time starts is 03:30), as
    /// `Calendar` adds days.
    private static func instant(atLocal local: Int64, on clock: LocalClock) -> Int64 {
        let first = clock.firstInstant(atLocal: local)
        if first + Int64(clock.offsetMinutes(at: first)) * 60_000_000 == local { return first }
        return local - Int64(clock.offsetMinutes(at: first - 1)) * 60_000_000
    }

    /// The interval holding `instant` (µs since 1970 UTC) on `clock`.
    func interval(of instant: Int64, on clock: LocalClock) -> LocalInterval {
        let first = start(0, on: clock)
        var k = Int(floorDiv(instant - first, components.typicalMicros))
        while start(k, on: clock) > instant { k -= 1 }
        while start(k + 1, on: clock) <= instant { k += 1 }
        return interval(k, on: clock)
    }

    /// Interval `k` on `clock`.
    func interval(_ k: Int, on clock: LocalClock) -> LocalInterval {
        let first = start(k, on: clock)
        let next = start(k + 1, on: clock)
        let offset = clock.offsetMinutes(at: first)
        return LocalInterval(
            key: first, start: first, end: next, startOffset: offset, endOffset: clock.offsetMinutes(at: next),
            localStart: first + Int64(offset) * 60_000_000)
    }

    /// The intervals on `clock` that overlap `[from, to)` (µs since 1970 UTC), in order.
    func intervals(from: Int64, to: Int64, on clock: LocalClock) -> [LocalInterval] {
        guard from < to else { return [] }
        var out = [interval(of: from, on: clock)]
        while let last = out.last, last.end < to { out.append(interval(of: last.end, on: clock)) }
        return out
    }

    /// `a / b` rounded toward negative infinity.
    private func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}

/// Whose clock a ``StatisticsQuery``'s intervals follow: where a day starts and ends.
///
/// HealthKit's collection queries partition time through a `Calendar`, so a day is a local
/// calendar day, 23 or 25 hours long across a daylight-saving change, and the Health app
/// shows each sample in the local time where it was recorded.
public enum StatisticsTimeZone: Sendable, Hashable {
    /// One fixed offset, in minutes east of UTC, for every interval (`--utc-offset`; 0 is UTC).
    case fixed(offsetMinutes: Int)
    /// An IANA zone (`--time-zone Europe/Berlin`): each interval follows its local calendar,
    /// daylight saving included.
    case named(TimeZoneRules)
    /// Each sample's own local time (`--local`, ``LocalClock``): the zone its `HKTimeZone`
    /// metadata names when the tz database knows it, else the UTC offset its start was recorded with. Rows
    /// are local calendar intervals (a day is `2024-03-01` wherever it was lived), so samples
    /// recorded in two zones on the same local day count in one row.
    case recorded

    /// The metadata key Apple's exports name a sample's time zone with.
    public static let metadataKey = LocalClock.metadataKey
}

/// One sample's interval under a ``StatisticsTimeZone``.
struct LocalInterval {
    /// What rows are keyed by: the start instant, or (``StatisticsTimeZone/recorded``) the
    /// local wall-clock start in µs since 1970.
    var key: Int64
    /// The interval's first instant, µs since 1970 UTC.
    var start: Int64
    /// The next interval's first instant, µs since 1970 UTC.
    var end: Int64
    /// The UTC offset at `start`, in minutes east.
    var startOffset: Int
    /// The UTC offset at `end`, in minutes east.
    var endOffset: Int
    /// The local wall-clock start, µs since 1970, which the label names.
    var localStart: Int64
}

extension StatisticsInterval {
    /// Microseconds per second.
    private static let micros: Int64 = 1_000_000

    /// The interval holding `instant` (µs since 1970 UTC) on the clock of `zone`.
    func interval(of instant: Int64, in zone: TimeZoneRules) -> LocalInterval {
        let offset = zone.offsetSeconds(at: Self.floorDiv(instant, Self.micros))
        let local = instant + Int64(offset) * Self.micros
        let wall = bounds(of: local, offsetMinutes: 0)
        if self == .hour {
            let start = instant - (local - wall.start)
            return LocalInterval(key: start, start: start, end: start + 3_600 * Self.micros, startOffset: offset / 60, endOffset: offset / 60, localStart: wall.start)
        }
        let start = zone.firstInstant(atLocal: wall.start / Self.micros)
        let end = zone.firstInstant(atLocal: wall.end / Self.micros)
        return LocalInterval(
            key: start * Self.micros, start: start * Self.micros, end: end * Self.micros, startOffset: zone.offsetSeconds(at: start) / 60,
            endOffset: zone.offsetSeconds(at: end) / 60, localStart: wall.start)
    }

    /// The interval holding `instant` at the fixed offset `offsetMinutes`.
    func interval(of instant: Int64, offsetMinutes: Int) -> LocalInterval {
        let b = bounds(of: instant, offsetMinutes: offsetMinutes)
        let local = b.start + Int64(offsetMinutes) * 60 * Self.micros
        return LocalInterval(key: b.start, start: b.start, end: b.end, startOffset: offsetMinutes, endOffset: offsetMinutes, localStart: local)
    }

    /// `a / b` rounded toward negative infinity.
    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}

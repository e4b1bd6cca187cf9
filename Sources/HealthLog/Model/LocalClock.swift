import Synchronization

/// The clock of a sample's local time: the one rule behind every local time healthlog
/// shows (`localStart` in exports, `aggregate --local`, `plot --local`, nights of sleep).
/// A sample's local time follows the zone its `HKTimeZone` metadata names when the tz
/// database knows it, else the UTC offset its start was recorded with.
///
/// Apple's exports write every date with the offset of the exporting phone's zone at export
/// time, so a workout in Los Angeles in November exported in summer reads `07:25 -0700`;
/// its `HKTimeZone` (`America/Los_Angeles`) puts it at 06:25 PST, where it was lived.
///
/// ```swift
/// let clock = LocalClock(recordedOffsetMinutes: -420, zone: "America/Los_Angeles")
/// clock.offsetMinutes(at: start.microseconds)   // -480 in November
/// ```
public enum LocalClock: Sendable, Hashable {
    /// One fixed offset, in minutes east of UTC.
    case fixed(offsetMinutes: Int)
    /// An IANA zone, daylight saving included.
    case zone(TimeZoneRules)

    /// The metadata key Apple's exports name a sample's time zone with.
    public static let metadataKey = "HKTimeZone"

    /// The zones read so far by name (`nil`: not in the tz database), shared by all threads.
    private static let known = Mutex<[String: TimeZoneRules?]>([:])

    /// The clock of a sample whose start was recorded at `recordedOffsetMinutes` and whose
    /// `HKTimeZone` metadata is `zone` (`nil`: none).
    public init(recordedOffsetMinutes: Int, zone: String?) {
        if let zone, let rules = Self.rules(named: zone) {
            self = .zone(rules)
        } else {
            self = .fixed(offsetMinutes: recordedOffsetMinutes)
        }
    }

    /// The clock of a sample that starts at `start` with `HKTimeZone` metadata `zone`.
    public init(start: Timestamp, zone: String?) {
        self.init(recordedOffsetMinutes: Int(start.offsetMinutes), zone: zone)
    }

    /// The UTC offset in minutes east at `microseconds` since 1970 UTC.
    public func offsetMinutes(at microseconds: Int64) -> Int {
        switch self {
        case .fixed(let minutes): return minutes
        case .zone(let rules):
            let seconds = microseconds >= 0 ? microseconds / 1_000_000 : (microseconds - 999_999) / 1_000_000
            return rules.offsetSeconds(at: seconds) / 60
        }
    }

    /// `time` on this clock: the same instant, written with this clock's offset at it.
    public func local(_ time: Timestamp) -> Timestamp {
        let minutes = offsetMinutes(at: time.microseconds)
        return Timestamp(microseconds: time.microseconds, offsetMinutes: Int16(minutes), isZulu: false, fractionDigits: time.fractionDigits)
    }

    /// The first instant (µs since 1970 UTC) whose local time on this clock is `local` (µs
    /// since 1970 of a wall-clock time) or later (see ``TimeZoneRules/firstInstant(atLocal:)``).
    public func firstInstant(atLocal local: Int64) -> Int64 {
        switch self {
        case .fixed(let minutes): return local - Int64(minutes) * 60_000_000
        case .zone(let rules):
            let seconds = local >= 0 ? local / 1_000_000 : (local - 999_999) / 1_000_000
            return rules.firstInstant(atLocal: seconds) * 1_000_000 + (local - seconds * 1_000_000)
        }
    }

    /// The rules of the zone `name`, read once per process; `nil` when the tz database does
    /// not know it.
    static func rules(named name: String) -> TimeZoneRules? {
        if let cached = known.withLock({ $0[name] }) { return cached }
        let rules = try? TimeZoneRules(named: name)
        known.withLock { $0[name] = .some(rules) }
        return rules
    }
}

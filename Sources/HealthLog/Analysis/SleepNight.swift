/// One night of sleep by stage (what `plot --type SleepAnalysis` draws): the hours of each
/// sleep-analysis value recorded in the night.
///
/// A night runs from noon to noon on the query's clock and is named by the morning it
/// ends (`2024-03-02` for the night of 1 to 2 March); a sample counts in the night holding
/// its start, whole.
public struct SleepNight: Sendable, Hashable {
    /// The stages, in the order they are stacked (deepest first), with `inBed` last, drawn
    /// behind the stack.
    public enum Stage: String, Sendable, CaseIterable {
        /// Deep sleep.
        case deep = "Deep"
        /// Core (light) sleep.
        case core = "Core"
        /// REM sleep.
        case rem = "REM"
        /// Asleep, stage not recorded.
        case asleep = "Asleep"
        /// Awake during the night.
        case awake = "Awake"
        /// In bed.
        case inBed = "In bed"

        /// The stage of a sleep-analysis value: its constant's name or integer.
        init?(_ value: CategoryValue) {
            let code: Int?
            switch value {
            case .integer(let n): code = n
            case .name(let name): code = CategoryConstants.value(of: name)
            }
            switch code {
            case 0: self = .inBed
            case 1: self = .asleep
            case 2: self = .awake
            case 3: self = .core
            case 4: self = .deep
            case 5: self = .rem
            default: return nil
            }
        }
    }

    /// The morning the night ends, `YYYY-MM-DD`.
    public var label: String
    /// The noon the night starts at.
    public var start: Timestamp
    /// The noon it ends at.
    public var end: Timestamp
    /// Seconds per stage.
    public var seconds: [Stage: Double]
    /// How many samples counted.
    public var count: Int
}

/// One night on a ``SampleClock``: noon to noon, named by the morning it ends.
struct NightBounds {
    /// Twelve hours in µs.
    static let halfDay: Int64 = 43_200_000_000
    /// The local wall-clock start of the day the night starts in, µs: what orders nights.
    var key: Int64
    /// The morning the night ends, `YYYY-MM-DD`.
    var label: String
    /// The noon the night starts at.
    var start: Timestamp
    /// The noon it ends at.
    var end: Timestamp
}

extension SampleClock {
    /// The night holding `start` (µs) for a sample recorded at `offsetMinutes` in `zone`: the
    /// local day of its wall-clock time less twelve hours, from that day's noon to the next
    /// day's, so a night runs noon to noon local time across a change of daylight saving.
    func night(of start: Int64, offsetMinutes: Int16, zone: String?) -> NightBounds {
        let halfDay = NightBounds.halfDay
        let clock = localClock(offsetMinutes: offsetMinutes, zone: zone)
        let wall = start + Int64(clock.offsetMinutes(at: start)) * 60_000_000
        let shifted = wall - halfDay
        let day = 2 * halfDay
        let midnight = (shifted >= 0 ? shifted / day : (shifted - day + 1) / day) * day
        let from = clock.firstInstant(atLocal: midnight + halfDay)
        let to = clock.firstInstant(atLocal: midnight + 3 * halfDay)
        return NightBounds(
            key: midnight, label: StatisticsInterval.day.label(of: midnight + day, offsetMinutes: 0),
            start: Timestamp(microseconds: from, offsetMinutes: Int16(clock.offsetMinutes(at: from)), isZulu: false, fractionDigits: 0),
            end: Timestamp(microseconds: to, offsetMinutes: Int16(clock.offsetMinutes(at: to)), isZulu: false, fractionDigits: 0))
    }
}

/// Adds sleep samples up into ``SleepNight``s.
struct SleepNightAccumulator {
    /// Whose clock the nights follow.
    private let clock: SampleClock
    /// The nights so far, by the local start of the day the night starts in.
    private var nights: [Int64: SleepNight] = [:]

    /// No nights yet, on the clock of `timeZone`.
    init(timeZone: StatisticsTimeZone) {
        clock = SampleClock(timeZone)
    }

    /// Counts one sample of `stage` from `start` to `end` (µs), recorded at `offsetMinutes`
    /// in `zone` (its `HKTimeZone`), which place it with ``StatisticsTimeZone/recorded``.
    mutating func add(start: Int64, end: Int64, stage: SleepNight.Stage, offsetMinutes: Int16, zone: String?) {
        let night = clock.night(of: start, offsetMinutes: offsetMinutes, zone: zone)
        if nights[night.key] == nil {
            nights[night.key] = SleepNight(label: night.label, start: night.start, end: night.end, seconds: [:], count: 0)
        }
        nights[night.key]!.seconds[stage, default: 0] += Double(end - start) / 1_000_000
        nights[night.key]!.count += 1
    }

    /// The nights, in order.
    func results() -> [SleepNight] {
        nights.sorted { $0.key < $1.key }.map(\.value)
    }
}

/// One workout as `healthlog workouts` prints it: when it started on the person's clock,
/// its activity, duration, distance and energy in the units asked for, the heart rate
/// recorded during it, the elevation it climbed and the size of its route.
///
/// - Heart rate: the `HKQuantityTypeIdentifierHeartRate` samples of any source whose start
///   lies in the workout, `[start, end)`, in `count/min`; the average is their mean.
/// - Elevation gain, in metres: the workout's `HKElevationAscended` metadata (a length such
///   as `6575 cm`; a bare number is metres) when it has one, else the sum of the rises in
///   altitude between successive points of its routes (``ElevationSource``).
/// - Routes: the `HKWorkoutRouteTypeIdentifier` samples that name the workout, their parts
///   joined; a workout may have several.
public struct WorkoutSummary: Sendable, Hashable {
    /// Where an elevation gain comes from.
    public enum ElevationSource: String, Sendable, Hashable {
        /// The workout's `HKElevationAscended` metadata.
        case metadata
        /// The rises in altitude along its routes.
        case route
    }

    /// The workout's UUID.
    public var uuid: SampleUUID
    /// The activity type's name, e.g. `HKWorkoutActivityTypeRunning`.
    public var activity: String
    /// The start, at its local offset on the query's clock.
    public var start: Timestamp
    /// The end, at its local offset on the query's clock.
    public var end: Timestamp
    /// The source that recorded it.
    public var source: String?
    /// Seconds: the recorded duration, else end minus start.
    public var duration: Double
    /// The total distance in the query's distance unit, when recorded in a length unit.
    public var distance: Double?
    /// The total energy burned in the query's energy unit, when recorded in an energy unit.
    public var energy: Double?
    /// The mean heart rate during the workout, `count/min`.
    public var heartRateAverage: Double?
    /// The highest heart rate during the workout, `count/min`.
    public var heartRateMaximum: Double?
    /// How many heart-rate samples lie in the workout.
    public var heartRateCount: Int
    /// Metres climbed.
    public var elevationGain: Double?
    /// Where ``elevationGain`` comes from.
    public var elevationSource: ElevationSource?
    /// How many points its routes hold.
    public var routePoints: Int

    /// The activity's name without the `HKWorkoutActivityType` prefix (`Running`).
    public var activityName: String {
        activity.hasPrefix(Self.activityPrefix) ? String(activity.dropFirst(Self.activityPrefix.count)) : activity
    }

    /// The prefix of activity type names.
    static let activityPrefix = "HKWorkoutActivityType"
}

/// The heart rate, route and elevation figures of a set of workouts, gathered from the
/// samples of those types.
struct WorkoutFigures {
    /// One workout's span and what has been gathered for it.
    private struct Entry {
        var start: Int64
        var end: Int64
        var heartRate = CompensatedSum()
        var heartRateCount = 0
        var heartRateMaximum: Double?
        /// Its routes' parts, by series UUID: each part's index and figures.
        var routes: [SampleUUID: [(index: Int, part: RoutePart)]] = [:]
    }

    /// One stored route line's points in brief.
    struct RoutePart {
        /// The points it holds.
        var count: Int
        /// The sum of the rises between its successive points with altitude, metres.
        var gain: Double
        /// The altitude of its first point with one.
        var firstAltitude: Double?
        /// The altitude of its last point with one.
        var lastAltitude: Double?

        /// The figures of `points`.
        init(_ points: [RouteLocation]) {
            count = points.count
            gain = 0
            for altitude in points.lazy.compactMap(\.altitude) {
                if firstAltitude == nil { firstAltitude = altitude }
                if let last = lastAltitude, altitude > last { gain += altitude - last }
                lastAltitude = altitude
            }
        }
    }

    /// The workouts, by start.
    private var entries: [Entry]
    /// Each workout's place in ``entries``, by UUID.
    private let places: [SampleUUID: Int]
    /// The longest workout, µs: how far back from an instant a workout holding it can start.
    private let longest: Int64
    /// `count/min`, the unit heart rates are kept in.
    private let beatsPerMinute: HealthUnit
    /// Heart-rate units seen, and their converters to `count/min` (`nil`: not a frequency).
    private var converters: [String: (@Sendable (Double) -> Double)?] = [:]

    /// No figures yet for the workouts with `uuids` over `spans` (µs), in the same order,
    /// sorted by start; heart rates are kept in `beatsPerMinute` (`count/min`).
    init(uuids: [SampleUUID], spans: [(start: Int64, end: Int64)], beatsPerMinute: HealthUnit) {
        self.beatsPerMinute = beatsPerMinute
        entries = spans.map { Entry(start: $0.start, end: max($0.start, $0.end)) }
        places = Dictionary(uuids.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        longest = entries.map { $0.end - $0.start }.max() ?? 0
    }

    /// Counts a heart-rate sample of `value` in `unit` starting at `instant` (µs) in every
    /// workout holding it.
    mutating func addHeartRate(at instant: Int64, value: Double, unit: String) {
        var low = 0
        var high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if entries[mid].start <= instant { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return }
        if converters[unit] == nil {
            converters[unit] = .some((try? HealthUnit(unit)).flatMap { $0.isCompatible(with: beatsPerMinute) ? $0.converter(to: beatsPerMinute) : nil })
        }
        guard let convert = converters[unit] ?? nil else { return }
        let bpm = convert(value)
        var k = low - 1
        while k >= 0, entries[k].start >= instant - longest {
            if instant < entries[k].end {
                entries[k].heartRate.add(bpm)
                entries[k].heartRateCount += 1
                entries[k].heartRateMaximum = max(entries[k].heartRateMaximum ?? bpm, bpm)
            }
            k -= 1
        }
    }

    /// Takes a route line of the workout `workout`: part `index` of the series `series`.
    mutating func addRoute(workout: SampleUUID, series: SampleUUID, index: Int, points: [RouteLocation]) {
        guard let place = places[workout] else { return }
        entries[place].routes[series, default: []].append((index, RoutePart(points)))
    }

    /// The figures of the workout at `place` (its index in the order given): heart-rate
    /// mean, maximum and count, route points, and the routes' elevation gain (`nil` when no
    /// point records altitude).
    func figures(at place: Int) -> (average: Double?, maximum: Double?, count: Int, points: Int, gain: Double?) {
        let entry = entries[place]
        var points = 0
        var gain: Double?
        for parts in entry.routes.values {
            var last: Double?
            for (_, part) in parts.sorted(by: { $0.index < $1.index }) {
                points += part.count
                if let first = part.firstAltitude {
                    gain = (gain ?? 0) + (last.map { max(0, first - $0) } ?? 0) + part.gain
                    last = part.lastAltitude
                }
            }
        }
        let average = entry.heartRateCount > 0 ? entry.heartRate.value / Double(entry.heartRateCount) : nil
        return (average, entry.heartRateMaximum, entry.heartRateCount, points, gain)
    }
}

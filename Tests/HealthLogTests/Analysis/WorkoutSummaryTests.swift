import HealthLogTestSupport
import Testing
@testable import HealthLog

/// ``HealthStore/workoutSummaries(predicate:timeZone:distanceUnit:energyUnit:)``: totals in
/// the units asked for, the heart rate recorded during each workout, elevation gain from
/// metadata or the route, route points across a route's parts, and the local start.
@Suite("Workout summaries")
struct WorkoutSummaryTests {
    private static func at(_ text: String) -> Timestamp { Timestamp(iso8601: text)! }
    private static let heartRate = SampleType.quantity("HeartRate")

    private static func beat(_ value: Double, _ time: String, unit: String = "count/min", source: String = "Watch") -> QuantitySample {
        QuantitySample(type: heartRate, quantity: Quantity(value, unit), fields: SampleFields(start: at(time), source: source))
    }

    /// A run from 18:00 to 18:30 UTC (in Los Angeles by its `HKTimeZone`) with 3.1 mi and
    /// 250 Cal, and a ride the next day with `HKElevationAscended` of 6575 cm; heart rates
    /// inside and outside them, and a route of `points` points for each.
    private static func store(_ dir: TemporaryDirectory, points: Int) throws -> (HealthStore, run: SampleUUID, ride: SampleUUID) {
        let store = HealthStore(directory: dir.file("store"))
        let run = WorkoutSample(
            activity: "HKWorkoutActivityTypeRunning", duration: 1800, totals: ["distance": Quantity(3.1, "mi"), "energy": Quantity(250, "Cal")],
            fields: SampleFields(start: at("2024-03-01T18:00:00Z"), end: at("2024-03-01T18:30:00Z"), source: "Watch", metadata: ["HKTimeZone": "America/Los_Angeles"]))
        let ride = WorkoutSample(
            activity: "HKWorkoutActivityTypeCycling", totals: ["distance": Quantity(20000, "m")],
            fields: SampleFields(start: at("2024-03-02T09:00:00+01:00"), end: at("2024-03-02T10:00:00+01:00"), source: "Bike app", metadata: ["HKElevationAscended": "6575 cm"]))
        // Altitude climbs 1 m every second point and falls 0.5 m between: 0, 1, 0.5, 1.5, 1, 2, …
        let track = (0..<points).map { (k: Int) -> RouteLocation in
            let altitude: Double = Double(k / 2) * 0.5 + (k % 2 == 1 ? 1 : 0)
            return RouteLocation(time: Timestamp(microseconds: run.fields.start.microseconds + Int64(k) * 100_000), latitude: 37.7, longitude: -122.4, altitude: altitude)
        }
        let route = WorkoutRouteSample(workout: run.fields.uuid, locations: track, fields: SampleFields(start: run.fields.start, end: run.fields.end, source: "Watch"))
        let rideRoute = WorkoutRouteSample(
            workout: ride.fields.uuid, locations: [RouteLocation(time: ride.fields.start, latitude: 1, longitude: 1, altitude: 5), RouteLocation(time: ride.fields.end, latitude: 1, longitude: 1, altitude: 9)],
            fields: SampleFields(start: ride.fields.start, end: ride.fields.end, source: "Bike app"))
        try store.save([
            run, ride, route, rideRoute, beat(200, "2024-03-01T17:59:59Z"), beat(120, "2024-03-01T18:00:00Z"), beat(2.5, "2024-03-01T18:10:00Z", unit: "count/s"),
            beat(131, "2024-03-01T18:20:00Z", source: "Chest strap"), beat(190, "2024-03-01T18:30:00Z"),
        ])
        return (store, run.fields.uuid, ride.fields.uuid)
    }

    @Test("Totals convert to the units asked for; heart rates of any source inside [start, end) count, in count/min")
    func totalsAndHeartRate() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (store, run, ride) = try Self.store(dir, points: 5)
        let rows = try store.workoutSummaries(timeZone: .recorded, distanceUnit: HealthUnit("km"), energyUnit: HealthUnit("kJ"))
        #expect(rows.map(\.uuid) == [run, ride])
        let first = try #require(rows.first)
        #expect(first.activityName == "Running" && first.duration == 1800)
        #expect(abs(first.distance! - 3.1 * 1.609344) < 1e-9)
        #expect(abs(first.energy! - 250 * 4.184) < 1e-9)
        #expect(first.heartRateCount == 3, "120 at the start, 150 (2.5 count/s), 131 from another source; not 200 before nor 190 at the end")
        #expect(abs(first.heartRateAverage! - (120 + 150 + 131) / 3.0) < 1e-9)
        #expect(first.heartRateMaximum == 150)
        #expect(rows[1].heartRateCount == 0 && rows[1].heartRateAverage == nil && rows[1].energy == nil && rows[1].distance == 20)
        let miles = try store.workoutSummaries(distanceUnit: HealthUnit("mi"))
        #expect(miles.first?.distance == 3.1 && abs(miles.first!.energy! - 250) < 1e-9)
        #expect(throws: HealthLogError.self) { try store.workoutSummaries(distanceUnit: HealthUnit("kcal")) }
    }

    @Test("Elevation gain: HKElevationAscended metadata when present, else the rises along the route, across its parts")
    func elevationAndRoutePoints() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let points = SeriesParts.pointsPerPart + 1001
        let (store, _, _) = try Self.store(dir, points: points)
        let rows = try store.workoutSummaries()
        let run = try #require(rows.first)
        #expect(run.routePoints == points, "both parts of the route")
        // Each odd point rises 1 m from the one before; each even one falls 0.5 m.
        #expect(run.elevationGain == Double(points / 2) && run.elevationSource == .route)
        #expect(rows[1].elevationGain == 65.75 && rows[1].elevationSource == .metadata && rows[1].routePoints == 2)
    }

    @Test("The start is written at the workout's local offset: its HKTimeZone with --local, else the query's clock")
    func localStart() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (store, _, _) = try Self.store(dir, points: 2)
        let local = try store.workoutSummaries(timeZone: .recorded)
        #expect(local.map(\.start.description) == ["2024-03-01T10:00:00-08:00", "2024-03-02T09:00:00+01:00"])
        let berlin = try store.workoutSummaries(timeZone: .named(TimeZoneRules(named: "Europe/Berlin")))
        #expect(berlin.map(\.start.description) == ["2024-03-01T19:00:00+01:00", "2024-03-02T09:00:00+01:00"])
        let picked = try store.workoutSummaries(predicate: .sources(["Bike app"]), timeZone: .fixed(offsetMinutes: 0))
        #expect(picked.map(\.start.description) == ["2024-03-02T08:00:00+00:00"])
    }
}

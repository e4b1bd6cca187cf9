import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// Workout routes on the event line (`HKWorkoutRouteTypeIdentifier` with `workout` and
/// `locations`): refused when malformed, with the field named and nothing written; kept
/// verbatim and handed back by replay and, as `WorkoutRouteSample`s, by the library.
@Suite("Workout route event lines")
struct WorkoutRouteLineTests {
    static let route = "HKWorkoutRouteTypeIdentifier"
    static let workout = "0D4A1F9C-5E3B-4C61-9B57-2A1E4F8C7D10"
    static let point = #"{"time":"2024-03-01T17:00:00Z","lat":37.7,"lon":-122.4}"#

    @Test("Malformed routes are refused naming the field, and nothing is written", arguments: [
        (#"{"type":"\#(route)","start":"2024-03-01T17:00:00Z"}"#, "locations", "is required for a workout route"),
        (#"{"type":"\#(route)","start":"2024-03-01T17:00:00Z","locations":{}}"#, "locations", "must be an array of points"),
        (#"{"type":"\#(route)","start":"2024-03-01T17:00:00Z","locations":[{"lat":1,"lon":2}]}"#, "locations", "point 1: time is required"),
        (#"{"type":"\#(route)","start":"2024-03-01T17:00:00Z","locations":[\#(point),{"time":"x","lat":1,"lon":2}]}"#, "locations", "point 2: time is not an ISO 8601 instant"),
        (#"{"type":"\#(route)","start":"2024-03-01T17:00:00Z","locations":[{"time":"2024-03-01T17:00:00Z","lat":91,"lon":2}]}"#, "locations", "point 1: lat must be within ±90 degrees"),
        (#"{"type":"\#(route)","start":"2024-03-01T17:00:00Z","locations":[{"time":"2024-03-01T17:00:00Z","lat":1,"lon":2,"speed":"fast"}]}"#, "locations", "point 1: values other than time must be numbers"),
        (#"{"type":"\#(route)","start":"2024-03-01T17:00:00Z","locations":[{"time":"2024-03-01T17:00:00Z","lat":1,"lon":2,"pace":3}]}"#, "locations", "point 1: unknown key"),
        (#"{"type":"\#(route)","start":"2024-03-01T17:00:00Z","workout":"nope","locations":[]}"#, "workout", "not an RFC 4122 UUID"),
        (#"{"type":"\#(route)","start":"2024-03-01T17:00:00Z","value":1,"locations":[]}"#, "value", "is not used by workout routes"),
        (#"{"type":"HKWorkoutTypeIdentifier","activity":"HKWorkoutActivityTypeRunning","start":"2024-03-01T17:00:00Z","locations":[]}"#, "locations", "is only for workout routes"),
        (#"{"type":"HKQuantityTypeIdentifierHeartRate","value":1,"unit":"count/min","start":"2024-03-01T17:00:00Z","workout":"\#(workout)"}"#, "workout", "is only for workout routes"),
    ])
    func refused(_ input: (line: String, field: String, reason: String)) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        let error = try #require(throws: HealthLogError.self) { try store.append(ndjson: Array(input.line.utf8)) }
        #expect(error.code == .badInput)
        #expect(error.message.contains("line 1: field '\(input.field)': \(input.reason)"), "\(error.message)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("store")))
    }

    @Test("A route line is stored verbatim, replayed as given, and decoded by the library as a WorkoutRouteSample")
    func roundTrip() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        let locations = #"[\#(Self.point),{"time":"2024-03-01T18:00:01+01:00","lat":-33.86,"lon":151.2,"alt":12.5,"speed":2.9,"course":201.5,"hAcc":3.1,"vAcc":2.6}]"#
        let line = #"{"type":"\#(Self.route)","start":"2024-03-01T17:00:00Z","end":"2024-03-01T17:00:01Z","workout":"\#(Self.workout.lowercased())","locations":\#(locations)}"#
        _ = try store.append(ndjson: Array(line.utf8))
        var replayed: [String] = []
        _ = try store.replay(ReplayRequest(anchor: .beginning)) { replayed.append(String(decoding: $0, as: UTF8.self)) }
        #expect(replayed.count == 1)
        #expect(replayed[0].trimmingCharacters(in: .newlines).hasSuffix(#","workout":"\#(Self.workout)","locations":\#(locations)}"#))
        let sample = try #require(try store.result(ReplayRequest(anchor: .beginning)).addedSamples.first as? WorkoutRouteSample)
        #expect(sample.workout == SampleUUID(Self.workout))
        #expect(sample.locations == [
            RouteLocation(time: Timestamp(iso8601: "2024-03-01T17:00:00Z")!, latitude: 37.7, longitude: -122.4),
            RouteLocation(
                time: Timestamp(iso8601: "2024-03-01T18:00:01+01:00")!, latitude: -33.86, longitude: 151.2, altitude: 12.5, speed: 2.9, course: 201.5,
                horizontalAccuracy: 3.1, verticalAccuracy: 2.6),
        ])
        let copy = WorkoutRouteSample(workout: sample.workout, locations: sample.locations, fields: SampleFields(start: sample.fields.start, end: sample.fields.end))
        _ = try store.save([copy])
        let saved = try store.result(ReplayRequest(anchor: .beginning)).addedSamples.compactMap { $0 as? WorkoutRouteSample }
        #expect(saved.count == 2 && saved[1].locations == sample.locations && saved[1].workout == sample.workout)
    }
}

import Foundation
import HealthLogTestSupport
import Testing

/// Values at the edges reaching the summary commands, the report and route files: huge
/// numbers print as numbers (never `inf`, never a crash), negative durations are refused at
/// append, control characters never reach the terminal or the HTML, and a route without
/// points is valid GeoJSON.
@Suite("hostile values in output")
struct HostileValuesCLITests {
    private static let workout = "6F1C2B3A-4D5E-4F60-8A7B-9C0D1E2F3A4B"

    /// A store with `events` appended.
    private static func store(_ events: String) throws -> (TemporaryDirectory, String) {
        let dir = try TemporaryDirectory()
        let path = dir.file("store")
        let appended = try HealthLogBinary.run(["--store", path, "append"], stdin: events)
        #expect(appended.status == 0, "\(appended.stderr)")
        return (dir, path)
    }

    /// A workout lasting 1e300 s, with 1e308 km and 1e308 kcal, whose activity holds an ESC sequence, and a
    /// step sample whose source holds NUL and U+0001.
    private static let events = """
        {"uuid":"\(workout)","type":"HKWorkoutTypeIdentifier","start":"2024-03-31T16:00:00Z","end":"2024-03-31T16:30:00Z","activity":"Evil\\u001b[31m","duration":1e300,"totals":{"distance":{"value":1e308,"unit":"km"},"energy":{"value":1e308,"unit":"kcal"}},"source":"Watch"}
        {"type":"HKQuantityTypeIdentifierStepCount","start":"2024-03-31T09:00:00Z","end":"2024-03-31T10:00:00Z","value":3000,"unit":"count","source":"a\\u0000b\\u0001c"}

        """

    /// Whether `text` holds a control character other than tab, newline and carriage return.
    private static func hasControls(_ text: String) -> Bool {
        text.unicodeScalars.contains { ($0.value < 0x20 && !["\t", "\n", "\r"].contains($0)) || (0x7F...0x9F).contains($0.value) }
    }

    @Test("workouts: a duration of 1e300 s prints '-', 1e308 kcal prints unrounded (valid JSON, no inf), an ESC in the activity shows as text")
    func hugeNumbersAndControls() throws {
        let (dir, path) = try Self.store(Self.events)
        defer { dir.remove() }
        let ndjson = try HealthLogBinary.run(["--store", path, "workouts", "--format", "ndjson"])
        #expect(ndjson.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(ndjson.stdout.utf8)) as? [String: Any], "\(ndjson.stdout)")
        #expect(object["energy_kcal"] as? Double == 1e308 && object["distance_km"] as? Double == 1e308)
        #expect(object["duration_min"] as? Double == 1e300 / 60)
        let kJ = try HealthLogBinary.run(["--store", path, "workouts", "--format", "ndjson", "--energy-unit", "kJ"])
        let converted = try #require(try JSONSerialization.jsonObject(with: Data(kJ.stdout.utf8)) as? [String: Any], "\(kJ.stdout)")
        #expect(converted["energy_kJ"] is NSNull)
        let csv = try HealthLogBinary.run(["--store", path, "workouts", "--format", "csv"])
        #expect(csv.status == 0 && !csv.stdout.contains("inf"), "\(csv.stdout)")
        let table = try HealthLogBinary.run(["--store", path, "workouts"])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(!Self.hasControls(table.stdout))
        #expect(table.stdout.contains("Evil\\u{1B}[31m"), "\(table.stdout)")
        #expect(!table.stdout.contains("inf"))
        let row = try #require(table.stdout.split(separator: "\n").last)
        #expect(row.contains("  -  ") && row.contains("1e+308"), "\(row)")
    }

    @Test("report: no inf in a cell, and a source's NUL and U+0001 become U+FFFD in the HTML")
    func reportNumbersAndControls() throws {
        let (dir, path) = try Self.store(Self.events)
        defer { dir.remove() }
        let result = try HealthLogBinary.run(["--store", path, "report", "-o", dir.file("r.html")])
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOfFile: dir.file("r.html"), encoding: .utf8)
        #expect(!Self.hasControls(html))
        #expect(html.contains("a\u{FFFD}b\u{FFFD}c"))
        #expect(!html.contains(">inf<") && !html.contains("inf</td>"))
    }

    @Test("append refuses a negative workout duration naming line and field, exit 2, nothing written")
    func negativeDuration() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("store")
        let line = #"{"type":"HKWorkoutTypeIdentifier","start":"2024-03-31T16:00:00Z","end":"2024-03-31T16:30:00Z","activity":"HKWorkoutActivityTypeRunning","duration":-300}"#
        let fine = #"{"type":"HKQuantityTypeIdentifierStepCount","start":"2024-03-31T09:00:00Z","value":3,"unit":"count"}"#
        let result = try HealthLogBinary.run(["--store", path, "append"], stdin: fine + "\n" + line + "\n")
        #expect(result.status == 2)
        #expect(result.stderr.contains("line 2") && result.stderr.contains("duration") && result.stderr.contains("must not be negative"), "\(result.stderr)")
        #expect(try HealthLogBinary.run(["--store", path, "export"]).stdout.isEmpty)
    }

    @Test("import keeps a workout whose export gives a negative duration, the duration left in its metadata")
    func negativeDurationImported() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <ExportDate value="2024-03-02 08:00:00 +0100"/>
             <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="-5" durationUnit="min" sourceName="W" startDate="2024-03-01 18:00:00 +0100" endDate="2024-03-01 18:30:00 +0100"/>
            </HealthData>

            """
        try xml.write(toFile: dir.file("export.xml"), atomically: true, encoding: .utf8)
        let imported = try HealthLogBinary.run(["--store", dir.file("store"), "import", dir.file("export.xml")])
        #expect(imported.status == 0, "\(imported.stderr)")
        let exported = try HealthLogBinary.run(["--store", dir.file("store"), "export"]).stdout
        #expect(exported.contains(#""duration":"-5","durationUnit":"min""#) && !exported.contains(#""duration":-"#), "\(exported)")
    }

    @Test("report -o a directory exits 2 before reading the store, leaving nothing beside it")
    func reportIntoDirectory() throws {
        let (dir, path) = try Self.store(Self.events)
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.file("out.html"), withIntermediateDirectories: false)
        let result = try HealthLogBinary.run(["--store", path, "report", "-o", dir.file("out.html")])
        #expect(result.status == 2)
        #expect(result.stderr.contains("is a directory"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["out.html", "store"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("out.html")).isEmpty)
    }

    @Test("report --start/--end without seconds or offset say what the date lacks")
    func reportDateHint() throws {
        let (dir, path) = try Self.store(Self.events)
        defer { dir.remove() }
        for option in ["--start", "--end"] {
            let result = try HealthLogBinary.run(["--store", path, "report", "-o", dir.file("r.html"), option, "2024-03-31T08:00"])
            #expect(result.status == 2)
            #expect(result.stderr.contains("\(option) '2024-03-31T08:00' is not a date: it lacks seconds"), "\(result.stderr)")
        }
    }

    @Test("a route without points is a feature with a null geometry in GeoJSON")
    func emptyRoute() throws {
        let route = #"{"type":"HKWorkoutRouteTypeIdentifier","start":"2024-03-31T16:00:00Z","end":"2024-03-31T16:30:00Z","workout":"\#(Self.workout)","locations":[]}"#
        let workout = #"{"uuid":"\#(Self.workout)","type":"HKWorkoutTypeIdentifier","start":"2024-03-31T16:00:00Z","end":"2024-03-31T16:30:00Z","activity":"HKWorkoutActivityTypeRunning","duration":1800}"#
        let (dir, path) = try Self.store(workout + "\n" + route + "\n")
        defer { dir.remove() }
        let geo = try HealthLogBinary.run(["--store", path, "route", Self.workout, "--format", "geojson"])
        #expect(geo.status == 0, "\(geo.stderr)")
        #expect(geo.stdout.contains(#""geometry":null"#) && !geo.stdout.contains("LineString"), "\(geo.stdout)")
        let collection = try #require(try JSONSerialization.jsonObject(with: Data(geo.stdout.utf8)) as? [String: Any])
        let feature = try #require((collection["features"] as? [[String: Any]])?.first)
        #expect(feature["geometry"] is NSNull)
    }
}

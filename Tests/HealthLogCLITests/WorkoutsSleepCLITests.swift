import Foundation
import HealthLogTestSupport
import Testing

/// `healthlog workouts` and `healthlog sleep` on imported sample exports: their table, CSV
/// and NDJSON output word for word, the units asked for, rounded numbers, and usage errors.
@Suite("workouts and sleep")
struct WorkoutsSleepCLITests {
    /// A store with the imports of `exports` (names of the sample exports).
    private static func store(_ exports: [String]) throws -> (TemporaryDirectory, String) {
        let dir = try TemporaryDirectory()
        let path = dir.file("store")
        for export in exports {
            let imported = try HealthLogBinary.run(["--store", path, "import", PackageFiles.appleHealthExport(export)])
            #expect(imported.status == 0, "\(imported.stderr)")
        }
        return (dir, path)
    }

    @Test("workouts: a table by default, each start in its own local time; csv in mi and kJ, rounded, with the route's points")
    func workoutsFromExports() throws {
        let (dir, path) = try Self.store(["healthkit-to-sqlite.xml", "tdda-applehealthdata.xml"])
        defer { dir.remove() }
        let table = try HealthLogBinary.run(["--store", path, "workouts"])
        #expect(table.status == 0)
        #expect(table.stdout == """
            start             activity  duration  distance (km)  energy (kcal)  avg HR  max HR  elev. gain (m)  route points
            2016-04-02 10:40  Other      0:31:44           0.00          139.3       -       -               -             0
            2016-11-14 06:25  Running    0:05:12           0.80           48.7       -       -             0.0             2

            """)
        let csv = try HealthLogBinary.run(["--store", path, "workouts", "--format", "csv", "--distance-unit", "mi", "--energy-unit", "kJ"])
        let lines = csv.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "start,end,activity,duration_min,distance_mi,energy_kJ,heart_rate_avg_bpm,heart_rate_max_bpm,heart_rate_samples,elevation_gain_m,elevation_from,route_points,source,uuid")
        // 0.4971749504535062 mi; 48.74499999999999 kcal = 203.949… kJ; 5.19412346680959 min.
        #expect(lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).prefix(13).joined(separator: ",") } == [
            "2016-04-02T10:40:38+01:00,2016-04-02T11:12:22+01:00,Other,31.74,0,582.9,,,0,,,0,NJR Apple\u{A0}Watch",
            "2016-11-14T06:25:41-08:00,2016-11-14T06:30:52-08:00,Running,5.19,0.5,203.9,,,0,0,route,2,Apple\u{A0}Watch",
        ])
        let utc = try HealthLogBinary.run(["--store", path, "workouts", "--format", "ndjson", "--utc-offset", "+00:00", "--source", "NJR Apple\u{A0}Watch"])
        #expect(utc.stdout.hasPrefix(#"{"start":"2016-04-02T09:40:38+00:00","end":"2016-04-02T10:12:22+00:00","activity":"Other","duration_min":31.74,"distance_km":0,"energy_kcal":139.3,"heart_rate_avg_bpm":null"#))
        #expect(utc.stdout.split(separator: "\n").count == 1)
    }

    @Test("workouts and sleep: a bare --start date is on the chosen clock, not UTC's: midnight for workouts, the night's label for sleep")
    func datesOnTheClock() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("store")
        // The nap at 12:30 +01:00 starts the night of 2 March locally but ends the night of 1 March in UTC (11:30Z).
        let events = """
            {"type":"HKWorkoutTypeIdentifier","start":"2024-03-01T00:30:00+01:00","end":"2024-03-01T01:00:00+01:00","activity":"HKWorkoutActivityTypeRunning","duration":1800,"source":"Watch"}
            {"type":"HKCategoryTypeIdentifierSleepAnalysis","start":"2024-03-01T12:30:00+01:00","end":"2024-03-01T13:00:00+01:00","value":"HKCategoryValueSleepAnalysisAsleepCore","source":"Watch"}

            """
        #expect(try HealthLogBinary.run(["--store", path, "append"], stdin: events).status == 0)
        for (command, start) in [("workouts", "2024-03-01"), ("sleep", "2024-03-02")] {
            let local = try HealthLogBinary.run(["--store", path, command, "--format", "csv", "--start", start, "--strict-start"])
            #expect(local.stdout.split(separator: "\n").count == 2, "\(command): \(local.stdout)")
            let utc = try HealthLogBinary.run(["--store", path, command, "--format", "csv", "--utc-offset", "+00:00", "--start", start, "--strict-start"])
            #expect(utc.stdout.split(separator: "\n").count == 1, "\(command): \(utc.stdout)")
        }
    }

    @Test("sleep --start and --end keep whole nights by the morning they end: a night begun the evening before --start counts in full")
    func wholeNightsInRange() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("store")
        let events = """
            {"type":"HKCategoryTypeIdentifierSleepAnalysis","start":"2025-04-30T22:30:00Z","end":"2025-04-30T23:50:00Z","value":"HKCategoryValueSleepAnalysisAsleepCore","source":"Watch"}
            {"type":"HKCategoryTypeIdentifierSleepAnalysis","start":"2025-04-30T23:50:00Z","end":"2025-05-01T06:30:00Z","value":"HKCategoryValueSleepAnalysisAsleepDeep","source":"Watch"}
            {"type":"HKCategoryTypeIdentifierSleepAnalysis","start":"2025-05-31T23:00:00Z","end":"2025-06-01T06:00:00Z","value":"HKCategoryValueSleepAnalysisAsleepDeep","source":"Watch"}

            """
        #expect(try HealthLogBinary.run(["--store", path, "append"], stdin: events).status == 0)
        func nights(_ range: [String]) throws -> [String] {
            let csv = try HealthLogBinary.run(["--store", path, "sleep", "--format", "csv"] + range).stdout
            return csv.split(separator: "\n").dropFirst().map { $0.split(separator: ",").prefix(4).joined(separator: ",") }
        }
        let whole = "2025-05-01,2025-04-30T22:30:00+00:00,2025-05-01T06:30:00+00:00,480"
        #expect(try nights([]) == [whole, "2025-06-01,2025-05-31T23:00:00+00:00,2025-06-01T06:00:00+00:00,420"])
        #expect(try nights(["--start", "2025-05-01", "--end", "2025-06-01"]) == [whole])
    }

    @Test("workouts: heart rate during the workout, its mean rounded to 1 decimal in csv and whole in the table")
    func heartRate() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("store")
        let events = """
            {"type":"HKWorkoutTypeIdentifier","start":"2024-03-01T18:00:00+01:00","end":"2024-03-01T18:30:00+01:00","activity":"HKWorkoutActivityTypeRunning","duration":1800,"totals":{"distance":{"value":5.25,"unit":"km"}},"source":"Watch"}
            {"type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T18:01:00+01:00","value":100,"unit":"count/min","source":"Watch"}
            {"type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T18:02:00+01:00","value":101,"unit":"count/min","source":"Watch"}
            {"type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T18:03:00+01:00","value":101.2,"unit":"count/min","source":"Watch"}
            {"type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T18:31:00+01:00","value":180,"unit":"count/min","source":"Watch"}

            """
        #expect(try HealthLogBinary.run(["--store", path, "append"], stdin: events).status == 0)
        let csv = try HealthLogBinary.run(["--store", path, "workouts", "--format", "csv"])
        #expect(csv.stdout.split(separator: "\n").last?.hasPrefix("2024-03-01T18:00:00+01:00,2024-03-01T18:30:00+01:00,Running,30,5.25,,100.7,101.2,3,,,0,Watch,") == true)
        let table = try HealthLogBinary.run(["--store", path, "workouts"])
        #expect(table.stdout.split(separator: "\n").last == "2024-03-01 18:00  Running    0:30:00           5.25              -     101     101               -             0")
    }

    @Test("sleep: a night from noon to noon in its own local time, the phone's and the watch's samples merged, in three formats")
    func sleepFromExport() throws {
        let (dir, path) = try Self.store(["alxdrcirilo-apple-health-parser.xml"])
        defer { dir.remove() }
        let table = try HealthLogBinary.run(["--store", path, "sleep"])
        #expect(table.status == 0)
        #expect(table.stdout == """
            night       first             last              in bed  asleep    core    deep     REM  unspecified   awake  efficiency
            2024-01-01  2023-12-31 23:55  2024-01-01 02:40  0h 14m  0h 13m  0h 13m  0h 00m  0h 00m       0h 00m  0h 00m       89.8%

            """)
        let csv = try HealthLogBinary.run(["--store", path, "sleep", "--format", "csv"])
        #expect(csv.stdout == """
            night,first,last,in_bed_min,asleep_min,core_min,deep_min,rem_min,unspecified_min,awake_min,efficiency,sources,samples
            2024-01-01,2023-12-31T23:55:28+01:00,2024-01-01T02:40:23+01:00,13.9,12.5,12.5,0,0,0,0,0.898,Alexandre's Apple Watch; Alexandre's iPhone,2

            """)
        let ndjson = try HealthLogBinary.run(["--store", path, "sleep", "--format", "ndjson", "--time-zone", "Asia/Tokyo", "--source-priority", "Alexandre's iPhone"])
        #expect(ndjson.stdout == """
            {"night":"2024-01-01","first":"2024-01-01T07:55:28+09:00","last":"2024-01-01T10:40:23+09:00","in_bed_min":13.9,"asleep_min":12.5,"core_min":12.5,"deep_min":0,"rem_min":0,"unspecified_min":0,"awake_min":0,"efficiency":0.898,"sources":["Alexandre's iPhone","Alexandre's Apple Watch"],"samples":2}

            """)
    }

    @Test("Nothing to list: a note on stderr for the table, a bare header for csv, exit 0")
    func nothingMatches() throws {
        let (dir, path) = try Self.store(["alxdrcirilo-apple-health-parser.xml"])
        defer { dir.remove() }
        let table = try HealthLogBinary.run(["--store", path, "workouts"])
        #expect(table.status == 0 && table.stdout.isEmpty && table.stderr == "healthlog: note: no workouts match\n")
        let csv = try HealthLogBinary.run(["--store", path, "sleep", "--format", "csv", "--start", "2025-01-01"])
        #expect(csv.status == 0 && csv.stdout == "night,first,last,in_bed_min,asleep_min,core_min,deep_min,rem_min,unspecified_min,awake_min,efficiency,sources,samples\n")
    }

    @Test("A unit, format or clock these commands do not take is bad usage: exit 2", arguments: [
        ["workouts", "--distance-unit", "yd"], ["workouts", "--energy-unit", "J"], ["workouts", "--format", "xml"], ["sleep", "--format", "tsv"],
        ["sleep", "--local", "--utc-offset", "+01:00"], ["workouts", "--time-zone", "Mars/Base"],
    ])
    func badUsage(_ arguments: [String]) throws {
        let (dir, path) = try Self.store(["alxdrcirilo-apple-health-parser.xml"])
        defer { dir.remove() }
        let result = try HealthLogBinary.run(["--store", path] + arguments)
        #expect(result.status == 2 && result.stdout.isEmpty && result.stderr.contains("healthlog: error:"), "\(result.stderr)")
    }
}

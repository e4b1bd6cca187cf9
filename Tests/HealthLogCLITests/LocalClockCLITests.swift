import Foundation
import HealthLogTestSupport
import Testing

/// One local clock everywhere: a sample's local time follows its `HKTimeZone` metadata, else
/// the offset it was recorded with, in `export`'s `localStart`, `aggregate --local` and the
/// bare dates of `--start` and `--end`, on real Apple Health exports whose dates carry the
/// offset of the phone's zone at export time.
@Suite("local clock")
struct LocalClockCLITests {
    /// A store holding the Apple Health export `name`.
    private static func imported(_ name: String) throws -> (TemporaryDirectory, String) {
        let dir = try TemporaryDirectory()
        let path = dir.file("store")
        let result = try HealthLogBinary.run(["--store", path, "import", PackageFiles.appleHealthExport(name)])
        #expect(result.status == 0, "\(result.stderr)")
        return (dir, path)
    }

    /// The `localStart` cells of a CSV export of `type`.
    private static func localStarts(_ path: String, _ type: String, format: String = "csv") throws -> [String] {
        let result = try HealthLogBinary.run(["--store", path, "export", "--type", type, "--format", format])
        #expect(result.status == 0, "\(result.stderr)")
        if format == "ndjson-rows" {
            return result.stdout.split(separator: "\n").map { line in
                let row = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                return row?["localStart"] as? String ?? ""
            }
        }
        let lines = result.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let column = try #require(lines.first?.firstIndex(of: "localStart"))
        return lines.dropFirst().map { $0[column] }
    }

    @Test("A Los Angeles workout in November, exported at -07:00: localStart, aggregate --local and its --start date all read 06:25 PST")
    func losAngelesWorkout() throws {
        let (dir, path) = try Self.imported("healthkit-to-sqlite.xml")
        defer { dir.remove() }
        for format in ["csv", "ndjson-rows"] {
            #expect(try Self.localStarts(path, "HKWorkoutTypeIdentifier", format: format) == ["2016-11-14 06:25:41.000000"])
        }
        let hours = try HealthLogBinary.run([
            "--store", path, "aggregate", "--type", "HKWorkoutTypeIdentifier", "--interval", "hour", "--local", "--stat", "count",
        ])
        #expect(hours.stdout == "hour,unit,count\n2016-11-14T06:00,,1\n")
    }

    @Test("A sleep sample at 00:55 +02:00 on New Year's Day in Europe/Amsterdam (CET) lies on 31 December in export, aggregate --local and --start")
    func amsterdamSleep() throws {
        let (dir, path) = try Self.imported("alxdrcirilo-apple-health-parser.xml")
        defer { dir.remove() }
        let starts = try Self.localStarts(path, "HKCategoryTypeIdentifierSleepAnalysis")
        #expect(starts.sorted() == ["2023-12-31 23:55:28.000000", "2024-01-01 02:27:53.000000"])
        func days(_ extra: [String]) throws -> String {
            try HealthLogBinary.run(
                ["--store", path, "aggregate", "--type", "SleepAnalysis", "--interval", "day", "--local", "--stat", "count"] + extra
            ).stdout
        }
        #expect(try days([]) == "day,unit,count\n2023-12-31,,1\n2024-01-01,,1\n")
        #expect(try days(["--start", "2024-01-01"]) == "day,unit,count\n2024-01-01,,1\n")
        #expect(try days(["--end", "2024-01-01"]) == "day,unit,count\n2023-12-31,,1\n")
    }

    @Test("--start and --end dates are midnight on the chosen clock: --local each sample's own, --time-zone the zone's, in summer time too")
    func datesFollowTheClock() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("store")
        let events = """
            {"type":"HKQuantityTypeIdentifierStepCount","start":"2019-05-31T23:30:00+02:00","end":"2019-05-31T23:40:00+02:00","value":1,"unit":"count","metadata":{"HKTimeZone":"Europe/Berlin"}}
            {"type":"HKQuantityTypeIdentifierStepCount","start":"2019-06-01T00:30:00+02:00","end":"2019-06-01T00:40:00+02:00","value":2,"unit":"count","metadata":{"HKTimeZone":"Europe/Berlin"}}
            {"type":"HKQuantityTypeIdentifierStepCount","start":"2019-06-01T20:30:00-07:00","end":"2019-06-01T20:40:00-07:00","value":4,"unit":"count"}

            """
        #expect(try HealthLogBinary.run(["--store", path, "append"], stdin: events).status == 0)
        func sums(_ clock: [String]) throws -> String {
            try HealthLogBinary.run(
                ["--store", path, "aggregate", "--type", "StepCount", "--interval", "day", "--stat", "sum", "--start", "2019-06-01", "--end", "2019-06-02"] + clock
            ).stdout
        }
        #expect(try sums(["--local"]) == "day,unit,sum\n2019-06-01,count,6\n")
        #expect(try sums(["--time-zone", "Europe/Berlin"]) == "day,unit,sum\n2019-06-01,count,2\n")
        #expect(try sums(["--utc-offset", "-07:00"]) == "day,unit,sum\n2019-06-01,count,4\n")
    }

    @Test("Metadata appended with spaces around the colon: aggregate --local reads its HKTimeZone as export's localStart does")
    func spacedTimeZone() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("store")
        let line = """
            {"type":"HKQuantityTypeIdentifierStepCount","start":"2016-11-14T07:25:00-07:00","end":"2016-11-14T07:30:00-07:00","value":3,"unit":"count","metadata":{"HKTimeZone" : "America/Los_Angeles"}}

            """
        #expect(try HealthLogBinary.run(["--store", path, "append"], stdin: line).status == 0)
        #expect(try Self.localStarts(path, "HKQuantityTypeIdentifierStepCount") == ["2016-11-14 06:25:00.000000"])
        let hours = try HealthLogBinary.run(["--store", path, "aggregate", "--type", "StepCount", "--interval", "hour", "--local", "--stat", "sum"])
        #expect(hours.stdout == "hour,unit,sum\n2016-11-14T06:00,count,3\n")
    }
}

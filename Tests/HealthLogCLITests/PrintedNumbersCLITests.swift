import Foundation
import HealthLogTestSupport
import Testing

/// Printed figures carry no binary noise and durations their unit: the exact text of
/// `aggregate`, `export --unit` and `plot` for values converted from `count/s` and for
/// prorated sums.
@Suite("printed numbers")
struct PrintedNumbersCLITests {
    /// Heart rate in `count/s` (73.0002 and 61.9998 in `count/min`), 1000 steps over 98
    /// minutes of which 7 lie in the next day, and a night's sleep.
    private static let events = """
        {"uuid":"00000000-0000-4000-8000-000000000001","type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-04T08:00:00Z","value":1.21667,"unit":"count/s"}
        {"uuid":"00000000-0000-4000-8000-000000000002","type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-05T08:00:00Z","value":1.03333,"unit":"count/s"}
        {"type":"HKQuantityTypeIdentifierStepCount","start":"2024-03-04T22:29:00Z","end":"2024-03-05T00:07:00Z","value":1000,"unit":"count"}
        {"type":"HKCategoryTypeIdentifierSleepAnalysis","start":"2024-03-04T23:00:00Z","end":"2024-03-05T06:30:00Z","value":"HKCategoryValueSleepAnalysisAsleepCore"}

        """

    private static func store() throws -> (TemporaryDirectory, String) {
        let dir = try TemporaryDirectory()
        let path = dir.file("store")
        #expect(try HealthLogBinary.run(["--store", path, "append"], stdin: events).status == 0)
        return (dir, path)
    }

    @Test("Weekly heart rate converted from count/s prints 73.0002 and 61.9998, not 73.00019999999999 and 61.99980000000001")
    func convertedFigures() throws {
        let (dir, path) = try Self.store()
        defer { dir.remove() }
        let csv = try HealthLogBinary.run(["--store", path, "aggregate", "--type", "HeartRate", "--interval", "week", "--stat", "count,avg,min,max,most-recent"])
        #expect(csv.stdout == "week,unit,count,avg,min,max,most-recent\n2024-03-04,count/min,2,67.5,61.9998,73.0002,61.9998\n")
        let ndjson = try HealthLogBinary.run(["--store", path, "aggregate", "--type", "HeartRate", "--interval", "week", "--stat", "max,min", "--format", "ndjson"])
        #expect(ndjson.stdout == #"{"interval":"week","label":"2024-03-04","start":"2024-03-04T00:00:00Z","end":"2024-03-11T00:00:00Z","unit":"count/min","max":73.0002,"min":61.9998}"# + "\n")
    }

    @Test("Prorated daily steps print six significant digits: 928.571 and 71.4286, not 928.5714285714286")
    func proratedSums() throws {
        let (dir, path) = try Self.store()
        defer { dir.remove() }
        let csv = try HealthLogBinary.run(["--store", path, "aggregate", "--type", "StepCount", "--interval", "day"])
        #expect(csv.stdout == "day,unit,count,sum\n2024-03-04,count,1,928.571\n2024-03-05,count,0,71.4286\n")
    }

    @Test("Sleep's duration names its unit: s in the unit column")
    func durationUnit() throws {
        let (dir, path) = try Self.store()
        defer { dir.remove() }
        let csv = try HealthLogBinary.run(["--store", path, "aggregate", "--type", "SleepAnalysis", "--interval", "day"])
        #expect(csv.stdout == "day,unit,count,duration\n2024-03-04,s,1,3600\n2024-03-05,s,0,23400\n")
        let ndjson = try HealthLogBinary.run(["--store", path, "aggregate", "--type", "SleepAnalysis", "--interval", "day", "--stat", "count", "--format", "ndjson"])
        #expect(ndjson.stdout.contains(#""unit":"","count":1"#), "no duration printed, no unit")
    }

    @Test("export --unit writes a converted value to 15 significant digits, in CSV, NDJSON rows and event lines")
    func exportConverted() throws {
        let (dir, path) = try Self.store()
        defer { dir.remove() }
        let lines = try HealthLogBinary.run(["--store", path, "export", "--type", "HeartRate", "--unit", "count/min"])
        #expect(lines.stdout.contains(#""value":73.0002,"unit":"count/min""#) && lines.stdout.contains(#""value":61.9998,"unit":"count/min""#), "\(lines.stdout)")
        let csv = try HealthLogBinary.run(["--store", path, "export", "--type", "HeartRate", "--unit", "count/min", "--format", "csv"])
        #expect(csv.stdout.contains(",73.0002,count/min,") && csv.stdout.contains(",61.9998,count/min,"), "\(csv.stdout)")
        let rows = try HealthLogBinary.run(["--store", path, "export", "--type", "HeartRate", "--unit", "count/min", "--format", "ndjson-rows"])
        #expect(rows.stdout.contains(#""value":73.0002,"unit":"count/min""#), "\(rows.stdout)")
    }

    @Test("plot's labels print the figure as aggregate does")
    func plotLabels() throws {
        let (dir, path) = try Self.store()
        defer { dir.remove() }
        let svg = dir.file("hr.svg")
        #expect(try HealthLogBinary.run(["--store", path, "plot", "--type", "HeartRate", "--interval", "day", "--stat", "max", "-o", svg]).status == 0)
        let chart = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(chart.contains("<title>2024-03-04: 73.0002</title>") && chart.contains("<title>2024-03-05: 61.9998</title>"), "\(chart)")
        let steps = dir.file("steps.svg")
        #expect(try HealthLogBinary.run(["--store", path, "plot", "--type", "StepCount", "--interval", "day", "-o", steps]).status == 0)
        #expect(try String(contentsOfFile: steps, encoding: .utf8).contains("<title>2024-03-04: 928.571</title>"))
    }
}

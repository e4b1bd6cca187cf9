import Foundation
import HealthLogTestSupport
import Testing

/// `healthlog aggregate`: its CSV and NDJSON output, word for word, and its usage errors.
@Suite("aggregate")
struct AggregateCLITests {
    private static let events = """
        {"type":"HKQuantityTypeIdentifierStepCount","start":"2024-03-01T08:00:00+01:00","end":"2024-03-01T08:10:00+01:00","value":100,"unit":"count","source":"Phone"}
        {"type":"HKQuantityTypeIdentifierStepCount","start":"2024-03-01T23:30:00Z","end":"2024-03-01T23:40:00Z","value":50.5,"unit":"count","source":"Watch"}
        {"uuid":"0D4A1F9C-5E3B-4C61-9B57-2A1E4F8C7D10","type":"HKQuantityTypeIdentifierStepCount","start":"2024-03-02T10:00:00Z","value":999,"unit":"count"}
        {"op":"delete","uuid":"0D4A1F9C-5E3B-4C61-9B57-2A1E4F8C7D10"}
        {"type":"HKQuantityTypeIdentifierStepCount","start":"2024-03-04T10:00:00Z","value":7,"unit":"count","source":"Phone"}

        """

    private static func store() throws -> (TemporaryDirectory, String) {
        let dir = try TemporaryDirectory()
        let path = dir.file("store")
        let appended = try HealthLogBinary.run(["--store", path, "append"], stdin: events)
        #expect(appended.status == 0)
        return (dir, path)
    }

    @Test("CSV per day: a header, one row per interval, deleted samples left out, the predicate applied")
    func csvPerDay() throws {
        let (dir, path) = try Self.store()
        defer { dir.remove() }
        let all = try HealthLogBinary.run(["--store", path, "aggregate", "--type", "StepCount", "--interval", "day"])
        #expect(all.status == 0)
        #expect(all.stdout == "day,unit,count,sum\n2024-03-01,count,2,150.5\n2024-03-04,count,1,7\n", "a cumulative type's figures by default: count and sum")
        let local = try HealthLogBinary.run(["--store", path, "aggregate", "--type", "StepCount", "--interval", "day", "--utc-offset", "+01:00", "--stat", "sum,count", "--source", "Watch"])
        #expect(local.stdout == "day,unit,sum,count\n2024-03-02,count,50.5,1\n")
    }

    @Test("NDJSON per week, with the duration the samples span")
    func ndjsonPerWeek() throws {
        let (dir, path) = try Self.store()
        defer { dir.remove() }
        let result = try HealthLogBinary.run(["--store", path, "aggregate", "--type", "HKQuantityTypeIdentifierStepCount", "--interval", "week", "--stat", "count,duration", "--format", "ndjson"])
        #expect(result.stdout == """
            {"interval":"week","label":"2024-02-26","start":"2024-02-26T00:00:00Z","end":"2024-03-04T00:00:00Z","unit":"count","count":2,"duration":1200}
            {"interval":"week","label":"2024-03-04","start":"2024-03-04T00:00:00Z","end":"2024-03-11T00:00:00Z","unit":"count","count":1,"duration":0}

            """)
    }

    @Test("A missing or bad --interval, --stat, --utc-offset or --format is bad usage: exit 2", arguments: [
        ["--type", "StepCount"], ["--type", "StepCount", "--interval", "year"], ["--type", "StepCount", "--interval", "day", "--stat", "median"],
        ["--type", "StepCount", "--interval", "day", "--utc-offset", "+1"], ["--type", "StepCount", "--interval", "day", "--format", "xml"],
        ["--interval", "day"],
    ])
    func badUsage(_ arguments: [String]) throws {
        let (dir, path) = try Self.store()
        defer { dir.remove() }
        let result = try HealthLogBinary.run(["--store", path, "aggregate"] + arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("healthlog: error: "))
    }

    @Test("plot writes a private SVG chart with one point per interval; without -o it is bad usage")
    func plot() throws {
        let (dir, path) = try Self.store()
        defer { dir.remove() }
        let svg = dir.file("steps.svg")
        let result = try HealthLogBinary.run(["--store", path, "plot", "--type", "StepCount", "--stat", "sum", "-o", svg])
        #expect(result.status == 0)
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(text.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(text.contains("HKQuantityTypeIdentifierStepCount — sum per interval (count)"))
        #expect(text.components(separatedBy: "<circle ").count - 1 == 2)
        #expect(text.contains("<title>2024-03-01: 150.5</title>") && text.contains("<title>2024-03-04: 7</title>"))
        let mode = try FileManager.default.attributesOfItem(atPath: svg)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try HealthLogBinary.run(["--store", path, "plot", "--type", "StepCount"]).status == 2)
    }
}

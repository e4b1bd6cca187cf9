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

    @Test("plot writes a private SVG chart: bars for a sum, a title with the short name, figure, interval and unit; without -o it is bad usage")
    func plot() throws {
        let (dir, path) = try Self.store()
        defer { dir.remove() }
        let svg = dir.file("steps.svg")
        let result = try HealthLogBinary.run(["--store", path, "plot", "--type", "StepCount", "--stat", "sum", "-o", svg])
        #expect(result.status == 0)
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(text.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(text.contains(">StepCount — total per day (count)</text>"))
        #expect(text.components(separatedBy: "<rect class=\"mark\"").count - 1 == 2)
        #expect(text.contains("<title>2024-03-01: 150.5</title>") && text.contains("<title>2024-03-04: 7</title>"))
        let mode = try FileManager.default.attributesOfItem(atPath: svg)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try HealthLogBinary.run(["--store", path, "plot", "--type", "StepCount"]).status == 2)
    }

    @Test("plot merges sources as aggregate does: the Watch first by default, --source-priority puts the iPhone first")
    func plotSourcePriority() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("store")
        let events = """
            {"type":"HKQuantityTypeIdentifierStepCount","start":"2024-03-01T10:00:00Z","end":"2024-03-01T11:00:00Z","value":1000,"unit":"count","source":"Simon’s iPhone"}
            {"type":"HKQuantityTypeIdentifierStepCount","start":"2024-03-01T10:00:00Z","end":"2024-03-01T10:30:00Z","value":400,"unit":"count","source":"Simon’s Apple Watch"}

            """
        #expect(try HealthLogBinary.run(["--store", path, "append"], stdin: events).status == 0)
        let svg = dir.file("steps.svg")
        #expect(try HealthLogBinary.run(["--store", path, "plot", "--type", "StepCount", "-o", svg]).status == 0)
        #expect(try String(contentsOfFile: svg, encoding: .utf8).contains("<title>2024-03-01: 900</title>"), "the Watch's 400, then the iPhone's second half hour")
        let phoneFirst = try HealthLogBinary.run(["--store", path, "plot", "--type", "StepCount", "--source-priority", "Simon’s iPhone", "-o", svg])
        #expect(phoneFirst.status == 0)
        #expect(try String(contentsOfFile: svg, encoding: .utf8).contains("<title>2024-03-01: 1000</title>"), "the iPhone covers the whole hour")
    }

    @Test("plot refuses an output that is not .svg, and an empty selection, with exit 2 and nothing written", arguments: [
        (["-o", "chart.png"], "-o must name an .svg file"), (["-o", "chart.svg", "--start", "2030-01-01"], "nothing to plot for HKQuantityTypeIdentifierStepCount: no live samples match"),
        (["-o", "chart.svg", "--type", "SleepAnalysis"], "nothing to plot for HKCategoryTypeIdentifierSleepAnalysis: no sleep-stage samples match"),
    ])
    func plotRefusals(_ arguments: [String], _ message: String) throws {
        let (dir, path) = try Self.store()
        defer { dir.remove() }
        let output = dir.file(arguments[1])
        var args = ["--store", path, "plot"] + (arguments.contains("--type") ? [] : ["--type", "StepCount"]) + arguments
        args[args.firstIndex(of: arguments[1])!] = output
        let result = try HealthLogBinary.run(args)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("--time-zone puts day boundaries at local midnight across a daylight-saving change, in aggregate and plot; --local uses each sample's offset; one clock option at a time")
    func timeZones() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("store")
        let events = """
            {"type":"HKQuantityTypeIdentifierStepCount","start":"2024-03-30T23:30:00+01:00","value":1,"unit":"count"}
            {"type":"HKQuantityTypeIdentifierStepCount","start":"2024-03-31T23:30:00+02:00","value":2,"unit":"count"}
            {"type":"HKQuantityTypeIdentifierStepCount","start":"2024-04-01T00:30:00+02:00","value":4,"unit":"count"}

            """
        #expect(try HealthLogBinary.run(["--store", path, "append"], stdin: events).status == 0)
        let berlin = try HealthLogBinary.run(["--store", path, "aggregate", "--type", "StepCount", "--interval", "day", "--stat", "sum", "--time-zone", "Europe/Berlin"])
        #expect(berlin.stdout == "day,unit,sum\n2024-03-30,count,1\n2024-03-31,count,2\n2024-04-01,count,4\n")
        let fixed = try HealthLogBinary.run(["--store", path, "aggregate", "--type", "StepCount", "--interval", "day", "--stat", "sum", "--utc-offset", "+01:00"])
        #expect(fixed.stdout == "day,unit,sum\n2024-03-30,count,1\n2024-03-31,count,6\n")
        let local = try HealthLogBinary.run(["--store", path, "aggregate", "--type", "StepCount", "--interval", "day", "--stat", "sum", "--local", "--format", "ndjson"])
        #expect(local.stdout.split(separator: "\n").map { $0.contains("\"sum\":1") || $0.contains("\"sum\":2") || $0.contains("\"sum\":4") } == [true, true, true])
        let svg = dir.file("berlin.svg")
        #expect(try HealthLogBinary.run(["--store", path, "plot", "--type", "StepCount", "--stat", "sum", "--time-zone", "Europe/Berlin", "-o", svg]).status == 0)
        let chart = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(chart.contains("<title>2024-03-31: 2</title>") && chart.contains("<title>2024-04-01: 4</title>") && chart.contains("intervals in Europe/Berlin"))
        let both = try HealthLogBinary.run(["--store", path, "aggregate", "--type", "StepCount", "--interval", "day", "--local", "--time-zone", "UTC"])
        #expect(both.status == 2 && both.stderr.contains("exclude each other"))
        let unknown = try HealthLogBinary.run(["--store", path, "aggregate", "--type", "StepCount", "--interval", "day", "--time-zone", "Mars/Base"])
        #expect(unknown.status == 2 && unknown.stderr.contains("unknown time zone 'Mars/Base'"))
    }

    @Test("aggregate merges an iPhone and a Watch on Berlin's clock across the spring change; plot draws it, its value axis in --unit; export --unit with --partition needs one --type")
    func mergedOnLocalClock() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("store")
        let events = """
            {"type":"HKQuantityTypeIdentifierStepCount","start":"2024-03-30T22:00:00Z","end":"2024-03-31T00:00:00Z","value":240,"unit":"count","source":"Simon’s iPhone"}
            {"type":"HKQuantityTypeIdentifierStepCount","start":"2024-03-31T21:00:00Z","end":"2024-03-31T23:00:00Z","value":1200,"unit":"count","source":"Simon’s iPhone"}
            {"type":"HKQuantityTypeIdentifierStepCount","start":"2024-03-31T21:30:00Z","end":"2024-03-31T22:30:00Z","value":600,"unit":"count","source":"Simon’s Apple Watch"}
            {"type":"HKQuantityTypeIdentifierBodyMass","start":"2024-03-31T08:00:00+02:00","value":80,"unit":"kg"}

            """
        #expect(try HealthLogBinary.run(["--store", path, "append"], stdin: events).status == 0)
        let berlin = try HealthLogBinary.run(["--store", path, "aggregate", "--type", "StepCount", "--interval", "day", "--time-zone", "Europe/Berlin"])
        #expect(berlin.stdout == "day,unit,count,sum\n2024-03-30,count,1,120\n2024-03-31,count,2,720\n2024-04-01,count,0,600\n", "hand-computed: see SourceMergeTests")
        let svg = dir.file("mass.svg")
        #expect(try HealthLogBinary.run(["--store", path, "plot", "--type", "BodyMass", "--unit", "lb", "--time-zone", "Europe/Berlin", "-o", svg]).status == 0)
        let chart = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(chart.contains("(lb)</text>") && chart.contains("<title>2024-03-31: 176.37</title>"), "\(chart)")
        let partition = try HealthLogBinary.run(["--store", path, "export", "--unit", "lb", "--partition", dir.file("lake")])
        #expect(partition.status == 2 && partition.stderr.contains("--unit with --partition needs exactly one --type"))
    }
}

#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// `healthlog report`: one self-contained private HTML page, its sections by data, its
/// figures those of `aggregate`, on an encrypted store too, and its usage errors.
@Suite("report")
struct ReportCLITests {
    private static let workout = "6F1C2B3A-4D5E-4F60-8A7B-9C0D1E2F3A4B"

    /// Two sources of steps across Berlin's spring change, heart rates, sleep, weight, an
    /// activity summary and a workout with its route.
    private static let events = """
        {"type":"HKQuantityTypeIdentifierStepCount","start":"2024-03-30T22:00:00Z","end":"2024-03-31T00:00:00Z","value":240,"unit":"count","source":"Simon’s iPhone"}
        {"type":"HKQuantityTypeIdentifierStepCount","start":"2024-03-30T22:30:00Z","end":"2024-03-30T23:00:00Z","value":100,"unit":"count","source":"Simon’s Apple Watch","device":"<<HKDevice>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.0>"}
        {"type":"HKQuantityTypeIdentifierStepCount","start":"2024-03-31T09:00:00Z","end":"2024-03-31T10:00:00Z","value":3000,"unit":"count","source":"Simon’s iPhone"}
        {"type":"HKQuantityTypeIdentifierStepCount","start":"2024-04-02T09:00:00Z","end":"2024-04-02T10:00:00Z","value":1234,"unit":"count","source":"Simon’s iPhone"}
        {"type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-30T23:30:00Z","value":58,"unit":"count/min","source":"Simon’s Apple Watch"}
        {"type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-31T12:00:00Z","value":91,"unit":"count/min","source":"Simon’s Apple Watch"}
        {"type":"HKQuantityTypeIdentifierHeartRate","start":"2024-04-01T12:00:00Z","value":75,"unit":"count/min","source":"Simon’s Apple Watch"}
        {"type":"HKQuantityTypeIdentifierActiveEnergyBurned","start":"2024-03-31T09:00:00Z","end":"2024-03-31T10:00:00Z","value":450,"unit":"kcal","source":"Simon’s Apple Watch"}
        {"type":"HKActivitySummaryTypeIdentifier","start":"2024-03-31T00:00:00Z","metadata":{"activeEnergyBurnedGoal":400,"activeEnergyBurnedUnit":"kcal","appleExerciseTimeGoal":30}}
        {"type":"HKCategoryTypeIdentifierSleepAnalysis","start":"2024-03-30T22:00:00Z","end":"2024-03-31T05:00:00Z","value":"HKCategoryValueSleepAnalysisAsleepCore","source":"Simon’s Apple Watch"}
        {"type":"HKQuantityTypeIdentifierBodyMass","start":"2024-03-31T07:00:00Z","value":72.5,"unit":"kg","source":"Scale"}
        {"uuid":"\(workout)","type":"HKWorkoutTypeIdentifier","start":"2024-03-31T16:00:00+02:00","end":"2024-03-31T16:30:00+02:00","activity":"HKWorkoutActivityTypeRunning","duration":1800,"totals":{"distance":{"value":5.2,"unit":"km"},"energy":{"value":350,"unit":"kcal"}},"source":"Simon’s Apple Watch"}
        {"type":"HKWorkoutRouteTypeIdentifier","start":"2024-03-31T14:00:00Z","end":"2024-03-31T14:30:00Z","workout":"\(workout)","locations":[{"time":"2024-03-31T14:00:00Z","lat":52.52,"lon":13.40},{"time":"2024-03-31T14:10:00Z","lat":52.53,"lon":13.42},{"time":"2024-03-31T14:20:00Z","lat":52.52,"lon":13.44}]}

        """

    private static func store(_ events: String = events, secret: [String] = []) throws -> (TemporaryDirectory, String) {
        let dir = try TemporaryDirectory()
        let path = dir.file("store")
        let appended = try HealthLogBinary.run(secret + ["--store", path, "append"], stdin: events)
        #expect(appended.status == 0, "\(appended.stderr)")
        return (dir, path)
    }

    /// The section ids of a page.
    private static func sections(_ html: String) -> [String] {
        html.components(separatedBy: "<section id=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    /// The `label: value` tooltips of the chart whose title holds `title`.
    private static func figures(_ html: String, _ title: String) -> [String] {
        guard let figure = html.components(separatedBy: "<figure>").first(where: { $0.contains(title) }) else { return [] }
        return figure.components(separatedBy: "<title>").dropFirst().map { String($0.prefix { $0 != "<" }) }
    }

    @Test("report writes one private HTML page that fetches nothing, with a section for each kind of data present and none for vitals")
    func selfContained() throws {
        let (dir, path) = try Self.store()
        defer { dir.remove() }
        let page = dir.file("report.html")
        let result = try HealthLogBinary.run(["--store", path, "report", "-o", page])
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        for outside in ["http", "src=", "<link", "@import", "<script", "url("] {
            #expect(!html.contains(outside), "\(outside)")
        }
        #expect(try FileManager.default.attributesOfItem(atPath: page)[.posixPermissions] as? Int == 0o600)
        #expect(Self.sections(html) == ["glance", "activity", "heart", "sleep", "body", "workouts"])
        #expect(html.contains("<td>Simon’s Apple Watch</td><td>Apple Watch (Watch6,2)</td>"))
        #expect(html.contains("<td>2024-03</td><td class=\"n\">1</td><td class=\"n\">1</td>"), "one day with a move goal, met by its 450 kcal")
        #expect(html.contains("<td>2024-03-31 16:00</td><td>Running</td><td class=\"n\">30</td><td class=\"n\">5.2</td><td class=\"n\">350</td>"), "by default the workout starts at its own local time")
        #expect(html.components(separatedBy: "<svg class=\"track\"").count == 2, "the run's route is drawn")
    }

    @Test("the activity rings table takes a day's own activity summary figures when no active energy or exercise samples cover the day, and a dash when nothing is recorded")
    func goalsFromSummaries() throws {
        let events = """
            {"type":"HKActivitySummaryTypeIdentifier","start":"2016-11-15T00:00:00Z","metadata":{"activeEnergyBurned":700,"activeEnergyBurnedGoal":630,"activeEnergyBurnedUnit":"kcal","appleExerciseTime":20,"appleExerciseTimeGoal":30,"dateComponents":"2016-11-15"}}
            {"type":"HKActivitySummaryTypeIdentifier","start":"2016-11-16T00:00:00Z","metadata":{"activeEnergyBurned":500,"activeEnergyBurnedGoal":630,"activeEnergyBurnedUnit":"kcal","appleExerciseTime":40,"appleExerciseTimeGoal":30,"dateComponents":"2016-11-16"}}
            {"type":"HKActivitySummaryTypeIdentifier","start":"2016-12-01T00:00:00Z","metadata":{"activeEnergyBurnedGoal":630,"activeEnergyBurnedUnit":"kcal","dateComponents":"2016-12-01"}}

            """
        let (dir, path) = try Self.store(events)
        defer { dir.remove() }
        let page = dir.file("goals.html")
        let result = try HealthLogBinary.run(["--store", path, "report", "-o", page])
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("<tr><td>2016-11</td><td class=\"n\">2</td><td class=\"n\">1</td><td class=\"n\">600</td><td class=\"n\">630</td><td class=\"n\">1 of 2</td></tr>"), "\(html)")
        #expect(html.contains("<tr><td>2016-12</td><td class=\"n\">1</td><td class=\"n\">-</td><td class=\"n\">-</td><td class=\"n\">630</td>"))
    }

    @Test("a store of steps alone gets the glance and activity only; a range without samples writes nothing and exits 2")
    func sectionsByData() throws {
        let steps = Self.events.split(separator: "\n").filter { $0.contains("StepCount") }.joined(separator: "\n") + "\n"
        let (dir, path) = try Self.store(steps)
        defer { dir.remove() }
        let page = dir.file("steps.html")
        #expect(try HealthLogBinary.run(["--store", path, "report", "-o", page]).status == 0)
        #expect(Self.sections(try String(contentsOfFile: page, encoding: .utf8)) == ["glance", "activity"])
        let empty = dir.file("empty.html")
        let none = try HealthLogBinary.run(["--store", path, "report", "-o", empty, "--start", "2030-01-01"])
        #expect(none.status == 2 && none.stderr.contains("nothing to report"), "\(none.stderr)")
        #expect(!FileManager.default.fileExists(atPath: empty))
    }

    @Test("the charts' figures are aggregate's for the same range and clock: merged steps and heart-rate averages on Berlin's days")
    func figuresAreAggregates() throws {
        let (dir, path) = try Self.store()
        defer { dir.remove() }
        let page = dir.file("report.html")
        let range = ["--start", "2024-03-30T23:00:00Z", "--end", "2024-04-03T00:00:00+02:00", "--time-zone", "Europe/Berlin"]
        #expect(try HealthLogBinary.run(["--store", path, "report", "-o", page] + range).status == 0)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        for (type, stat, title) in [("StepCount", "sum", "StepCount — total per day"), ("HeartRate", "avg", "HeartRate — average")] {
            let aggregate = try HealthLogBinary.run(["--store", path, "aggregate", "--type", type, "--interval", "day", "--stat", stat] + range)
            let rows = aggregate.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
            let expected = rows.map { "\($0[0]): \($0[2])" }
            #expect(!expected.isEmpty)
            #expect(Self.figures(html, title) == expected, "\(type)")
        }
        #expect(Self.figures(html, "StepCount — total per day").first == "2024-03-31: 3120", "the iPhone's last hour of 30 March UTC (120, prorated) is Berlin's 31 March; the Watch's half hour before it is not")
        let bare = dir.file("bare.html")
        #expect(try HealthLogBinary.run(["--store", path, "report", "-o", bare, "--start", "2024-03-31", "--time-zone", "Europe/Berlin"]).status == 0)
        #expect(Self.figures(try String(contentsOfFile: bare, encoding: .utf8), "HeartRate — average").first == "2024-03-31: 74.5", "a bare --start is midnight on the report's clock: the 00:30 Berlin heart rate counts")
    }

    @Test("report --local reads a bare --start and --end on each sample's own clock, as workouts --local does")
    func localDates() throws {
        let workout = """
            {"type":"HKWorkoutTypeIdentifier","start":"2024-03-31T00:10:00+01:00","end":"2024-03-31T00:40:00+01:00","activity":"HKWorkoutActivityTypeRunning","duration":1800,"source":"Watch","metadata":{"HKTimeZone":"Europe/Berlin"}}

            """
        let (dir, path) = try Self.store(workout)
        defer { dir.remove() }
        let range = ["--local", "--start", "2024-03-31", "--end", "2024-04-01"]
        let listed = try HealthLogBinary.run(["--store", path, "workouts", "--format", "csv"] + range)
        #expect(listed.stdout.split(separator: "\n").count == 2, "\(listed.stdout)")
        let page = dir.file("local.html")
        let report = try HealthLogBinary.run(["--store", path, "report", "-o", page] + range)
        #expect(report.status == 0, "\(report.stderr)")
        #expect(Self.sections((try? String(contentsOfFile: page, encoding: .utf8)) ?? "").contains("workouts"))
    }

    @Test("an encrypted store's report is the plaintext store's, page for page; without its key it exits 4")
    func encrypted() throws {
        let (dir, plain) = try Self.store()
        defer { dir.remove() }
        let keyFile = dir.file("k.key")
        try ByteSurgery.write(Sodium.random(count: 32), to: keyFile)
        chmod(keyFile, 0o600)
        let sealed = dir.file("sealed")
        #expect(try HealthLogBinary.run(["--key-file", keyFile, "--store", sealed, "init", "--encrypt"]).status == 0)
        #expect(try HealthLogBinary.run(["--key-file", keyFile, "--store", sealed, "append"], stdin: Self.events).status == 0)
        let sealedResult = try HealthLogBinary.run(["--key-file", keyFile, "--store", sealed, "report", "-o", dir.file("sealed.html")])
        #expect(sealedResult.status == 0, "\(sealedResult.stderr)")
        #expect(try HealthLogBinary.run(["--store", plain, "report", "-o", dir.file("plain.html")]).status == 0)
        #expect(try String(contentsOfFile: dir.file("sealed.html"), encoding: .utf8) == String(contentsOfFile: dir.file("plain.html"), encoding: .utf8))
        let locked = try HealthLogBinary.run(["--store", sealed, "report", "-o", dir.file("locked.html")])
        #expect(locked.status == 4, "\(locked.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("locked.html")))
    }

    @Test("invalid options exit 2 and write nothing", arguments: [
        ([], "-o FILE is required"), (["-o", "report.pdf"], "-o must name an .html file"),
        (["-o", "report.html", "--start", "soon"], "--start 'soon' is not a date"),
        (["-o", "report.html", "--start", "2024-04-02", "--end", "2024-04-01"], "is not before --end"),
        (["-o", "report.html", "--local", "--time-zone", "Europe/Berlin"], "exclude each other"),
        (["-o", "report.html", "--time-zone", "Mars/Base"], "unknown time zone"),
    ])
    func invalidOptions(_ arguments: [String], _ message: String) throws {
        let (dir, path) = try Self.store()
        defer { dir.remove() }
        var args = arguments
        if let o = args.firstIndex(of: "-o") { args[o + 1] = dir.file(args[o + 1]) }
        let result = try HealthLogBinary.run(["--store", path, "report"] + args)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("report.html")) && !FileManager.default.fileExists(atPath: dir.file("report.pdf")))
    }
}

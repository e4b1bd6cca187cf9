import Foundation
import HealthLogTestSupport
import Testing

/// Refusals of a likely mix-up name the right command or form, and exit 2 (usage or input)
/// without writing anything.
@Suite("Error hints")
struct ErrorHintCLITests {
    @Test("import of NDJSON events points to append; append of an export (zip or XML) points to import")
    func importAndAppendSwapped() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        let week = PackageFiles.path("Samples/week-1.ndjson")
        let imported = try HealthLogBinary.run(["--store", store, "import", week])
        #expect(imported.status == 2)
        #expect(imported.stderr.contains("week-1.ndjson: the file is plain text, neither XML nor a zip: not an Apple Health export; it reads as JSON: for NDJSON events use `healthlog append \(week)`"), "\(imported.stderr)")
        let zip = PackageFiles.path("Samples/apple-health-export.zip")
        let xml = dir.file("export.xml")
        try ByteSurgery.write(Array("\u{FEFF}\n<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\"/>\n".utf8), to: xml)
        for (path, kind) in [(zip, "a zip archive"), (xml, "XML")] {
            let appended = try HealthLogBinary.run(["--store", store, "append", path])
            GoldenTests.expect(appended, status: 2, stderr: "healthlog: error: \(path): the file is \(kind), not NDJSON events: for an Apple Health export use `healthlog import \(path)`\n")
        }
        let piped = try HealthLogBinary.run(["--store", store, "append"], stdin: "<?xml version=\"1.0\"?>\n<HealthData/>\n")
        GoldenTests.expect(
            piped, status: 2,
            stderr: "healthlog: error: line 1: malformed JSON at byte 1: expected a JSON object; an Apple Health export (a zip or XML) goes in with `healthlog import FILE`\n")
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test("An unknown unit suggests the HealthKit unit meant: a common name's, or the nearest spelling")
    func unitSuggestions() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        #expect(try HealthLogBinary.run(["--store", store, "add", "--type", "HeartRate", "--value", "60", "--unit", "count/min"]).status == 0)
        let cases = [
            ("bpm", "count/min"), ("BPM", "count/min"), ("lbs", "lb"), ("steps", "count"), ("Kcal", "kcal"), ("percent", "%"),
            ("mmhg", "mmHg"), ("°C", "degC"), ("fahrenheit", "degF"), ("KG", "kg"), ("kcl", "kcal"),
        ]
        for (unit, meant) in cases {
            let result = try HealthLogBinary.run(["--store", store, "aggregate", "--type", "HeartRate", "--interval", "day", "--unit", unit])
            #expect(result.status == 2)
            #expect(result.stderr.hasPrefix("healthlog: error: --unit: '\(unit)' is not a HealthKit unit: unknown unit '\(unit)': did you mean \(meant)?\n"), "\(result.stderr)")
        }
        let compound = try HealthLogBinary.run(["--store", store, "export", "--unit", "beats/min"])
        #expect(compound.status == 2 && compound.stderr.contains("unknown unit 'beats': did you mean count?"), "\(compound.stderr)")
        let nothingNear = try HealthLogBinary.run(["--store", store, "aggregate", "--type", "HeartRate", "--interval", "day", "--unit", "furlongs"])
        #expect(nothingNear.status == 2 && nothingNear.stderr.hasPrefix("healthlog: error: --unit: 'furlongs' is not a HealthKit unit: unknown unit 'furlongs'\n"))
    }

    @Test("A date without seconds or offset says what is missing and shows an accepted form")
    func dateHints() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        let cases = [
            ("2021-11-03T10:00", "it lacks seconds and a UTC offset (Z, or +HH:MM): write 2021-11-03T10:00:00Z for UTC, 2021-11-03T10:00:00+01:00 for an offset, or the date alone (2021-11-03)"),
            ("2021-11-03T10:00:00", "it lacks a UTC offset (Z, or +HH:MM): write 2021-11-03T10:00:00Z for UTC, 2021-11-03T10:00:00+01:00 for an offset, or the date alone (2021-11-03)"),
            ("2021-11-03 10:00:00+01:00", "it lacks a 'T' between the date and the time: write 2021-11-03T10:00:00+01:00"),
            ("2021-11-03T10:00+0100", "it lacks seconds: write 2021-11-03T10:00:00+01:00"),
            ("2021-11-03T10:00:00+01", "it lacks the offset's minutes: write 2021-11-03T10:00:00+01:00"),
            ("2021-2-30", "2021-2-30 is not a day of the calendar (YYYY-MM-DD, month 01-12)"),
            ("2021-2-3", "write the date as 2021-02-03"),
            ("yesterday", "use an ISO 8601 instant (2024-03-01T08:00:00Z) or a date (2024-03-01)"),
        ]
        for (date, reason) in cases {
            let result = try HealthLogBinary.run(["--store", store, "replay", "--start", date])
            #expect(result.status == 2)
            #expect(result.stderr.hasPrefix("healthlog: error: --start '\(date)' is not a date: \(reason)\n"), "\(result.stderr)")
        }
        let added = try HealthLogBinary.run(["--store", store, "add", "--type", "StepCount", "--value", "10", "--unit", "count", "--start", "2021-11-03T10:00"])
        #expect(added.status == 2 && added.stderr.contains("it lacks seconds and a UTC offset"), "\(added.stderr)")
        // Options that also take an anchor: a date-like text that is neither gets the date's
        // reason, and the exit code of a refused anchor.
        let horizon = try HealthLogBinary.run(["--store", store, "compact", "--horizon", "2021-11-03T10:00"])
        #expect(horizon.status == 3 && horizon.stderr.hasPrefix("healthlog: error: --horizon '2021-11-03T10:00' is not a date: it lacks seconds"), "\(horizon.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test("A directory where a file is expected, and a file where a directory is, say so and exit 2")
    func filesAndDirectories() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        #expect(try HealthLogBinary.run(["--store", store, "add", "--type", "HeartRate", "--value", "60", "--unit", "count/min"]).status == 0)
        try FileManager.default.createDirectory(atPath: dir.file("charts.svg"), withIntermediateDirectories: false)
        let plotted = try HealthLogBinary.run(["--store", store, "plot", "--type", "HeartRate", "-o", dir.file("charts.svg")])
        #expect(plotted.status == 2 && plotted.stderr.hasPrefix("healthlog: error: -o '\(dir.file("charts.svg"))' is a directory, not a file: give a file's path\n"), "\(plotted.stderr)")
        let route = try HealthLogBinary.run(["--store", store, "route", "--start", "2024-01-01", "-o", dir.path])
        #expect(route.status == 2 && route.stderr.hasPrefix("healthlog: error: -o '\(dir.path)' is a directory, not a file: give a file's path\n"), "\(route.stderr)")
        let file = dir.file("notes.txt")
        try ByteSurgery.write(Array("x\n".utf8), to: file)
        for arguments in [["--store", file, "replay"], ["--store=\(file)", "append", "-"], ["--store", file, "init"]] {
            let result = try HealthLogBinary.run(arguments)
            #expect(result.status == 2)
            #expect(result.stderr.hasPrefix("healthlog: error: --store '\(file)' is a file, not a directory: a store is a directory"), "\(result.stderr)")
        }
        let wrongKind = [
            (["import", dir.path], "import '\(dir.path)' is a directory, not a file: give the export's zip, or the export.xml inside its folder"),
            (["replay", "--anchor-file", dir.path], "--anchor-file '\(dir.path)' is a directory, not a file: give a file's path"),
            (["export", "--partition", file], "--partition '\(file)' is a file, not a directory: give a directory (it is made when missing)"),
            (["restore", file], "restore '\(file)' is a file, not a directory: give the directory 'healthlog backup' wrote"),
        ]
        for (arguments, message) in wrongKind {
            let result = try HealthLogBinary.run(["--store", store] + arguments)
            #expect(result.status == 2)
            #expect(result.stderr.hasPrefix("healthlog: error: \(message)\n"), "\(result.stderr)")
        }
        let fromEnvironment = try HealthLogBinary.run(["stats"], environment: ["HEALTHLOG_STORE": file])
        #expect(fromEnvironment.status == 2 && fromEnvironment.stderr.hasPrefix("healthlog: error: HEALTHLOG_STORE '\(file)' is a file, not a directory"))
        #expect(try ByteSurgery.read(file) == Array("x\n".utf8))
    }
}

import Foundation
import HealthLogTestSupport
import Testing

/// Input checked against HealthKit's table of types, units and category values: refused input writes nothing and exits 2 with the reason; accepted input is
/// stored in one form.
@Suite("Validated input")
struct ValidatedInputCLITests {
    private static func add(_ path: String, _ arguments: [String], start: String = "2024-03-01T08:00:00Z") throws -> BuiltProgram.Result {
        try HealthLogBinary.run(["--store", path, "add", "--start", start] + arguments)
    }

    @Test(
        "Near misses, units of the wrong dimension, negative cumulative values and values a category does not take are refused naming the fix",
        arguments: [
            (["--type", "HKQuantityTypeIdentifierHeartRat", "--value", "72", "--unit", "count/min"], "did you mean HeartRate (HKQuantityTypeIdentifierHeartRate)?"),
            (["--type", "HeartRat", "--value", "72", "--unit", "count/min"], "did you mean HeartRate"),
            (["--type", "HeartRate", "--value", "72", "--unit", "bpm"], "HeartRate takes count/min"),
            (["--type", "BodyMass", "--value", "72", "--unit", "km"], "BodyMass takes kg"),
            (["--type", "StepCount", "--value", "-5", "--unit", "count"], "must not be negative: StepCount is a cumulative type"),
            (["--type", "SleepAnalysis", "--value", "Dozing"], "is not a value of HKCategoryTypeIdentifierSleepAnalysis: InBed (0)"),
            (["--type", "SleepAnalysis", "--value", "9"], "is not a value of HKCategoryTypeIdentifierSleepAnalysis"),
        ] as [([String], String)])
    func refused(_ arguments: [String], _ reason: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("store")
        let result = try Self.add(path, arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(reason), "\(result.stderr)")
        #expect(try HealthLogBinary.run(["--store", path, "export"]).stdout.isEmpty)
    }

    @Test("A category value given short, in full, in another case or as its integer is stored as the constant's name, and every --category spelling matches it")
    func categoryValuesInOneForm() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("store")
        for value in ["AsleepCore", "asleepcore", "3", "HKCategoryValueSleepAnalysisAsleepCore"] {
            #expect(try Self.add(path, ["--type", "SleepAnalysis", "--value", value]).status == 0)
        }
        let lines = try HealthLogBinary.run(["--store", path, "export"]).stdout.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines.allSatisfy { $0.contains(#""value":"HKCategoryValueSleepAnalysisAsleepCore""#) })
        for spelling in ["3", "AsleepCore", "ASLEEPCORE", "HKCategoryValueSleepAnalysisAsleepCore"] {
            let found = try HealthLogBinary.run(["--store", path, "export", "--category", spelling]).stdout.split(separator: "\n")
            #expect(found.count == 4, "--category \(spelling)")
        }
        #expect(try HealthLogBinary.run(["--store", path, "export", "--category", "InBed"]).stdout.isEmpty)
    }

    @Test("Short names work everywhere a type does, in any case: add, --type, and NDJSON's type field")
    func shortNames() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("store")
        #expect(try Self.add(path, ["--type", "stepcount", "--value", "5", "--unit", "count"]).status == 0)
        let appended = try HealthLogBinary.run(
            ["--store", path, "append"], stdin: #"{"type":"HeartRate","start":"2024-03-01T09:00:00Z","value":70,"unit":"count/min"}"# + "\n")
        #expect(appended.status == 0, "\(appended.stderr)")
        let exported = try HealthLogBinary.run(["--store", path, "export", "--type", "HEARTRATE"]).stdout
        #expect(exported.contains(#""type":"HKQuantityTypeIdentifierHeartRate""#))
        let steps = try HealthLogBinary.run(["--store", path, "export", "--type", "StepCount"]).stdout
        #expect(steps.contains(#""type":"HKQuantityTypeIdentifierStepCount""#))
        let bad = try HealthLogBinary.run(["--store", path, "append"], stdin: #"{"type":"HartRate","start":"2024-03-01T09:00:00Z","value":70,"unit":"count/min"}"# + "\n")
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("line 1: field 'type':") && bad.stderr.contains("did you mean HeartRate (HKQuantityTypeIdentifierHeartRate)?"), "\(bad.stderr)")
        let aggregate = try HealthLogBinary.run(["--store", path, "aggregate", "--type", "stepCount", "--interval", "Day", "--stat", "SUM", "--format", "CSV"])
        #expect(aggregate.status == 0, "\(aggregate.stderr)")
        #expect(aggregate.stdout == "day,unit,sum\n2024-03-01,count,5\n")
    }

    @Test("A type healthlog does not know, with a HealthKit prefix, is accepted with a note")
    func unknownTypeWithNote() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("store")
        let result = try Self.add(path, ["--type", "HKQuantityTypeIdentifierBrandNewInIOS30", "--value", "1", "--unit", "count"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("healthlog: note: type HKQuantityTypeIdentifierBrandNewInIOS30 is not one healthlog knows"), "\(result.stderr)")
        let unknownShort = try Self.add(path, ["--type", "Frobnication", "--value", "1", "--unit", "count"])
        #expect(unknownShort.status == 2)
        #expect(unknownShort.stderr.contains("give a known short name"), "\(unknownShort.stderr)")
    }

    @Test("--where with a unit converts each sample's value before comparing")
    func whereWithUnit() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("store")
        #expect(try Self.add(path, ["--type", "BodyMass", "--value", "50", "--unit", "kg"]).status == 0)
        #expect(try Self.add(path, ["--type", "BodyMass", "--value", "60", "--unit", "kg"]).status == 0)
        #expect(try Self.add(path, ["--type", "BodyMass", "--value", "120", "--unit", "lb"]).status == 0)
        let heavy = try HealthLogBinary.run(["--store", path, "export", "--where", "value > 120 lb"]).stdout.split(separator: "\n")
        #expect(heavy.count == 1 && heavy[0].contains(#""value":60,"unit":"kg""#), "60 kg is 132 lb; 50 kg is 110 lb")
        let ownUnit = try HealthLogBinary.run(["--store", path, "export", "--where", "value > 100"]).stdout.split(separator: "\n")
        #expect(ownUnit.count == 1 && ownUnit[0].contains(#""value":120,"unit":"lb""#))
        let bad = try HealthLogBinary.run(["--store", path, "export", "--where", "value > 120 pounds"])
        #expect(bad.status == 2)
    }

    @Test("export --unit writes every quantity sample in that unit, and refuses one whose unit does not convert")
    func exportUnits() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("store")
        #expect(try Self.add(path, ["--type", "BodyMass", "--value", "80", "--unit", "kg"]).status == 0)
        #expect(try Self.add(path, ["--type", "BodyMass", "--value", "176", "--unit", "lb"]).status == 0)
        #expect(try Self.add(path, ["--type", "SleepAnalysis", "--value", "InBed"]).status == 0)
        let lines = try HealthLogBinary.run(["--store", path, "export", "--unit", "lb"]).stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].contains(#""value":176.369809747902,"unit":"lb""#), "\(lines[0])")
        #expect(lines[1].contains(#""value":176,"unit":"lb""#))
        #expect(lines[2].contains(#""value":"HKCategoryValueSleepAnalysisInBed""#))
        let csv = try HealthLogBinary.run(["--store", path, "export", "--unit", "kg", "--format", "CSV", "--type", "BodyMass"]).stdout
        #expect(csv.contains(",kg,") && !csv.contains(",lb,"), "\(csv)")
        let wrong = try HealthLogBinary.run(["--store", path, "export", "--unit", "km"])
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("does not convert to 'km'"), "\(wrong.stderr)")
    }

    @Test("aggregate --unit converts, and refuses a unit of another dimension with the reason")
    func aggregateUnits() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("store")
        #expect(try Self.add(path, ["--type", "BodyMass", "--value", "80", "--unit", "kg"]).status == 0)
        #expect(try Self.add(path, ["--type", "BodyMass", "--value", "176", "--unit", "lb"], start: "2024-03-01T09:00:00Z").status == 0)
        let lb = try HealthLogBinary.run(["--store", path, "aggregate", "--type", "BodyMass", "--interval", "day", "--unit", "lb", "--stat", "count,max,most-recent"])
        #expect(lb.stdout == "day,unit,count,max,most-recent\n2024-03-01,lb,2,176.369809747902,176\n", "\(lb.stdout)\(lb.stderr)")
        let wrong = try HealthLogBinary.run(["--store", path, "aggregate", "--type", "BodyMass", "--interval", "day", "--unit", "km"])
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("does not fit HKQuantityTypeIdentifierBodyMass"), "\(wrong.stderr)")
        let sum = try HealthLogBinary.run(["--store", path, "aggregate", "--type", "BodyMass", "--interval", "day", "--stat", "sum"])
        #expect(sum.status == 2)
        #expect(sum.stderr.contains("is a discrete type"))
    }
}

/// Import under the same rules, except that what Apple's export names is a type, never a typo.
@Suite("Validated import")
struct ValidatedImportCLITests {
    @Test("An export's unknown types import with a note, near misses included; its known values are checked and stored in one form")
    func importRules() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let export = dir.file("export.xml")
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <ExportDate value="2024-03-02 10:00:00 +0100"/>
             <Record type="HKQuantityTypeIdentifierAppleSleepingBreathingDisturbance" sourceName="Watch" unit="count" startDate="2024-03-01 08:00:00 +0100" endDate="2024-03-01 08:00:00 +0100" value="2"/>
             <Record type="HKQuantityTypeIdentifierWaterSkiDistance" sourceName="Watch" unit="m" startDate="2024-03-01 08:00:00 +0100" endDate="2024-03-01 09:00:00 +0100" value="1200"/>
             <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Watch" startDate="2024-03-01 00:00:00 +0100" endDate="2024-03-01 07:00:00 +0100" value="1"/>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Watch" unit="count" startDate="2024-03-01 08:00:00 +0100" endDate="2024-03-01 09:00:00 +0100" value="-3"/>
            </HealthData>

            """
        try xml.write(toFile: export, atomically: true, encoding: .utf8)
        let store = dir.file("store")
        let result = try HealthLogBinary.run(["--store", store, "import", export])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("note: type HKQuantityTypeIdentifierAppleSleepingBreathingDisturbance is not one healthlog knows"), "a near miss of AppleSleepingBreathingDisturbances: \(result.stderr)")
        #expect(result.stderr.contains("note: type HKQuantityTypeIdentifierWaterSkiDistance is not one healthlog knows"))
        #expect(result.stderr.contains("must not be negative"), "a negative step count is not mapped, with the reason: \(result.stderr)")
        #expect(result.stderr.contains("healthlog: added 3,"))
        let sleep = try HealthLogBinary.run(["--store", store, "export", "--type", "SleepAnalysis"]).stdout
        #expect(sleep.contains(#""value":"HKCategoryValueSleepAnalysisAsleepUnspecified""#))
    }
}

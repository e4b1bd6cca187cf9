import Foundation
import HealthLogTestSupport
import Testing

/// `healthlog export`: the live samples as they stand, in NDJSON that another store takes
/// as input, or CSV.
@Suite("export")
struct ExportCLITests {
    private static let events = """
        {"uuid":"00000000-0000-4000-8000-000000000001","type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T08:00:00+01:00","value":61,"unit":"count/min","source":"Watch"}
        {"uuid":"00000000-0000-4000-8000-000000000002","type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T09:00:00Z","value":62,"unit":"count/min"}
        {"uuid":"00000000-0000-4000-8000-000000000003","type":"HKCategoryTypeIdentifierSleepAnalysis","start":"2024-03-01T23:00:00Z","end":"2024-03-02T06:00:00Z","value":"HKCategoryValueSleepAnalysisAsleepCore"}
        {"op":"delete","uuid":"00000000-0000-4000-8000-000000000002"}

        """

    @Test("NDJSON export holds exactly the live samples, and appended to a new store exports the same samples (with new seqs)")
    func roundTrip() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let first = dir.file("first")
        let second = dir.file("second")
        #expect(try HealthLogBinary.run(["--store", first, "append"], stdin: Self.events).status == 0)
        let exported = try HealthLogBinary.run(["--store", first, "export"])
        #expect(exported.status == 0)
        let uuids = exported.stdout.split(separator: "\n").map { $0.contains("000000000001") ? 1 : $0.contains("000000000003") ? 3 : 0 }
        #expect(uuids == [1, 3])
        #expect(!exported.stdout.contains("\"op\":\"delete\""))
        #expect(try HealthLogBinary.run(["--store", second, "append"], stdin: exported.stdout).status == 0)
        func withoutSeq(_ text: String) -> [Substring] { text.split(separator: "\n").map { $0.drop { $0 != "," } } }
        #expect(withoutSeq(try HealthLogBinary.run(["--store", second, "export"]).stdout) == withoutSeq(exported.stdout))
    }

    @Test("CSV export with a type filter and a predicate")
    func csvWithPredicate() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        #expect(try HealthLogBinary.run(["--store", store, "append"], stdin: Self.events).status == 0)
        let result = try HealthLogBinary.run(["--store", store, "export", "--type", "HeartRate", "--source", "Watch", "--format", "csv"])
        #expect(result.stdout == """
            seq,op,uuid,type,start,startOffset,localStart,end,endOffset,value,unit,category,source,sourceVersion,device,metadata,activity,duration,totals,objects
            1,add,00000000-0000-4000-8000-000000000001,HKQuantityTypeIdentifierHeartRate,2024-03-01T07:00:00.000000Z,+01:00,2024-03-01 08:00:00.000000,2024-03-01T07:00:00.000000Z,+01:00,61,count/min,,Watch,,,,,,,

            """)
    }

    @Test("CSV and NDJSON rows: a category's value in its own column, the numeric value column empty, UTC instants beside the recorded offsets")
    func categoryRows() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        #expect(try HealthLogBinary.run(["--store", store, "append"], stdin: Self.events).status == 0)
        let csv = try HealthLogBinary.run(["--store", store, "export", "--type", "SleepAnalysis", "--format", "csv"])
        #expect(csv.stdout.split(separator: "\n").last == "3,add,00000000-0000-4000-8000-000000000003,HKCategoryTypeIdentifierSleepAnalysis,2024-03-01T23:00:00.000000Z,+00:00,2024-03-01 23:00:00.000000,2024-03-02T06:00:00.000000Z,+00:00,,,HKCategoryValueSleepAnalysisAsleepCore,,,,,,,,")
        let rows = try HealthLogBinary.run(["--store", store, "export", "--format", "ndjson-rows"])
        #expect(rows.status == 0)
        let lines = rows.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix(#"{"seq":1,"op":"add","uuid":"00000000-0000-4000-8000-000000000001","type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T07:00:00.000000Z","startOffset":"+01:00","localStart":"2024-03-01 08:00:00.000000","end":"2024-03-01T07:00:00.000000Z","endOffset":"+01:00","value":61,"unit":"count/min","category":null,"source":"Watch""#))
        #expect(lines[1].contains(#""value":null,"unit":null,"category":"HKCategoryValueSleepAnalysisAsleepCore""#))
        let replayed = try HealthLogBinary.run(["--store", store, "replay", "--raw", "--format", "csv"])
        #expect(replayed.stdout.contains("\n4,delete,00000000-0000-4000-8000-000000000002,HKQuantityTypeIdentifierHeartRate,2024-03-01T09:00:00.000000Z,+00:00,2024-03-01 09:00:00.000000,"))
    }
}

/// `healthlog export --partition`: many people's samples in one Hive-style directory.
@Suite("export --partition")
struct PartitionCLITests {
    /// The live count per full type identifier that `stats` prints.
    private static func statsCounts(_ store: String) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for line in try HealthLogBinary.run(["--store", store, "stats"]).stdout.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count > 1, parts[0].hasPrefix("HK"), let live = Int(parts[1]), live > 0 { counts[String(parts[0])] = live }
        }
        return counts
    }

    @Test("Three stores exported into one directory: rows per person and type equal each store's stats, in type=/year= partitions with a person column")
    func threePeople() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let lake = dir.file("lake")
        let samples = PackageFiles.path("Samples")
        var expected: [String: Int] = [:]
        for (person, files) in [("alice", ["week-1.ndjson"]), ("bob", ["week-1.ndjson", "week-2.ndjson"]), ("carol", ["edits.ndjson"])] {
            let store = dir.file(person)
            #expect(try HealthLogBinary.run(["--store", store, "append"] + files.map { samples + "/" + $0 }).status == 0)
            let result = try HealthLogBinary.run(["--store", store, "export", "--partition", lake, "--person", person])
            #expect(result.status == 0, "\(result.stderr)")
            for (type, count) in try Self.statsCounts(store) {
                let short = ["HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier", "HKCorrelationTypeIdentifier"].reduce(type) { $0.hasPrefix($1) ? String($0.dropFirst($1.count)) : $0 }
                expected["\(person) \(short == "HKWorkoutTypeIdentifier" ? "Workout" : short)"] = count
            }
        }
        var got: [String: Int] = [:]
        let fm = FileManager.default
        for typeDirectory in try fm.contentsOfDirectory(atPath: lake) {
            #expect(typeDirectory.hasPrefix("type="))
            for year in try fm.contentsOfDirectory(atPath: lake + "/" + typeDirectory) {
                #expect(year.count == 9 && year.hasPrefix("year="))
                for file in try fm.contentsOfDirectory(atPath: lake + "/" + typeDirectory + "/" + year) {
                    let text = try String(contentsOfFile: lake + "/" + typeDirectory + "/" + year + "/" + file, encoding: .utf8)
                    let lines = text.split(separator: "\n")
                    #expect(lines.first == "person,seq,op,uuid,start,startOffset,localStart,end,endOffset,value,unit,recordedValue,recordedUnit,category,source,sourceVersion,device,metadata,activity,duration,totals,objects")
                    let person = String(file.dropLast(4))
                    for line in lines.dropFirst() {
                        #expect(line.hasPrefix(person + ","))
                        #expect(line.split(separator: ",")[4].hasPrefix(year.dropFirst(5)), "year partition from the UTC start")
                    }
                    got["\(person) \(typeDirectory.dropFirst(5))", default: 0] += lines.count - 1
                }
            }
        }
        #expect(got == expected)
    }

    /// The `value` cells of every CSV file under `directory`, with the person each row is of.
    private static func values(under directory: String, column: String = "value") throws -> [(person: String, value: Double)] {
        var values: [(String, Double)] = []
        for year in try FileManager.default.contentsOfDirectory(atPath: directory) {
            for file in try FileManager.default.contentsOfDirectory(atPath: directory + "/" + year) {
                let lines = try String(contentsOfFile: directory + "/" + year + "/" + file, encoding: .utf8).split(separator: "\n")
                let index = try #require(lines.first?.split(separator: ",", omittingEmptySubsequences: false).firstIndex(of: Substring(column)))
                for line in lines.dropFirst() {
                    let cells = line.split(separator: ",", omittingEmptySubsequences: false)
                    values.append((String(cells[0]), try #require(Double(cells[index]))))
                }
            }
        }
        return values
    }

    @Test("Two people who recorded heart rate in count/s and in count/min: the partitions hold count/min, so the mean over both is the count/min mean; the recorded value and unit stay beside it")
    func oneUnitPerType() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let lake = dir.file("lake")
        let alice = dir.file("alice")
        let bob = dir.file("bob")
        for (store, value, unit, day) in [(alice, "1.21667", "count/s", "04"), (alice, "1.03333", "count/s", "05"), (bob, "70", "count/min", "04"), (bob, "80", "count/min", "05")] {
            #expect(try HealthLogBinary.run(["--store", store, "add", "--type", "HeartRate", "--value", value, "--unit", unit, "--start", "2024-03-\(day)T08:00:00Z"]).status == 0)
        }
        #expect(try HealthLogBinary.run(["--store", alice, "export", "--partition", lake, "--person", "alice"]).status == 0)
        #expect(try HealthLogBinary.run(["--store", bob, "export", "--partition", lake, "--person", "bob"]).status == 0)
        let values = try Self.values(under: lake + "/type=HeartRate")
        #expect(values.count == 4)
        let mean = values.map(\.value).reduce(0, +) / Double(values.count)
        #expect(abs(mean - 71.25) < 1e-9, "the mean of 73.0002, 61.9998, 70 and 80 count/min, not of 1.2 count/s and 75 count/min")
        let aliceFile = try String(contentsOfFile: lake + "/type=HeartRate/year=2024/alice.csv", encoding: .utf8)
        #expect(aliceFile.contains(",73.0002,count/min,1.21667,count/s,") && aliceFile.contains(",61.9998,count/min,1.03333,count/s,"), "\(aliceFile)")
        let recorded = try Self.values(under: lake + "/type=HeartRate", column: "recordedValue").filter { $0.person == "alice" }.map(\.value).sorted()
        #expect(recorded == [1.03333, 1.21667])

        let rows = try HealthLogBinary.run(["--store", bob, "export", "--partition", lake, "--person", "bob", "--type", "HeartRate", "--unit", "count/s", "--format", "ndjson-rows"])
        #expect(rows.status == 0, "\(rows.stderr)")
        let bobRows = try String(contentsOfFile: lake + "/type=HeartRate/year=2024/bob.ndjson", encoding: .utf8)
        #expect(bobRows.contains(#""value":1.16666666666667,"unit":"count/s","recordedValue":70,"recordedUnit":"count/min""#), "\(bobRows)")
    }

    @Test("--unit with --partition takes one quantity type and a unit it converts to; otherwise exit 2 and nothing written", arguments: [
        ["--unit", "count/s"], ["--unit", "count/s", "--type", "HeartRate", "--type", "StepCount"], ["--unit", "kg", "--type", "HeartRate"],
        ["--unit", "s", "--type", "SleepAnalysis"],
    ])
    func unitNeedsOneType(options: [String]) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        let lake = dir.file("lake")
        #expect(try HealthLogBinary.run(["--store", store, "add", "--type", "HeartRate", "--value", "60", "--unit", "count/min", "--start", "2024-03-04T08:00:00Z"]).status == 0)
        let result = try HealthLogBinary.run(["--store", store, "export", "--partition", lake] + options)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: lake + "/type=HeartRate"))
    }

    @Test("Exporting a person again replaces their files and removes the ones no sample needs; other people's files stay")
    func reExport() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let lake = dir.file("lake")
        let store = dir.file("store")
        let other = lake + "/type=HeartRate/year=2024/zoe.csv"
        #expect(try HealthLogBinary.run(["--store", store, "add", "--type", "HeartRate", "--value", "60", "--unit", "count/min", "--start", "2023-05-01T08:00:00Z"]).status == 0)
        let uuid = try HealthLogBinary.run(["--store", store, "add", "--type", "HeartRate", "--value", "61", "--unit", "count/min", "--start", "2024-05-01T08:00:00Z"]).stdout.split(separator: "\n")[0]
        #expect(try HealthLogBinary.run(["--store", store, "export", "--partition", lake, "--person", "ann"]).stdout == "type=HeartRate/year=2023/ann.csv\ntype=HeartRate/year=2024/ann.csv\n")
        try "person\nzoe\n".write(toFile: other, atomically: true, encoding: .utf8)
        #expect(try HealthLogBinary.run(["--store", store, "delete", String(uuid)]).status == 0)
        let again = try HealthLogBinary.run(["--store", store, "export", "--partition", lake, "--person", "ann", "--format", "NDJSON-Rows"])
        #expect(again.stdout == "type=HeartRate/year=2023/ann.ndjson\n")
        #expect(again.stderr.contains("removed 2 stale files"))
        #expect(!FileManager.default.fileExists(atPath: lake + "/type=HeartRate/year=2024/ann.csv"))
        #expect(FileManager.default.fileExists(atPath: other))
        let mode = try FileManager.default.attributesOfItem(atPath: lake + "/type=HeartRate/year=2023/ann.ndjson")[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try HealthLogBinary.run(["--store", store, "export", "--partition", lake, "--person", "../x"]).status == 2)
        #expect(try HealthLogBinary.run(["--store", store, "export", "--partition", lake, "--format", "ndjson"]).status == 2)
    }
}

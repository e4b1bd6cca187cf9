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
            seq,op,uuid,type,start,startOffset,end,endOffset,value,unit,category,source,sourceVersion,device,metadata,activity,duration,totals,objects
            1,add,00000000-0000-4000-8000-000000000001,HKQuantityTypeIdentifierHeartRate,2024-03-01T07:00:00.000000Z,+01:00,2024-03-01T07:00:00.000000Z,+01:00,61,count/min,,Watch,,,,,,,

            """)
    }

    @Test("CSV and NDJSON rows: a category's value in its own column, the numeric value column empty, UTC instants beside the recorded offsets")
    func categoryRows() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        #expect(try HealthLogBinary.run(["--store", store, "append"], stdin: Self.events).status == 0)
        let csv = try HealthLogBinary.run(["--store", store, "export", "--type", "SleepAnalysis", "--format", "csv"])
        #expect(csv.stdout.split(separator: "\n").last == "3,add,00000000-0000-4000-8000-000000000003,HKCategoryTypeIdentifierSleepAnalysis,2024-03-01T23:00:00.000000Z,+00:00,2024-03-02T06:00:00.000000Z,+00:00,,,HKCategoryValueSleepAnalysisAsleepCore,,,,,,,,")
        let rows = try HealthLogBinary.run(["--store", store, "export", "--format", "ndjson-rows"])
        #expect(rows.status == 0)
        let lines = rows.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix(#"{"seq":1,"op":"add","uuid":"00000000-0000-4000-8000-000000000001","type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T07:00:00.000000Z","startOffset":"+01:00","end":"2024-03-01T07:00:00.000000Z","endOffset":"+01:00","value":61,"unit":"count/min","category":null,"source":"Watch""#))
        #expect(lines[1].contains(#""value":null,"unit":null,"category":"HKCategoryValueSleepAnalysisAsleepCore""#))
        let replayed = try HealthLogBinary.run(["--store", store, "replay", "--raw", "--format", "csv"])
        #expect(replayed.stdout.contains("\n4,delete,00000000-0000-4000-8000-000000000002,HKQuantityTypeIdentifierHeartRate,2024-03-01T09:00:00.000000Z,+00:00,"))
    }
}

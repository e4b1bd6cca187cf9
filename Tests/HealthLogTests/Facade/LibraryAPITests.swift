import HealthLogTestSupport
import Testing
@testable import HealthLog

/// The HealthKit-shaped library API: samples of every kind survive a save and come back
/// from a query with every field; misuse of a query is refused as HealthKit refuses it.
@Suite("Library API")
struct LibraryAPITests {
    private static let t0 = Timestamp(iso8601: "2024-03-01T08:00:00.250+01:00")!
    private static let t1 = Timestamp(iso8601: "2024-03-01T09:30:00Z")!

    @Test("Every kind of sample saved comes back from a query with the same fields, offsets and metadata types kept")
    func samplesRoundTrip() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        let fields = SampleFields(
            start: Self.t0, end: Self.t1, source: "Simon’s \"Watch\"", sourceVersion: "10.2", device: "Watch6,7",
            metadata: ["HKWasUserEntered": true, "HKMetadataKeyHeartRateMotionContext": 1, "note": "a\nb\\c \u{1F600}", "ratio": 0.25])
        let systolic = QuantitySample(type: .quantity("BloodPressureSystolic"), quantity: Quantity(120, "mmHg"), fields: SampleFields(start: Self.t0))
        let diastolic = QuantitySample(type: .quantity("BloodPressureDiastolic"), quantity: Quantity(80.5, "mmHg"), fields: SampleFields(start: Self.t0))
        let saved: [any Sample] = [
            QuantitySample(type: .quantity("HeartRate"), quantity: Quantity(72.5, "count/min"), fields: fields),
            CategorySample(type: .category("SleepAnalysis"), value: .name("HKCategoryValueSleepAnalysisAsleepCore"), fields: SampleFields(start: Self.t0, end: Self.t1)),
            CategorySample(type: .category("AppleStandHour"), value: .integer(1), fields: SampleFields(start: Self.t0)),
            WorkoutSample(activity: "HKWorkoutActivityTypeRunning", duration: 1800, totals: ["energy": Quantity(250, "kcal"), "distance": Quantity(5.1, "km")], fields: SampleFields(start: Self.t0, end: Self.t1)),
            systolic, diastolic,
            CorrelationSample(type: .correlation("BloodPressure"), objects: [systolic.uuid, diastolic.uuid], fields: SampleFields(start: Self.t0)),
            OtherSample(type: SampleType("HKCharacteristicTypeIdentifierBloodType")!, value: "HKBloodTypeAPositive", fields: SampleFields(start: Self.t1)),
        ]
        let anchor = try store.save(saved)
        let result = try store.result(ReplayRequest())
        #expect(result.newAnchor == anchor)
        #expect(result.deletedObjects.isEmpty)
        try #require(result.addedSamples.count == saved.count)
        for (got, want) in zip(result.addedSamples, saved) {
            #expect(got.fields == want.fields)
        }
        for (got, want) in zip(result.addedSamples, saved).enumerated().filter({ $0.offset != 2 }).map(\.element) {
            #expect(got.description == want.description)
        }
        let beat = try #require(result.addedSamples[0] as? QuantitySample)
        #expect(beat.start.offsetMinutes == 60 && beat.start.microseconds == Self.t0.microseconds)
        #expect(beat.metadata["HKWasUserEntered"] == .bool(true))
        #expect(beat.metadata["note"] == .string("a\nb\\c \u{1F600}"))
        #expect(beat.source == "Simon’s \"Watch\"")
        #expect((result.addedSamples[1] as? CategorySample)?.value.integerValue == 3)
        #expect((result.addedSamples[2] as? CategorySample)?.value == .name("HKCategoryValueAppleStandHourIdle"), "a known category's value is stored as its constant's name")
        #expect((result.addedSamples[3] as? WorkoutSample)?.totals["distance"] == Quantity(5.1, "km"))
        #expect((result.addedSamples[6] as? CorrelationSample)?.objects == [systolic.uuid, diastolic.uuid])
        #expect((result.addedSamples[7] as? OtherSample)?.value == .string("HKBloodTypeAPositive"))
    }

    @Test("delete(_:) turns samples into deleted objects that carry type, dates, source, device and sync metadata only")
    func deletedObjects() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        let sample = QuantitySample(
            type: .quantity("StepCount"), quantity: Quantity(100, "count"),
            fields: SampleFields(start: Self.t0, end: Self.t1, source: "iPhone", device: "iPhone12,1",
                                 metadata: ["HKMetadataKeySyncIdentifier": "s-1", "HKMetadataKeySyncVersion": 3, "other": "x"]))
        let before = try store.save([sample])
        try store.delete([sample])
        let result = try store.result(ReplayRequest(anchor: before))
        #expect(result.addedSamples.isEmpty)
        let gone = try #require(result.deletedObjects.first)
        #expect(gone == DeletedObject(
            uuid: sample.uuid, sampleType: .quantity("StepCount"), start: Self.t0, end: Self.t1, source: "iPhone", device: "iPhone12,1",
            metadata: ["HKMetadataKeySyncIdentifier": "s-1", "HKMetadataKeySyncVersion": 3]))
        #expect(throws: HealthLogError.self) { try store.delete([SampleUUID]()) }
    }

    @Test("A query with both a limit and an update handler, or executed twice, is refused with badUsage")
    func queryMisuse() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        let limited = AnchoredObjectQuery(type: nil, predicate: nil, anchor: nil, limit: 10) { _, _, _, _, _ in }
        limited.updateHandler = { _, _, _, _, _ in }
        let error = #expect(throws: HealthLogError.self) { try store.execute(limited) }
        #expect(error?.code == .badUsage)
        let once = AnchoredObjectQuery(type: nil, predicate: nil, anchor: nil, limit: 0) { _, _, _, _, _ in }
        try store.execute(once)
        #expect(throws: HealthLogError.self) { try store.execute(once) }
    }

    @Test("Setting the update handler after execute traps, as HealthKit raises")
    func lateUpdateHandler() async {
        await #expect(processExitsWith: .failure) {
            let query = AnchoredObjectQuery(type: nil, predicate: nil, anchor: nil, limit: 0) { _, _, _, _, _ in }
            try? HealthStore(directory: "/nonexistent/healthlog-test").execute(query)
            query.updateHandler = { _, _, _, _, _ in }
        }
    }

    @Test("--where expressions parse with or without blanks; a bad one names its column and token", arguments: [
        ("value > 100", ComparisonOperator.greaterThan, 100.0), ("value>=7.5", .greaterThanOrEqual, 7.5),
        ("  value != -1e3 ", .notEqual, -1000.0), ("value<0", .lessThan, 0), ("value == 72", .equal, 72), ("value <= 1", .lessThanOrEqual, 1),
    ])
    func whereExpressions(_ text: String, _ op: ComparisonOperator, _ number: Double) throws {
        #expect(try WhereExpression.parse(text) == .quantity(op, number))
    }

    @Test("A malformed --where expression is bad usage naming the bad token", arguments: [
        ("valu > 1", "unknown field at column 1 ('valu')"), ("value => 1", "unknown comparison at column 7 ('=>')"),
        ("value 1", "expected a comparison at column 7 ('1')"), ("value > abc", "not a number at column 9 ('abc')"),
        ("value >", "expected a number at column 8 ('end of expression')"), ("value > 1 and", "unexpected text at column 11 ('and')"),
        ("value > 01", "not a number at column 9 ('01')"),
    ])
    func badWhereExpressions(_ text: String, _ reason: String) {
        let error = #expect(throws: HealthLogError.self) { try WhereExpression.parse(text) }
        #expect(error?.code == .badUsage)
        #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
    }

    @Test("CSV rows quote commas, quotes and line breaks, and keep metadata as JSON text")
    func csvRows() throws {
        let line = #"{"seq":7,"op":"add","uuid":"0D4A1F9C-5E3B-4C61-9B57-2A1E4F8C7D10","type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T08:00:00+01:00","end":"2024-03-01T08:00:00+01:00","value":72,"unit":"count/min","source":"Simon's, \"Watch\"","metadata":{"k":"a\nb","n":1.50}}"# + "\n"
        let row = try Array(line.utf8).withUnsafeBytes { try EventCSV.row($0) }
        #expect(row == "7,add,0D4A1F9C-5E3B-4C61-9B57-2A1E4F8C7D10,HKQuantityTypeIdentifierHeartRate,2024-03-01T07:00:00.000000Z,+01:00,2024-03-01 08:00:00.000000,2024-03-01T07:00:00.000000Z,+01:00,72,count/min,,\"Simon's, \"\"Watch\"\"\",,,\"{\"\"k\"\":\"\"a\\nb\"\",\"\"n\"\":1.5}\",,,,\n")
    }

    @Test("A source version is text in CSV (after a v, so readers never type 2.2 or 118 as a number) and exact in NDJSON rows", arguments: ["2.2", "118", "10.20", "13.4.1"])
    func sourceVersionCells(_ version: String) throws {
        let line = #"{"seq":3,"op":"add","uuid":"0D4A1F9C-5E3B-4C61-9B57-2A1E4F8C7D10","type":"HKQuantityTypeIdentifierStepCount","start":"2024-03-01T08:00:00Z","end":"2024-03-01T09:00:00Z","value":12,"unit":"count","source":"iPhone","sourceVersion":"\#(version)"}"#
        let cells = try Array(line.utf8).withUnsafeBytes { try EventTable.cells($0) }
        let column = EventTable.columns.firstIndex(of: "sourceVersion")!
        #expect(EventTable.csvRow(cells).split(separator: ",", omittingEmptySubsequences: false)[column] == "v\(version)")
        #expect(EventTable.jsonRow(cells, names: EventTable.columns).contains(#""sourceVersion":"\#(version)","device""#))
    }

    @Test("JSON string escapes decode, surrogate pairs included")
    func stringEscapes() {
        let token = #""a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00""#
        let decoded = Array(token.utf8).withUnsafeBytes { JSONStringDecoder.decode($0) }
        #expect(decoded == "a\"b\\c/d\u{8}\u{C}\n\r\té\u{1F600}")
    }
}

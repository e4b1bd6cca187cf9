import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// The event line contract (`docs/events-and-queries.md`, "The event line"), exercised through `HealthStore.append(ndjson:)`:
/// every kind of bad input is refused with `.badInput` naming the line and the field and
/// leaves the store byte-identical; and the positive rules round-trip (UUID case, default
/// `end`, category names and integers, UTC offsets, fractional seconds, ignored `seq`,
/// replay output as append input, empty input, deletes inside one input, and what a
/// deleted object carries).
@Suite("Event lines")
struct EventLineTests {
    // MARK: Bad input

    /// One bad input: appended to the seeded store, it must fail on `line` naming `field`
    /// (`nil`: the line is malformed JSON, no field to name).
    struct BadInput: Sendable, CustomTestStringConvertible {
        let name: String
        let lines: [String]
        let line: Int
        let field: String?
        var testDescription: String { name }
    }

    static let badInputs: [BadInput] = [
        BadInput(name: "malformed JSON", lines: [fresh(1), #"{"type":"HKQuantityTypeIdentifierHeartRate","#], line: 2, field: nil),
        BadInput(name: "not an object", lines: [#"[1,2]"#], line: 1, field: nil),
        BadInput(name: "text after the object", lines: [fresh(1) + " x"], line: 1, field: nil),
        BadInput(name: "add without type", lines: [#"{"start":"2024-03-01T08:00:00Z","value":1,"unit":"count"}"#], line: 1, field: "type"),
        BadInput(name: "add without start", lines: [#"{"type":"\#(hr)","value":1,"unit":"count/min"}"#], line: 1, field: "start"),
        BadInput(name: "quantity without value", lines: [#"{"type":"\#(hr)","start":"\#(t0)","unit":"count/min"}"#], line: 1, field: "value"),
        BadInput(name: "quantity without unit", lines: [fresh(1), #"{"type":"\#(hr)","start":"\#(t0)","value":70}"#], line: 2, field: "unit"),
        BadInput(name: "quantity with a string value", lines: [#"{"type":"\#(hr)","start":"\#(t0)","value":"70","unit":"count/min"}"#], line: 1, field: "value"),
        BadInput(name: "category without value", lines: [#"{"type":"\#(sleep)","start":"\#(t0)"}"#], line: 1, field: "value"),
        BadInput(name: "category value not an integer", lines: [#"{"type":"\#(sleep)","start":"\#(t0)","value":1.5}"#], line: 1, field: "value"),
        BadInput(name: "workout without activity", lines: [#"{"type":"HKWorkoutTypeIdentifier","start":"\#(t0)","duration":60}"#], line: 1, field: "activity"),
        BadInput(name: "correlation without objects", lines: [#"{"type":"\#(bp)","start":"\#(t0)"}"#], line: 1, field: "objects"),
        BadInput(name: "delete without uuid", lines: [#"{"op":"delete","type":"\#(hr)"}"#], line: 1, field: "uuid"),
        BadInput(name: "unknown op", lines: [#"{"op":"remove","uuid":"\#(liveUUID)"}"#], line: 1, field: "op"),
        BadInput(name: "value of the wrong JSON type", lines: [#"{"type":"\#(hr)","start":"\#(t0)","value":true,"unit":"count/min"}"#], line: 1, field: "value"),
        BadInput(name: "start of the wrong JSON type", lines: [#"{"type":"\#(hr)","start":1709280000,"value":1,"unit":"count/min"}"#], line: 1, field: "start"),
        BadInput(name: "source of the wrong JSON type", lines: [#"{"type":"\#(hr)","start":"\#(t0)","value":1,"unit":"count/min","source":7}"#], line: 1, field: "source"),
        BadInput(name: "metadata of the wrong JSON type", lines: [#"{"type":"\#(hr)","start":"\#(t0)","value":1,"unit":"count/min","metadata":[1]}"#], line: 1, field: "metadata"),
        BadInput(name: "metadata value an object", lines: [#"{"type":"\#(hr)","start":"\#(t0)","value":1,"unit":"count/min","metadata":{"k":{}}}"#], line: 1, field: "metadata"),
        BadInput(name: "objects of the wrong JSON type", lines: [#"{"type":"\#(bp)","start":"\#(t0)","objects":"\#(liveUUID)"}"#], line: 1, field: "objects"),
        BadInput(name: "unknown top-level field", lines: [fresh(1), fresh(2), #"{"type":"\#(hr)","start":"\#(t0)","valeu":1,"value":1,"unit":"count/min"}"#], line: 3, field: "valeu"),
        BadInput(name: "field given twice", lines: [#"{"type":"\#(hr)","start":"\#(t0)","value":1,"value":2,"unit":"count/min"}"#], line: 1, field: "value"),
        BadInput(name: "malformed UUID", lines: [#"{"uuid":"0D4A1F9C-5E3B-4C61-9B57-2A1E4F8C7D1","type":"\#(hr)","start":"\#(t0)","value":1,"unit":"count/min"}"#], line: 1, field: "uuid"),
        BadInput(name: "UUID with a non-hex digit", lines: [#"{"uuid":"0D4A1F9C-5E3B-4C61-9B57-2A1E4F8C7D1G","type":"\#(hr)","start":"\#(t0)","value":1,"unit":"count/min"}"#], line: 1, field: "uuid"),
        BadInput(name: "malformed UUID in objects", lines: [#"{"type":"\#(bp)","start":"\#(t0)","objects":["nope"]}"#], line: 1, field: "objects"),
        BadInput(name: "date without offset", lines: [#"{"type":"\#(hr)","start":"2024-03-01T08:00:00","value":1,"unit":"count/min"}"#], line: 1, field: "start"),
        BadInput(name: "date with a space", lines: [#"{"type":"\#(hr)","start":"2024-03-01 08:00:00Z","value":1,"unit":"count/min"}"#], line: 1, field: "start"),
        BadInput(name: "impossible date", lines: [#"{"type":"\#(hr)","start":"2024-02-30T08:00:00Z","value":1,"unit":"count/min"}"#], line: 1, field: "start"),
        BadInput(name: "malformed end", lines: [#"{"type":"\#(hr)","start":"\#(t0)","end":"tomorrow","value":1,"unit":"count/min"}"#], line: 1, field: "end"),
        BadInput(name: "end before start", lines: [fresh(1), #"{"type":"\#(hr)","start":"\#(t0)","end":"2024-03-01T07:59:59.999Z","value":1,"unit":"count/min"}"#], line: 2, field: "end"),
        BadInput(name: "end before start across offsets", lines: [#"{"type":"\#(hr)","start":"2024-03-01T08:30:00Z","end":"2024-03-01T09:00:00+01:00","value":1,"unit":"count/min"}"#], line: 1, field: "end"),
        BadInput(name: "non-finite value", lines: [#"{"type":"\#(hr)","start":"\#(t0)","value":1e999,"unit":"count/min"}"#], line: 1, field: "value"),
        BadInput(name: "non-finite metadata number", lines: [#"{"type":"\#(hr)","start":"\#(t0)","value":1,"unit":"count/min","metadata":{"k":-1e999}}"#], line: 1, field: "metadata"),
        BadInput(name: "add with a UUID already in the store", lines: [#"{"uuid":"\#(liveUUID)","type":"\#(hr)","start":"\#(t0)","value":1,"unit":"count/min"}"#], line: 1, field: "uuid"),
        BadInput(name: "add with a stored UUID in lower case", lines: [fresh(1), #"{"uuid":"\#(liveUUID.lowercased())","type":"\#(hr)","start":"\#(t0)","value":1,"unit":"count/min"}"#], line: 2, field: "uuid"),
        BadInput(name: "add with a UUID earlier in the same input", lines: [fresh(1), fresh(2), fresh(1)], line: 3, field: "uuid"),
        BadInput(name: "add with the UUID of a deleted sample", lines: [#"{"uuid":"\#(deletedUUID)","type":"\#(hr)","start":"\#(t0)","value":1,"unit":"count/min"}"#], line: 1, field: "uuid"),
        BadInput(name: "delete of an unknown UUID", lines: [#"{"op":"delete","uuid":"\#(uuid(99))"}"#], line: 1, field: "uuid"),
        BadInput(name: "delete of a deleted sample", lines: [fresh(1), #"{"op":"delete","uuid":"\#(deletedUUID)"}"#], line: 2, field: "uuid"),
        BadInput(name: "second delete in the same input", lines: [#"{"op":"delete","uuid":"\#(liveUUID)"}"#, #"{"op":"delete","uuid":"\#(liveUUID)"}"#], line: 2, field: "uuid"),
        BadInput(name: "delete naming the wrong type", lines: [#"{"op":"delete","uuid":"\#(liveUUID)","type":"\#(sleep)"}"#], line: 1, field: "type"),
        BadInput(name: "sync identifier without version", lines: [#"{"type":"\#(hr)","start":"\#(t0)","value":1,"unit":"count/min","metadata":{"HKMetadataKeySyncIdentifier":"x"}}"#], line: 1, field: "metadata"),
        BadInput(name: "correlation of stored samples", lines: [#"{"type":"\#(bp)","start":"\#(t0)","objects":["\#(liveUUID)"]}"#], line: 1, field: "objects"),
        BadInput(name: "correlation of samples never added", lines: [fresh(1), #"{"type":"\#(bp)","start":"\#(t0)","objects":["\#(uuid(1))","\#(uuid(98))"]}"#, fresh(2)], line: 2, field: "objects"),
    ]

    @Test("Bad input is refused naming the line and field, and writes nothing", arguments: badInputs)
    func badInputIsRefused(_ bad: BadInput) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try Self.seededStore(dir)
        let before = try storeBytes(store.directory)
        let head = try store.headAnchor()
        let error = try #require(throws: HealthLogError.self) {
            try store.append(ndjson: ndjson(bad.lines))
        }
        #expect(error.code == .badInput)
        #expect(error.message.hasPrefix("line \(bad.line): "), "\(error.message)")
        if let field = bad.field {
            #expect(error.message.contains("'\(field)'"), "\(error.message)")
        } else {
            #expect(error.message.contains("malformed JSON"), "\(error.message)")
        }
        #expect(try storeBytes(store.directory) == before)
        #expect(try store.headAnchor() == head)
    }

    @Test("Bad input into a directory with no store leaves no store behind")
    func badInputCreatesNoStore() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"), options: Self.options)
        #expect(throws: HealthLogError.self) { try store.append(ndjson: ndjson([fresh(1), #"{"op":"delete","uuid":"\#(uuid(5))"}"#])) }
        #expect(!store.exists)
        #expect(!FileManager.default.fileExists(atPath: dir.file("store")))
    }

    // MARK: Round trips

    @Test("A UUID is accepted in any case and comes back upper case")
    func uuidCase() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"), options: Self.options)
        let lower = "0d4a1f9c-5e3b-4c61-9b57-2a1e4f8c7d10"
        _ = try store.append(ndjson: ndjson([#"{"uuid":"\#(lower)","type":"\#(hr)","start":"\#(t0)","value":72,"unit":"count/min"}"#]))
        let mixed = "0D4a1f9C-5e3B-4c61-9B57-2a1E4f8C7d10"
        let summary = try store.append(ndjson: ndjson([#"{"op":"delete","uuid":"\#(mixed)"}"#]))
        #expect(summary.deleted == 1)
        let events = try replay(store, raw: true)
        #expect(events.map { $0["uuid"] as? String } == [lower.uppercased(), lower.uppercased()])
    }

    @Test("end defaults to start")
    func endDefaultsToStart() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"), options: Self.options)
        _ = try store.append(ndjson: ndjson([#"{"type":"\#(hr)","start":"2024-03-01T09:15:00+01:00","value":72,"unit":"count/min"}"#]))
        let event = try #require(try replay(store).first)
        let start = try #require(Timestamp(iso8601: event["start"] as? String ?? ""))
        let end = try #require(Timestamp(iso8601: event["end"] as? String ?? ""))
        #expect(end.microseconds == start.microseconds && end.offsetMinutes == start.offsetMinutes)
    }

    @Test("A known category type's value, given as a name, a short name or an integer, is stored as the constant's full name")
    func categoryValues() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"), options: Self.options)
        _ = try store.append(ndjson: ndjson([
            #"{"type":"\#(sleep)","start":"\#(t0)","end":"2024-03-01T09:00:00Z","value":"HKCategoryValueSleepAnalysisAsleepCore"}"#,
            #"{"type":"\#(sleep)","start":"\#(t0)","end":"2024-03-01T09:00:00Z","value":3}"#,
            #"{"type":"\#(sleep)","start":"\#(t0)","end":"2024-03-01T09:00:00Z","value":"asleepCore"}"#,
            #"{"type":"HKCategoryTypeIdentifierNewInIOS30","start":"\#(t0)","value":3}"#,
        ]))
        var lines: [String] = []
        _ = try store.replay(ReplayRequest()) { lines.append(String(decoding: $0, as: UTF8.self)) }
        let events = try lines.map(parse)
        #expect(events[0..<3].map { $0["value"] as? String } == Array(repeating: "HKCategoryValueSleepAnalysisAsleepCore", count: 3))
        #expect(events[3]["value"] is NSNumber && (events[3]["value"] as? Int) == 3, "a type healthlog does not know keeps its value as given")
        #expect(lines[3].contains(#""value":3,"#) || lines[3].contains(#""value":3}"#))
    }

    @Test("Instants keep their UTC offset and fractional seconds, in samples and deleted objects", arguments: [
        "2024-03-01T09:00:00+01:00", "2024-03-01T02:30:00-05:30", "2024-03-01T08:00:00.123Z",
        "2024-03-01T08:00:00.5+00:00", "2024-03-01T08:00:00.123456+02:00", "2024-02-29T23:59:59.999-0100",
    ])
    func instantsRoundTrip(_ text: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"), options: Self.options)
        let given = try #require(Timestamp(iso8601: text))
        _ = try store.append(ndjson: ndjson([#"{"uuid":"\#(uuid(1))","type":"\#(hr)","start":"\#(text)","end":"\#(text)","value":60,"unit":"count/min"}"#]))
        _ = try store.append(ndjson: ndjson([#"{"op":"delete","uuid":"\#(uuid(1))"}"#]))
        for event in try replay(store, raw: true) {
            for key in ["start", "end"] {
                let back = try #require(Timestamp(iso8601: event[key] as? String ?? ""), "\(event)")
                #expect(back.microseconds == given.microseconds, "\(key) of \(event)")
                #expect(back.offsetMinutes == given.offsetMinutes, "\(key) of \(event)")
            }
        }
    }

    @Test("seq on input is accepted and ignored")
    func seqIgnored() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"), options: Self.options)
        let summary = try store.append(ndjson: ndjson([
            #"{"seq":999,"op":"add","uuid":"\#(uuid(1))","type":"\#(hr)","start":"\#(t0)","value":60,"unit":"count/min"}"#,
            #"{"seq":1,"op":"add","uuid":"\#(uuid(2))","type":"\#(hr)","start":"\#(t0)","value":61,"unit":"count/min"}"#,
        ]))
        #expect(summary.added == 2 && summary.anchor.seq == 2)
        #expect(try replay(store).map { $0["seq"] as? Int } == [1, 2])
    }

    @Test("An empty input is a valid append that changes nothing", arguments: ["", "\n", "\n  \n\t\n", "\r\n"])
    func emptyInput(_ text: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let fresh = HealthStore(directory: dir.file("fresh"), options: Self.options)
        let first = try fresh.append(ndjson: Array(text.utf8))
        #expect(first.added + first.deleted + first.replaced + first.skipped == 0)
        #expect(first.anchor.seq == 0)
        #expect(!fresh.exists)

        let store = try Self.seededStore(dir)
        let before = try storeBytes(store.directory)
        let head = try store.headAnchor()
        let summary = try store.append(ndjson: Array(text.utf8))
        #expect(summary.added + summary.deleted + summary.replaced + summary.skipped == 0)
        #expect(summary.anchor == head)
        #expect(try storeBytes(store.directory) == before)
    }

    @Test("A delete may target a sample added earlier in the same input")
    func deleteInSameInput() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"), options: Self.options)
        let summary = try store.append(ndjson: ndjson([fresh(1), fresh(2), #"{"op":"delete","uuid":"\#(uuid(1))"}"#]))
        #expect(summary.added == 2 && summary.deleted == 1 && summary.anchor.seq == 3)
        #expect(try replay(store).map { "\($0["op"]!) \($0["uuid"]!)" } == ["add \(uuid(2))", "delete \(uuid(1))"])
        #expect(try replay(store, raw: true).map { $0["seq"] as? Int } == [1, 2, 3])
    }

    @Test("A delete line may carry the copied fields, as replay writes them")
    func deleteWithCopiedFields() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"), options: Self.options)
        _ = try store.append(ndjson: ndjson([Self.syncedSample]))
        let line = #"{"seq":7,"op":"delete","uuid":"\#(uuid(1).lowercased())","type":"\#(hr)","start":"\#(t0)","end":"2024-03-01T08:01:00Z","source":"Apple Watch","device":"Watch7,1","metadata":{"HKMetadataKeySyncIdentifier":"hr-1","HKMetadataKeySyncVersion":3}}"#
        let summary = try store.append(ndjson: ndjson([line]))
        #expect(summary.deleted == 1 && summary.anchor.seq == 2)
    }

    @Test("A deleted object carries type, dates, source, device and the sync identifier and version")
    func deletedObjectFields() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"), options: Self.options)
        _ = try store.append(ndjson: ndjson([Self.syncedSample]))
        _ = try store.append(ndjson: ndjson([#"{"op":"delete","uuid":"\#(uuid(1))"}"#]))
        let deleted = try #require(try replay(store).first)
        #expect(deleted["op"] as? String == "delete")
        #expect(deleted["uuid"] as? String == uuid(1))
        #expect(deleted["type"] as? String == hr)
        #expect(Timestamp(iso8601: deleted["start"] as? String ?? "")?.microseconds == Timestamp(iso8601: t0)?.microseconds)
        #expect(Timestamp(iso8601: deleted["end"] as? String ?? "")?.microseconds == Timestamp(iso8601: "2024-03-01T08:01:00Z")?.microseconds)
        #expect(deleted["source"] as? String == "Apple Watch")
        #expect(deleted["device"] as? String == "Watch7,1")
        let metadata = try #require(deleted["metadata"] as? [String: Any])
        #expect(metadata["HKMetadataKeySyncIdentifier"] as? String == "hr-1")
        #expect((metadata["HKMetadataKeySyncVersion"] as? NSNumber)?.intValue == 3)
        #expect(deleted["value"] == nil && deleted["unit"] == nil)
    }

    @Test("replay --raw output appended into another store reproduces the same events")
    func rawReplayCopiesAStore() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try Self.seededStore(dir)
        _ = try store.append(ndjson: ndjson([
            Self.syncedSample.replacingOccurrences(of: uuid(1), with: uuid(20)),
            #"{"uuid":"\#(uuid(21))","type":"\#(hr)","start":"\#(t0)","value":2,"unit":"count/min","metadata":{"HKMetadataKeySyncIdentifier":"hr-1","HKMetadataKeySyncVersion":4}}"#,
            #"{"uuid":"\#(uuid(22))","type":"\#(hr)","start":"\#(t0)","value":3,"unit":"count/min","metadata":{"HKMetadataKeySyncIdentifier":"hr-1","HKMetadataKeySyncVersion":4}}"#,
            #"{"type":"HKQuantityTypeIdentifierBloodPressureSystolic","uuid":"\#(uuid(23))","start":"\#(t0)","value":120,"unit":"mmHg"}"#,
            #"{"type":"HKQuantityTypeIdentifierBloodPressureDiastolic","uuid":"\#(uuid(24))","start":"\#(t0)","value":80,"unit":"mmHg"}"#,
            #"{"type":"\#(bp)","uuid":"\#(uuid(25))","start":"\#(t0)","objects":["\#(uuid(23))","\#(uuid(24))"]}"#,
            #"{"type":"HKWorkoutTypeIdentifier","start":"\#(t0)","end":"2024-03-01T09:30:00+01:00","activity":"HKWorkoutActivityTypeRunning","duration":1800,"totals":{"energy":{"value":250,"unit":"kcal"}}}"#,
            #"{"type":"\#(sleep)","start":"\#(t0)","value":"HKCategoryValueSleepAnalysisAsleepCore","sourceVersion":"10.1"}"#,
            #"{"op":"delete","uuid":"\#(uuid(23))"}"#,
        ]))
        var copy: [UInt8] = []
        _ = try store.replay(ReplayRequest(raw: true)) { copy.append(contentsOf: $0) }
        let other = HealthStore(directory: dir.file("other"), options: Self.options)
        _ = try other.append(ndjson: copy)
        let original = try replay(store, raw: true).map(withoutSeq)
        let copied = try replay(other, raw: true).map(withoutSeq)
        #expect(copied.count == original.count)
        #expect(copied == original)
        #expect(try replay(other).map(withoutSeq) == replay(store).map(withoutSeq))
    }

    // MARK: Fixtures

    static var options: StoreOptions {
        var options = StoreOptions()
        options.sync = false
        return options
    }

    /// A sample with a sync identifier, source and device.
    static let syncedSample = #"{"uuid":"\#(uuid(1))","type":"\#(hr)","start":"\#(t0)","end":"2024-03-01T08:01:00Z","value":72,"unit":"count/min","source":"Apple Watch","device":"Watch7,1","metadata":{"HKMetadataKeySyncIdentifier":"hr-1","HKMetadataKeySyncVersion":3}}"#

    /// A store holding a live sample (`liveUUID`) and a deleted one (`deletedUUID`).
    static func seededStore(_ dir: TemporaryDirectory) throws -> HealthStore {
        let store = HealthStore(directory: dir.file("store"), options: options)
        _ = try store.append(ndjson: ndjson([
            #"{"uuid":"\#(liveUUID)","type":"\#(hr)","start":"\#(t0)","value":70,"unit":"count/min","source":"Watch"}"#,
            #"{"uuid":"\#(deletedUUID)","type":"\#(hr)","start":"\#(t0)","value":71,"unit":"count/min"}"#,
        ]))
        _ = try store.append(ndjson: ndjson([#"{"op":"delete","uuid":"\#(deletedUUID)"}"#]))
        return store
    }
}

private let hr = "HKQuantityTypeIdentifierHeartRate"
private let sleep = "HKCategoryTypeIdentifierSleepAnalysis"
private let bp = "HKCorrelationTypeIdentifierBloodPressure"
private let t0 = "2024-03-01T08:00:00Z"
private let liveUUID = "0D4A1F9C-5E3B-4C61-9B57-2A1E4F8C7D10"
private let deletedUUID = "7C9E6679-7425-40DE-944B-E07FC1F90AE7"

/// A fixed UUID numbered `n`.
private func uuid(_ n: Int) -> String {
    let digits = String(n, radix: 16, uppercase: true)
    return "A1B2C3D4-0000-4000-8000-" + String(repeating: "0", count: 12 - digits.count) + digits
}

/// A valid heart-rate add with UUID number `n`.
private func fresh(_ n: Int) -> String {
    #"{"uuid":"\#(uuid(n))","type":"\#(hr)","start":"\#(t0)","value":\#(60 + n),"unit":"count/min"}"#
}

private func ndjson(_ lines: [String]) -> [UInt8] {
    Array(lines.map { $0 + "\n" }.joined().utf8)
}

private func parse(_ line: String) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
}

private func replay(_ store: HealthStore, raw: Bool = false) throws -> [[String: Any]] {
    var lines: [String] = []
    _ = try store.replay(ReplayRequest(raw: raw)) { lines.append(String(decoding: $0, as: UTF8.self)) }
    return try lines.map(parse)
}

/// An event without its `seq`, comparable with `==`.
private func withoutSeq(_ event: [String: Any]) -> NSDictionary {
    var event = event
    event["seq"] = nil
    return event as NSDictionary
}

/// Every file under `path` with its bytes.
private func storeBytes(_ path: String) throws -> [String: Data] {
    var files: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: path)
    while let name = enumerator?.nextObject() as? String {
        var isDirectory: ObjCBool = false
        let full = path + "/" + name
        if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: full))
        }
    }
    return files
}

import Foundation
import HealthLog
import HealthLogTestSupport
import Testing

@testable import HealthLogImport

/// The import's appends of lines its mapping prepared (``ImportLineValidator/prepare(line:)``,
/// ``HealthStore/appendImporting(prepared:addsUnusedAsOfHead:mayBeUsed:)``): the store ends
/// byte for byte as an append of the same lines leaves it, and refuses what that append
/// refuses, with the same message.
@Suite("Import: appends of prepared lines")
struct PreparedAppendTests {
    static let a = "0D4A1F9C-5E3B-4C61-9B57-2A1E4F8C7D13"
    static let b = "1D4A1F9C-5E3B-4C61-9B57-2A1E4F8C7D13"
    static let c = "2D4A1F9C-5E3B-4C61-9B57-2A1E4F8C7D13"
    static let d = "3D4A1F9C-5E3B-4C61-9B57-2A1E4F8C7D13"
    static let e = "4D4A1F9C-5E3B-4C61-9B57-2A1E4F8C7D13"
    static let f = "5D4A1F9C-5E3B-4C61-9B57-2A1E4F8C7D13"

    /// Lines of every shape the writer stores differently: in stored order (kept verbatim),
    /// out of order with blanks, with a sync identifier and version (replacing the older
    /// one), a short type and category value the checker rewrites, a correlation and its
    /// members, the same UUID twice.
    static let lines: [String] = [
        #"{"op":"add","uuid":"\#(a)","type":"HKQuantityTypeIdentifierStepCount","start":"2024-03-01T08:00:00Z","end":"2024-03-01T10:05:00.250+02:00","value":12,"unit":"count","source":"Watch","metadata":{"HKMetadataKeySyncIdentifier":"s1","HKMetadataKeySyncVersion":1}}"#,
        #"{ "value": 80, "unit": "count/min", "type": "HKQuantityTypeIdentifierHeartRate", "uuid": "\#(b)", "start": "2024-03-01T09:00:00Z", "op": "add", "device": "<<HKDevice: name:Watch>>" }"#,
        #"{"op":"add","uuid":"\#(c)","type":"HKQuantityTypeIdentifierStepCount","start":"2024-03-01T08:00:00Z","end":"2024-03-01T08:05:00Z","value":13,"unit":"count","metadata":{"HKMetadataKeySyncIdentifier":"s1","HKMetadataKeySyncVersion":2}}"#,
        #"{"op":"add","uuid":"\#(d)","type":"sleepanalysis","start":"2024-03-01T01:00:00Z","end":"2024-03-01T07:00:00Z","value":3}"#,
        #"{"op":"add","uuid":"\#(e)","type":"HKQuantityTypeIdentifierBloodPressureSystolic","start":"2024-03-01T10:00:00Z","value":120,"unit":"mmHg"}"#,
        #"{"op":"add","uuid":"\#(f)","type":"HKCorrelationTypeIdentifierBloodPressure","start":"2024-03-01T10:00:00Z","objects":["\#(e)"]}"#,
        #"{"op":"add","uuid":"\#(b)","type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T09:00:00Z","value":80,"unit":"count/min"}"#,
    ]

    /// The lines prepared as the mapping prepares them (or, with `damaged`, with every
    /// preparation cut short, which the append must prepare again itself).
    static func prepared(_ lines: [String], damaged: Bool = false) throws -> ImportPreparedLines {
        var validator = ImportLineValidator()
        var out = ImportPreparedLines()
        for line in lines {
            let bytes = Array(line.utf8)
            var preparation = try #require(try bytes.withUnsafeBytes { try validator.prepare(line: $0) })
            if damaged { preparation.removeLast() }
            let withNewline = bytes + [10]
            withNewline.withUnsafeBytes { line in preparation.withUnsafeBytes { out.add(line, prepared: $0) } }
        }
        return out
    }

    /// Every stored line of the store at `path`, as replay returns them.
    static func stored(_ path: String) throws -> [[UInt8]] {
        var lines: [[UInt8]] = []
        _ = try HealthStore(directory: path).replay(ReplayRequest(anchor: .beginning)) { lines.append(Array($0)) }
        return lines
    }

    /// The message `body` throws.
    static func message(_ body: () throws -> AppendSummary) -> String? {
        do {
            _ = try body()
            return nil
        } catch {
            return (error as? HealthLogError)?.message ?? "\(error)"
        }
    }

    @Test("Prepared lines are stored byte for byte as an append of the lines stores them, with the same counts", arguments: [false, true])
    func sameStore(damaged: Bool) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let ndjson = Array(Self.lines.map { $0 + "\n" }.joined().utf8)
        let read = try HealthStore(directory: dir.file("read")).appendImporting(ndjson: ndjson)
        let prepared = try HealthStore(directory: dir.file("prepared")).appendImporting(prepared: try Self.prepared(Self.lines, damaged: damaged), addsUnusedAsOfHead: nil)
        #expect(read.added == 5 && read.replaced == 1 && read.alreadyPresent == 1)
        #expect(prepared.added == read.added && prepared.replaced == read.replaced && prepared.alreadyPresent == read.alreadyPresent)
        #expect(prepared.anchor.seq == read.anchor.seq)
        let stored = try Self.stored(dir.file("prepared"))
        #expect(stored.count == 6, "the replaced sample is not replayed")
        #expect(stored == (try Self.stored(dir.file("read"))))
        #expect(stored.contains { String(decoding: $0, as: UTF8.self).contains("HKCategoryTypeIdentifierSleepAnalysis") }, "the rewrite is stored")
    }

    @Test("A line without its preparation is checked by the append, which refuses it as the line-reading append does and writes nothing")
    func unpreparedRefused() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let bad = #"{"op":"add","uuid":"\#(Self.c)","type":"HKQuantityTypeIdentifierStepCount","start":"2024-03-01T08:00:00Z","value":-3,"unit":"count"}"#
        let ndjson = Array((Self.lines[0] + "\n" + Self.lines[1] + "\n" + bad + "\n").utf8)
        let expected = Self.message { try HealthStore(directory: dir.file("read")).appendImporting(ndjson: ndjson) }
        var lines = try Self.prepared(Array(Self.lines[0...1]))
        Array((bad + "\n").utf8).withUnsafeBytes { lines.add($0, prepared: nil) }
        let got = Self.message { try HealthStore(directory: dir.file("prepared")).appendImporting(prepared: lines, addsUnusedAsOfHead: nil) }
        #expect(expected?.hasPrefix("line 3: field 'value': ") == true)
        #expect(got == expected)
        #expect(!HealthStore(directory: dir.file("prepared")).exists)
    }

    @Test("A correlation whose member is not in the append, and a line past the longest one taken, are refused with the line-reading append's messages")
    func storeRefusals() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let member = Array(Self.lines[5...5])
        let expected = Self.message { try HealthStore(directory: dir.file("read")).appendImporting(ndjson: Array((member[0] + "\n").utf8)) }
        let got = Self.message { try HealthStore(directory: dir.file("prepared")).appendImporting(prepared: try Self.prepared(member), addsUnusedAsOfHead: nil) }
        #expect(expected?.contains("field 'objects': member") == true)
        #expect(got == expected)
        let long = [UInt8](repeating: 0x20, count: LineReader.maxLineLength + 1) + [10]
        let tooLongExpected = Self.message { try HealthStore(directory: dir.file("read")).appendImporting(ndjson: Array((Self.lines[0] + "\n").utf8) + long) }
        var lines = try Self.prepared([Self.lines[0]])
        long.withUnsafeBytes { lines.add($0, prepared: nil) }
        let tooLong = Self.message { try HealthStore(directory: dir.file("prepared")).appendImporting(prepared: lines, addsUnusedAsOfHead: nil) }
        #expect(tooLongExpected == "line 2: longer than \(LineReader.maxLineLength) bytes")
        #expect(tooLong == tooLongExpected)
        #expect(!HealthStore(directory: dir.file("prepared")).exists)
    }

    @Test("A vouched append looks up the UUIDs it could not vouch for: one an earlier append added is counted present, not added again")
    func mayBeUsed() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        let first = try store.appendImporting(prepared: try Self.prepared([Self.lines[4]]), addsUnusedAsOfHead: 0)
        #expect(first.added == 1)
        let given = try #require(SampleUUID(Self.e))
        let second = try store.appendImporting(
            prepared: try Self.prepared([Self.lines[4], Self.lines[1]]), addsUnusedAsOfHead: first.anchor.seq, mayBeUsed: [given])
        #expect(second.added == 1 && second.alreadyPresent == 1)
        #expect(try Self.stored(dir.file("store")).count == 2)
    }

    @Test("The writer's UUID set holds what it was given, the all-zero UUID too, through growing")
    func uuidTable() {
        var table = UUIDTable()
        var random = SeededRandom(state: 7)
        var added: [SampleUUID] = [SampleUUID(high: 0, low: 0)]
        for _ in 0..<1000 { added.append(SampleUUID(high: random.next(), low: random.next())) }
        #expect(!table.contains(added[0]))
        for uuid in added { table.insert(uuid) }
        for uuid in added { table.insert(uuid) }
        #expect(table.count == added.count)
        #expect(added.allSatisfy { table.contains($0) })
        #expect(!table.contains(SampleUUID(high: 1, low: 2)))
    }
}

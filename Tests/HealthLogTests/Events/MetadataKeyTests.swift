import HealthLogTestSupport
import Testing
@testable import HealthLog

/// The metadata object's repeated-key check on hostile lines: it stays linear in the number
/// of keys (an object of 200,000 keys would take minutes if each key were compared with
/// every earlier one), and still finds and names a repeat wherever it is.
@Suite("Metadata keys")
struct MetadataKeyTests {
    /// How many distinct keys the large objects hold.
    static let keyCount = 200_000

    @Test("A metadata object with 200,000 distinct keys is checked in linear time and stored whole")
    func manyDistinctKeys() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"), options: Self.options)
        let summary = try store.append(ndjson: Self.line(keys: Self.keyCount, repeating: nil))
        #expect(summary.added == 1)
        var entries = 0
        _ = try store.replay(ReplayRequest()) { line in
            let event = try EventLineParser.parse(line)
            let metadata = try #require(event.metadata)
            entries = JSONObjectReader.entries(UnsafeRawBufferPointer(rebasing: line[metadata])).count
        }
        #expect(entries == Self.keyCount)
    }

    @Test("A key repeated after 200,000 distinct keys is found and named", arguments: [0, keyCount / 2, keyCount - 1])
    func repeatAtTheEnd(_ repeated: Int) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"), options: Self.options)
        let error = try #require(throws: HealthLogError.self) {
            try store.append(ndjson: Self.line(keys: Self.keyCount, repeating: repeated))
        }
        #expect(error.code == .badInput)
        #expect(error.message == #"line 1: field 'metadata': key "k\#(repeated)" appears twice"#)
    }

    @Test("A key repeated among the first few keys (compared one by one) or just past them (in the set) is found and named, and as many distinct keys pass",
        arguments: [(1, 0), (2, 1), (4, 0), (4, 3), (5, 0), (5, 4), (6, 2), (9, 8)])
    func repeatAmongFewKeys(_ keys: Int, _ repeated: Int) throws {
        let bytes = Self.line(keys: keys, repeating: repeated)
        let error = try #require(throws: FieldError.self) { try bytes.dropLast().withUnsafeBytes { try EventLineParser.parse($0) } }
        #expect(error.field == "metadata" && error.reason == #"key "k\#(repeated)" appears twice"#)
        let distinct = Self.line(keys: keys + 1, repeating: nil)
        #expect(try distinct.dropLast().withUnsafeBytes { try EventLineParser.parse($0) }.metadata != nil)
    }

    @Test("Keys are compared as written: an escaped spelling of a key is a different key")
    func escapedSpellingIsDistinct() throws {
        let line = Array(#"{"type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T08:00:00Z","value":1,"unit":"count","metadata":{"a":1,"\u0061":2}}"#.utf8)
        let event = try line.withUnsafeBytes { try EventLineParser.parse($0) }
        #expect(event.metadata != nil)
    }

    /// A heart-rate add whose metadata holds keys `k0`…`k(keys-1)`, then `k(repeating)` again.
    static func line(keys: Int, repeating: Int?) -> [UInt8] {
        var out = Array(#"{"type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T08:00:00Z","value":72,"unit":"count/min","metadata":{"#.utf8)
        for k in 0..<keys {
            if k > 0 { out.append(0x2C) }
            out.append(contentsOf: #""k\#(k)":1"#.utf8)
        }
        if let repeating { out.append(contentsOf: #","k\#(repeating)":2"#.utf8) }
        out.append(contentsOf: "}}\n".utf8)
        return out
    }

    /// Options for a test store: no fsync.
    static var options: StoreOptions {
        var options = StoreOptions()
        options.sync = false
        return options
    }
}

import Foundation
import HealthLogTestSupport
import Testing

/// `healthlog append` on hostile lines: a line over the 16 MiB limit and a metadata object
/// with a repeated key among 200,000 are refused with exit 2, naming the file and line, and
/// leave no store.
@Suite("append: hostile lines")
struct HostileLineCLITests {
    @Test("A line one byte over 16 MiB after a 4 MiB line is refused with exit 2 naming its line")
    func lineOverTheLimit() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let input = dir.file("long.ndjson")
        let bytes = [UInt8](repeating: 0x20, count: 4 << 20) + [10] + [UInt8](repeating: 0x20, count: (16 << 20) + 1) + [10]
        try Data(bytes).write(to: URL(fileURLWithPath: input))
        let result = try HealthLogBinary.run(["--store", dir.file("store"), "append", input])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(input): line 2: longer than 16777216 bytes"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("store")))
    }

    @Test("A metadata key repeated after 200,000 distinct keys is refused with exit 2 naming the key")
    func repeatedMetadataKey() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let keys = (0..<200_000).map { #""k\#($0)":1"# }.joined(separator: ",")
        let line = #"{"type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T08:00:00Z","value":72,"unit":"count/min","metadata":{\#(keys),"k199999":2}}"#
        let result = try HealthLogBinary.run(["--store", dir.file("store"), "append"], stdin: "\n" + line + "\n")
        #expect(result.status == 2)
        #expect(result.stderr.contains(#"line 2: field 'metadata': key "k199999" appears twice"#), "\(result.stderr)")
    }
}

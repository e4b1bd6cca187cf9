import Foundation
import HealthLogTestSupport
import Testing

/// The promise that the data outlives the tool: every segment is a valid LZ4 frame stream
/// that the stock `lz4` command checks (`lz4 -t`) and decodes (`lz4 -dc`) into the events
/// as NDJSON lines with their `seq`, exactly the lines `replay --raw` prints (grouped by
/// type within a batch, so compared in sequence order).
@Suite("LZ4 compatibility")
struct LZ4CompatibilityTests {
    /// The `lz4` command, if installed (CI installs it).
    static let lz4 = ["/usr/bin/lz4", "/usr/local/bin/lz4"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs `lz4` with `arguments`; returns its exit status and standard output.
    static func run(_ arguments: [String]) throws -> (status: Int32, stdout: String) {
        let result = try ChildProcess.run(ChildProcess.make(try #require(lz4), arguments))
        return (result.status, result.stdout)
    }

    @Test("lz4 -t accepts every segment and lz4 -dc prints the events replay --raw prints", .enabled(if: lz4 != nil))
    func stockLZ4ReadsSegments() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        try CrashTests.seed(store, with: Events.lines(1...120))
        try CrashTests.seed(store, with: Events.lines(121...200, deleting: [3, 50, 130]))
        let segments = try FileManager.default.contentsOfDirectory(atPath: store + "/segments").filter { $0.hasSuffix(".log.lz4") }.sorted()
        #expect(segments.count > 1)
        var decoded: [String] = []
        for segment in segments {
            let path = store + "/segments/" + segment
            #expect(try Self.run(["-t", path]).status == 0, "lz4 -t \(segment)")
            let result = try Self.run(["-dc", path])
            #expect(result.status == 0, "lz4 -dc \(segment)")
            decoded += result.stdout.split(separator: "\n").map(String.init)
        }
        let replayed = try CrashTests.rawReplay(store).split(separator: "\n").map(String.init)
        let bySeq = decoded.sorted { (Events.seqs($0).first ?? 0) < (Events.seqs($1).first ?? 0) }
        #expect(decoded.count == 203)
        #expect(bySeq == replayed)
    }
}

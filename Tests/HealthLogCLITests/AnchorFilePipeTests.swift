#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HealthLogTestSupport
import Testing

/// `--anchor-file` records what healthlog handed to its output. Through a
/// pipe that runs ahead of what the reader has consumed, so the exactly-once pattern is
/// the reader's own: it keeps the `seq` of the last line it applied and resumes from it.
@Suite("Anchor file through a pipe")
struct AnchorFilePipeTests {
    @Test("Item 10: a reader that stops with lines still in the pipe is behind the anchor file; resuming from its own seq loses and repeats nothing")
    func anchorFileRunsAheadOfThePipe() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        try #require(try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(1...100)).status == 0)
        let anchorFile = dir.file("anchor")
        let consumed = dir.file("consumed")
        // The reader applies ten lines, then stalls with the rest unread in the pipe.
        let pipeline = Process()
        pipeline.executableURL = URL(fileURLWithPath: "/bin/bash")
        pipeline.arguments = [
            "-c", "exec \"$0\" --store \"$1\" replay --follow --anchor-file \"$2\" | { head -n 10 > \"$3\"; exec sleep 60; }",
            HealthLogBinary.path, store, anchorFile, consumed,
        ]
        pipeline.standardInput = FileHandle.nullDevice
        pipeline.standardError = FileHandle.nullDevice
        try pipeline.run()
        defer { kill(-pipeline.processIdentifier, SIGKILL) }
        let wroteAnchor = await eventually {
            (try? String(contentsOfFile: anchorFile, encoding: .utf8)).map { !$0.isEmpty } ?? false
        }
        try #require(wroteAnchor, "the follower never wrote its anchor file")
        let readTen = await eventually {
            (try? String(contentsOfFile: consumed, encoding: .utf8)).map { Events.seqs($0).count == 10 } ?? false
        }
        try #require(readTen, "the reader never applied its ten lines")
        let applied = Events.seqs(try String(contentsOfFile: consumed, encoding: .utf8))
        #expect(applied == Array(1...10))
        let recorded = try String(contentsOfFile: anchorFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let fromFile = try HealthLogBinary.run(["--store", store, "replay", "--from", recorded])
        #expect(fromFile.status == 0 && Events.seqs(fromFile.stdout).isEmpty, "the anchor file already names seq 100, past what the reader applied")

        let resumed = try HealthLogBinary.run(["--store", store, "replay", "--from", String(applied.last ?? 0)])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(applied + Events.seqs(resumed.stdout) == Array(1...100))
    }
}

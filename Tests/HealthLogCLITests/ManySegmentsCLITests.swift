import Foundation
import HealthLogTestSupport
import Testing

/// A store of far more segments than the process may open files: every command works
/// under a low `ulimit -n`, because readers open segments lazily and hold a few, and the
/// writer closes each segment it seals.
@Suite("Many segments, few descriptors")
struct ManySegmentsCLITests {
    /// Segments in the store: far above ``openFileLimit`` (and few enough that `backup`, which
    /// fsyncs every file it copies, stays quick).
    static let segmentCount = 600
    /// The children's limit on open files.
    static let openFileLimit = 64
    /// One event per batch and one batch per segment.
    static let sizes = ["HEALTHLOG_BATCH_BYTES": "1", "HEALTHLOG_SEGMENT_BYTES": "1"]

    /// `count` events from `first` on, alternately heart rate and step count.
    private static func lines(_ count: Int, from first: Int) -> String {
        (first..<first + count).map { i in
            let type = i % 2 == 0 ? "HKQuantityTypeIdentifierHeartRate\",\"unit\":\"count/min" : "HKQuantityTypeIdentifierStepCount\",\"unit\":\"count"
            return #"{"type":"\#(type)","start":"2024-03-01T08:00:00Z","value":\#(i % 200 + 1)}"# + "\n"
        }.joined()
    }

    /// Runs `healthlog --store STORE ARGUMENTS` under the open-file limit.
    private static func run(_ store: String, _ arguments: [String], stdin: String = "") throws -> BuiltProgram.Result {
        try HealthLogBinary.run(["--store", store] + arguments, stdin: stdin, environment: sizes, openFileLimit: openFileLimit)
    }

    /// The number of lines of `text`.
    private static func lineCount(_ text: String) -> Int {
        text.split(separator: "\n").count
    }

    @Test("The limit on open files is really in force in the child", .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/limits")))
    func limitIsInForce() throws {
        let limits = ChildProcess.make("/bin/sh", BuiltProgram.limitingOpenFiles(to: Self.openFileLimit, ["/bin/cat", "/proc/self/limits"]))
        let text = try ChildProcess.run(limits).stdout
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("Max open files") })
        #expect(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).prefix(2) == ["\(Self.openFileLimit)", "\(Self.openFileLimit)"], "\(line)")
    }

    @Test("Under ulimit -n 64, append, replay, export, stats, verify, reindex and backup work on a store of 600 segments")
    func commandsWorkUnderALowLimit() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        let half = Self.segmentCount / 2
        let appended = try Self.run(store, ["append", "--no-sync"], stdin: Self.lines(Self.segmentCount, from: 0))
        #expect(appended.status == 0, "\(appended.stderr)")
        let segments = try FileManager.default.contentsOfDirectory(atPath: store + "/segments").filter { $0.hasSuffix(".log.lz4") }
        #expect(segments.count == Self.segmentCount)

        let replay = try Self.run(store, ["replay"])
        #expect(replay.status == 0 && Self.lineCount(replay.stdout) == Self.segmentCount, "\(replay.stderr)")
        let typed = try Self.run(store, ["replay", "--type", "HKQuantityTypeIdentifierStepCount"])
        #expect(typed.status == 0 && Self.lineCount(typed.stdout) == half, "\(typed.stderr)")
        let export = try Self.run(store, ["export"])
        #expect(export.status == 0 && Self.lineCount(export.stdout) == Self.segmentCount, "\(export.stderr)")
        let stats = try Self.run(store, ["stats"])
        #expect(stats.status == 0 && stats.stdout.contains("segments           \(Self.segmentCount) (\(Self.segmentCount) batches)"), "\(stats.stdout)\(stats.stderr)")
        let verify = try Self.run(store, ["verify"])
        #expect(verify.status == 0 && verify.stdout.contains("ok: \(Self.segmentCount) events in \(Self.segmentCount) batches, \(Self.segmentCount) segments"), "\(verify.stdout)\(verify.stderr)")

        let more = try Self.run(store, ["append", "--no-sync"], stdin: Self.lines(100, from: Self.segmentCount))
        #expect(more.status == 0, "\(more.stderr)")
        let total = Self.segmentCount + 100
        let reindex = try Self.run(store, ["reindex"])
        #expect(reindex.status == 0 && reindex.stdout.contains("reindexed \(total) events: \(total) segment indexes"), "\(reindex.stdout)\(reindex.stderr)")
        let backup = try Self.run(store, ["backup", dir.file("backup")])
        #expect(backup.status == 0, "\(backup.stderr)")
        let copy = try Self.run(dir.file("backup"), ["replay"])
        #expect(copy.status == 0 && Self.lineCount(copy.stdout) == total, "\(copy.stderr)")
    }
}

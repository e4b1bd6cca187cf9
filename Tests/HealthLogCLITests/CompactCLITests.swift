import Foundation
import HealthLogTestSupport
import Testing

/// `healthlog compact --horizon DATE|ANCHOR`: its output and exit codes, anchors that
/// expire (exit 3), a kill at every step leaving the old log or the new one, and readers
/// running meanwhile that see one or the other.
@Suite("compact")
struct CompactCLITests {
    /// The deleted samples of ``seed(_:)``: spread over the log, the last in the last append.
    static let deleted = [2, 13, 40, 41, 77]

    /// A store of samples 1…80 in many small segments, then the deletes of ``deleted``;
    /// returns the anchor of event 10 from before any compaction.
    private static func seed(_ store: String) throws -> String {
        try CrashTests.seed(store, with: Events.lines(1...80))
        let more = try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(81...82, deleting: deleted), environment: CrashTests.sizes)
        try #require(more.status == 0, "\(more.stderr)")
        let page = try HealthLogBinary.run(["--store", store, "replay", "--limit", "10"])
        return String(try #require(page.stderr.split(separator: "\n").first { $0.hasPrefix("next-anchor: ") }).dropFirst(13))
    }

    /// `log` without the lines of the deleted samples.
    private static func compacted(_ log: String) -> [Substring] {
        log.split(separator: "\n").filter { line in !deleted.contains { line.contains(Events.uuid($0)) } }
    }

    /// The segment files in `store` (names, sorted).
    private static func segmentFiles(_ store: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: store + "/segments").filter { $0.hasSuffix(".log.lz4") }.sorted()
    }

    @Test("Rule 8 (CLI): compact prints what it dropped and reclaimed; an old anchor below the horizon exits 3 with the advice to resync from 0; a resync from 0 pages on; a compacted UUID is refused")
    func exitCodesAndAnchors() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        let old = try Self.seed(store)
        let before = try CrashTests.rawReplay(store)
        let head = try HealthLogBinary.run(["--store", store, "anchor"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let compact = try HealthLogBinary.run(["--store", store, "compact", "--horizon", head])
        #expect(compact.status == 0, "\(compact.stderr)")
        #expect(compact.stderr.contains("healthlog: compacted up to sequence 87: dropped 5 deletes and their samples (10 events)"), "\(compact.stderr)")
        #expect(compact.stderr.contains("reclaimed"), "\(compact.stderr)")
        let expired = try HealthLogBinary.run(["--store", store, "replay", "--from", old])
        #expect(expired.status == 3, "\(expired.stderr)")
        #expect(expired.stderr.contains("expired: compaction of") && expired.stderr.contains("dropped deleted history up to sequence 87; resync from 0"), "\(expired.stderr)")
        #expect(try HealthLogBinary.run(["--store", store, "replay", "--from", "10"]).status == 3)
        #expect(try CrashTests.rawReplay(store).split(separator: "\n") == Self.compacted(before))
        let page = try HealthLogBinary.run(["--store", store, "replay", "--limit", "10"])
        let resynced = String(try #require(page.stderr.split(separator: "\n").first { $0.hasPrefix("next-anchor: ") }).dropFirst(13))
        let rest = try HealthLogBinary.run(["--store", store, "replay", "--from", resynced])
        #expect(rest.status == 0, "\(rest.stderr)")
        let reused = try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(13...13))
        #expect(reused.status == 2 && reused.stderr.contains("a UUID is used once"), "\(reused.stderr)")
        let nothing = try HealthLogBinary.run(["--store", store, "compact", "--horizon", "2100-01-01"])
        #expect(nothing.status == 0 && nothing.stderr.contains("nothing to compact"), "\(nothing.stderr)")
        #expect(try HealthLogBinary.run(["--store", store, "compact"]).status == 2)
        #expect(try HealthLogBinary.run(["--store", store, "compact", "--horizon", "999"]).status == 3)
        #expect(try HealthLogBinary.run(["--store", store, "verify"]).status == 0)
    }

    @Test(
        "A compaction killed at any step leaves the old log or the new one, whole; the next writer removes what it left and compacting again finishes",
        arguments: ["compact-segment-written", "compact-synced", "compact-committed", "compact-checkpoint-written", "unused-segment-removed"])
    func killed(_ point: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        _ = try Self.seed(store)
        let before = try CrashTests.rawReplay(store)
        let killed = try HealthLogBinary.run(["--store", store, "compact", "--horizon", "2100-01-01"], injecting: "kill:\(point)")
        try #require(killed.wasSignalled, "status \(killed.status): \(killed.stderr)")
        let after = try CrashTests.rawReplay(store).split(separator: "\n")
        let isOld = after == before.split(separator: "\n")
        #expect(isOld || after == Self.compacted(before), "\(point)")
        #expect(isOld == ["compact-segment-written", "compact-synced"].contains(point), "\(point): old \(isOld)")
        #expect(try HealthLogBinary.run(["--store", store, "verify"]).status == 0, "\(point)")
        let again = try HealthLogBinary.run(["--store", store, "compact", "--horizon", "2100-01-01"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try CrashTests.rawReplay(store).split(separator: "\n") == Self.compacted(before), "\(point)")
        let files = try Self.segmentFiles(store)
        let bases = files.map { $0.prefix(20) }
        #expect(Set(bases).count == bases.count, "\(point): \(files)")
        let next = try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(90...90))
        let seqs = Events.seqs(try CrashTests.rawReplay(store))
        #expect(next.status == 0 && seqs.last == 88, "\(next.stderr)")
        #expect(try HealthLogBinary.run(["--store", store, "verify"]).status == 0)
    }

    /// util-linux `script`, which runs a command under a pseudo-terminal, if installed.
    static let script = ["/usr/bin/script", "/bin/script"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test("Progress goes to stderr when it is a terminal (run under script(1)), and not otherwise", .enabled(if: script != nil))
    func progressOnTerminal() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        _ = try Self.seed(store)
        let command = [HealthLogBinary.path, "--store", store, "compact", "--horizon", "2100-01-01"].map { "'\($0)'" }.joined(separator: " ")
        let shown = try ChildProcess.run(ChildProcess.make(try #require(Self.script), ["-qec", command, "/dev/null"]))
        #expect(shown.status == 0, "\(shown.stdout)")
        #expect(shown.stdout.contains("compact: 100% (") && shown.stdout.contains(" batches)"), "\(shown.stdout)")
        _ = try Self.seed(dir.file("plain"))
        let plain = try HealthLogBinary.run(["--store", dir.file("plain"), "compact", "--horizon", "2100-01-01"])
        #expect(plain.status == 0 && !plain.stderr.contains("compact: "), "\(plain.stderr)")
    }

    @Test("Every compacted segment stays an LZ4 stream that lz4 -t accepts and lz4 -dc decodes into the lines replay --raw prints", .enabled(if: LZ4CompatibilityTests.lz4 != nil))
    func compactedSegmentsReadWithLZ4() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        _ = try Self.seed(store)
        #expect(try HealthLogBinary.run(["--store", store, "compact", "--horizon", "2100-01-01"]).status == 0)
        var decoded: [Substring] = []
        let files = try Self.segmentFiles(store)
        #expect(files.contains { !$0.contains(".0000.") }, "some segment was rewritten: \(files)")
        for file in files {
            let path = store + "/segments/" + file
            #expect(try LZ4CompatibilityTests.run(["-t", path]).status == 0, "lz4 -t \(file)")
            decoded += try LZ4CompatibilityTests.run(["-dc", path]).stdout.split(separator: "\n")
        }
        let raw = try CrashTests.rawReplay(store).split(separator: "\n")
        #expect(decoded.sorted() == raw.sorted())
    }

    @Test("Readers replaying while a compaction runs each print the old log or the new one exactly, never an error or a mix")
    func concurrentReaders() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        _ = try Self.seed(store)
        let before = try CrashTests.rawReplay(store)
        let expected = Self.compacted(before).joined(separator: "\n") + "\n"
        let readers = try (0..<6).map { _ in try HealthLogBinary.launch(["--store", store, "replay", "--raw"], outputIn: dir) }
        let compact = try HealthLogBinary.run(["--store", store, "compact", "--horizon", "2100-01-01"])
        #expect(compact.status == 0, "\(compact.stderr)")
        let late = try HealthLogBinary.launch(["--store", store, "replay", "--raw"], outputIn: dir)
        for reader in readers + [late] {
            let result = reader.finish()
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == before || result.stdout == expected)
        }
    }
}

extension CompactCLITests {
    @Test("A compaction whose lists of dropped events outweigh the compressed events they replace (made-up UUIDs in sequence, all deleted) says what the log grew by and why, not a negative reclaim")
    func growthSaid() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        let uuid = { (k: Int) in String(format: "00000000-0000-4000-8000-%012d", k) }
        let minute = { (k: Int) in String(format: "2024-03-%02dT%02d:%02d:00Z", 1 + k / 1440, k / 60 % 24, k % 60) }
        let adds = (1...3000).map { #"{"uuid":"\#(uuid($0))","type":"HKQuantityTypeIdentifierHeartRate","start":"\#(minute($0))","value":\#(60 + $0 % 40),"unit":"count/min"}"# }
        let deletes = (1...3000).map { #"{"op":"delete","uuid":"\#(uuid($0))"}"# }
        for lines in [adds, deletes] {
            let appended = try HealthLogBinary.run(["--store", store, "append", "-"], stdin: lines.joined(separator: "\n") + "\n")
            #expect(appended.status == 0, "\(appended.stderr)")
        }
        let compact = try HealthLogBinary.run(["--store", store, "compact", "--horizon", "6000"])
        #expect(compact.status == 0, "\(compact.stderr)")
        #expect(compact.stderr.contains("dropped 3000 deletes and their samples (6000 events)"), "\(compact.stderr)")
        #expect(compact.stderr.contains("bytes, grew by ") && compact.stderr.contains("so its UUID stays refused") && !compact.stderr.contains("reclaimed -"), "\(compact.stderr)")
    }
}

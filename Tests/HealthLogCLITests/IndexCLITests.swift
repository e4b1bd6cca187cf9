#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HealthLog
import HealthLogTestSupport
import Testing

/// `reindex`, `stats` and the index checks of `verify` through the real binary (the
/// indexes, exit codes), and a writer (the fault tool) killed while it writes the derived files
/// (`HEALTHLOG_TEST_FAULT=kill:segment-index-written:N`, `kill:uuid-run-written`,
/// `kill:checkpoint-written`): the append it was committing survives whole, `verify` passes,
/// and the next normal append leaves indexes that `verify` finds silent and that a
/// `reindex` rewrites byte for byte. Also the write faults of `HEALTHLOG_TEST_FAULT` as a
/// user sees them: exit 1 with the system's message, and nothing written.
@Suite("Index commands")
struct IndexCLITests {
    static let firstIndex = "segments/00000000000000000001.0000.idx"

    @Test("reindex prints what it rebuilt, exit 0, and writes the indexes the appends wrote")
    func reindex() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try Self.seeded(dir)
        let before = try DirectoryFiles.byName(store)
        let segments = before.keys.filter { $0.hasSuffix(".log.lz4") }.count
        try #require(segments >= 3)
        GoldenTests.expect(
            try HealthLogBinary.run(["--store", store, "reindex"]), status: 0,
            stdout: "reindexed 32 events: \(segments) segment indexes, 30 UUIDs\n")
        let after = try DirectoryFiles.byName(store)
        // One append wrote one run; nothing read the sync table, which reindex writes.
        for (name, bytes) in before where name != "lock" {
            #expect(after[name] == bytes, "\(name)")
        }
        #expect(Set(after.keys).subtracting(before.keys) == ["uuids/sync"])
        #expect(try HealthLogBinary.run(["--store", store, "verify"]).status == 0)
    }

    @Test("reindex cuts a torn tail first and says so on stderr")
    func reindexCutsTornTail() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try Self.seeded(dir)
        let last = try #require(try Self.segments(store).last)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: store + "/" + last)[.size] as? Int)
        let handle = try #require(FileHandle(forWritingAtPath: store + "/" + last))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(repeating: 0, count: 9))
        try handle.close()
        let result = try HealthLogBinary.run(["--store", store, "reindex"])
        #expect(result.status == 0 && result.stdout.hasPrefix("reindexed 32 events: "))
        #expect(result.stderr == "healthlog: note: cut a torn tail of 9 bytes at \(last) at byte \(size) (bytes that are not a batch header)\n")
        GoldenTests.expect(try HealthLogBinary.run(["--store", store, "verify"]), status: 0, stdout: try Self.ok(store))
    }

    @Test("reindex and stats on a missing store exit 1 and create nothing", arguments: ["reindex", "stats"])
    func missingStore(_ command: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("missing")
        GoldenTests.expect(try HealthLogBinary.run(["--store", store, command]), status: 1, stderr: "healthlog: error: no healthlog store at \(store)\n")
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test("reindex and stats take no argument: exit 2 with the usage", arguments: ["reindex", "stats"])
    func unexpectedArgument(_ command: String) throws {
        let result = try HealthLogBinary.run(["--store", "/nonexistent", command, "extra"])
        #expect(result.status == 2 && result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("healthlog: error: unexpected argument 'extra'\nUsage: healthlog [--store <dir>] \(command)"))
        #expect(result.stderr == "healthlog: error: unexpected argument 'extra'\nUsage: healthlog [--store <dir>] \(command)\nSee 'healthlog \(command) --help'.\n")
    }

    @Test("stats prints per-type live, deleted, first and last, then events, segments, bytes on disk and the compression ratio")
    func stats() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try Self.seeded(dir)
        let result = try HealthLogBinary.run(["--store", store, "stats"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try #require(lines.count == 11, "\(result.stdout)")
        // Samples 1…30 cycle through sleep, steps and heart rate; 2 (steps) and 4 (sleep) are deleted.
        #expect(Array(lines[0..<4]) == [
            "type                                         live   deleted  first                     last",
            "HKCategoryTypeIdentifierSleepAnalysis           9         1  2024-03-01T00:01:00.000Z  2024-03-01T01:28:00.000Z",
            "HKQuantityTypeIdentifierHeartRate              10         0  2024-03-01T08:03:00.000Z  2024-03-01T08:30:00.000Z",
            "HKQuantityTypeIdentifierStepCount               9         1  2024-03-01T09:02:00.000Z  2024-03-01T09:29:00.000Z",
        ])
        let files = try DirectoryFiles.byName(store)
        let segments = files.filter { $0.key.hasSuffix(".log.lz4") }
        let batches = try HealthStore(directory: store).verify().batches
        let segmentBytes = segments.values.reduce(0) { $0 + $1.count }
        let ndjson = try CrashTests.rawReplay(store).utf8.count
        let ratio = (Double(ndjson) / Double(segmentBytes) * 100).rounded() / 100
        #expect(Array(lines[4...]) == [
            "",
            "events             32",
            "segments           \(segments.count) (\(batches) batches)",
            "bytes on disk      \(files.values.reduce(0) { $0 + $1.count })",
            "NDJSON bytes       \(ndjson)",
            "compression ratio  \(ratio) (NDJSON bytes per segment byte)",
            "",
        ])
        // (Batches of 700 bytes compress to less than their headers and frames cost: the
        // ratio of this store is below 1; WriteFaultTests checks it above 1 at larger sizes.)
    }

    /// How a segment index is spoiled.
    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        case headerFlipped, bodyFlipped, emptied
        var testDescription: String { rawValue }
    }

    @Test("verify exits 1 naming a damaged segment index and its byte, and 0 once reindex rebuilt it", arguments: Damage.allCases)
    func verifyDamagedIndex(_ damage: Damage) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try Self.seeded(dir)
        let url = URL(fileURLWithPath: store + "/" + Self.firstIndex)
        var bytes = try Data(contentsOf: url)
        switch damage {
        case .headerFlipped: bytes[10] ^= 0x01
        case .bodyFlipped: bytes[bytes.count - 3] ^= 0x01
        case .emptied: bytes = Data()
        }
        try bytes.write(to: url)
        GoldenTests.expect(
            try HealthLogBinary.run(["--store", store, "verify"]), status: 1,
            stdout: "problem: \(Self.firstIndex) at byte 0: damaged (checksum or layout); run 'healthlog reindex'\ndamaged: 1 problem; see above\n")
        #expect(Events.seqs(try CrashTests.rawReplay(store)) == Array(1...32), "readers walk the segment instead")
        #expect(try HealthLogBinary.run(["--store", store, "reindex"]).status == 0)
        GoldenTests.expect(try HealthLogBinary.run(["--store", store, "verify"]), status: 0, stdout: try Self.ok(store))
    }

    @Test("verify exits 0 with a note when a segment index is only missing, and the next append rebuilds it")
    func verifyMissingIndex() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try Self.seeded(dir)
        let original = try Data(contentsOf: URL(fileURLWithPath: store + "/" + Self.firstIndex))
        try FileManager.default.removeItem(atPath: store + "/" + Self.firstIndex)
        let ok = try Self.ok(store)
        GoldenTests.expect(
            try HealthLogBinary.run(["--store", store, "verify"]), status: 0,
            stdout: "note: \(Self.firstIndex) is missing; the next write rebuilds it\n" + ok)
        let appended = try HealthLogBinary.run(["--store", store, "append", "--no-sync"], stdin: Events.lines(100...100), environment: CrashTests.sizes)
        #expect(appended.status == 0, "\(appended.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store + "/" + Self.firstIndex)) == original)
        GoldenTests.expect(try HealthLogBinary.run(["--store", store, "verify"]), status: 0, stdout: try Self.ok(store))
    }

    @Test(
        "A writer killed while writing the derived files leaves its append whole; the next append and verify find every index sound",
        arguments: [
            // The fault, and how many segment indexes the append wrote before it (nil: all).
            ("kill:checkpoint-written", 0), ("kill:segment-index-written", 1), ("kill:segment-index-written:2", 2),
            ("kill:uuid-run-written", nil),
        ] as [(String, Int?)])
    func killedWritingIndexes(_ fault: String, _ indexesWritten: Int?) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        // Two appends whose runs were merged (1-40); the killed one's run would merge with it.
        try CrashTests.seed(store, with: Events.lines(1...20))
        try CrashTests.seed(store, with: Events.lines(21...40))
        let before = try Self.segments(store)
        let killed = try HealthLogBinary.run(
            ["--store", store, "append"], stdin: Events.lines(41...70, deleting: [3, 25]), environment: CrashTests.sizes, injecting: fault)
        #expect(killed.wasSignalled && killed.status == SIGKILL, "\(fault): status \(killed.status): \(killed.stderr)")
        #expect(killed.stdout.isEmpty)
        // The kill came after the data was synced: the append is there, whole.
        #expect(Events.seqs(try CrashTests.rawReplay(store)) == Array(1...72))
        // The indexes not written yet are missing or behind: notes, never problems.
        let created = try Self.segments(store).filter { !before.contains($0) }
        try #require(created.count >= 3, "the append rolled into several new segments")
        let afterKill = try HealthLogBinary.run(["--store", store, "verify"])
        #expect(afterKill.status == 0 && !afterKill.stdout.contains("problem:"), "\(fault): \(afterKill.stdout)")
        let notes = afterKill.stdout.split(separator: "\n").filter { $0.hasPrefix("note: ") }
        let missing = notes.filter { $0.hasSuffix(".idx is missing; the next write rebuilds it") }
        #expect(missing.count == created.count - (indexesWritten ?? created.count), "\(fault): \(afterKill.stdout)")
        #expect(notes.contains { $0.hasPrefix("note: the UUID index covers events 1...40 of 72;") } == (indexesWritten != nil), "\(fault): \(afterKill.stdout)")
        #expect(notes.allSatisfy { missing.contains($0) || $0.contains(" lists ") || $0.contains("UUID index") }, "\(fault): \(afterKill.stdout)")

        let next = try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(100...102), environment: CrashTests.sizes)
        GoldenTests.expect(next, status: 0, stdout: next.stdout, stderr: "healthlog: added 3, deleted 0, replaced 0, skipped 0\n")
        #expect(Events.seqs(try CrashTests.rawReplay(store)) == Array(1...75))
        GoldenTests.expect(try HealthLogBinary.run(["--store", store, "verify"]), status: 0, stdout: try Self.ok(store))
        // The indexes the writers left are the ones reindex writes.
        let indexes = try DirectoryFiles.byName(store).filter { $0.key.hasSuffix(".idx") }
        #expect(try HealthLogBinary.run(["--store", store, "reindex"]).status == 0)
        #expect(try DirectoryFiles.byName(store).filter { $0.key.hasSuffix(".idx") } == indexes, "\(fault)")
    }

    @Test(
        "A full disk or a failed fsync fails the append with exit 1 and the system's message, and writes nothing",
        arguments: [
            ("enospc-after:0", "No space left on device"), ("enospc-after:1000", "No space left on device"),
            ("fail-fsync", "Input/output error"),
        ])
    func writeFault(_ fault: String, _ reason: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try Self.seeded(dir)
        let before = try DirectoryFiles.byName(store).filter { !$0.key.hasPrefix("uuids/") && !$0.key.hasSuffix(".idx") }
        let result = try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(41...60), environment: CrashTests.sizes, injecting: fault)
        #expect(result.status == 1 && result.stdout.isEmpty && !result.wasSignalled)
        #expect(result.stderr.hasPrefix("healthlog: error: cannot ") && result.stderr.hasSuffix(": \(reason)\n"), "\(result.stderr)")
        #expect(try DirectoryFiles.byName(store).filter { !$0.key.hasPrefix("uuids/") && !$0.key.hasSuffix(".idx") } == before)
        #expect(Events.seqs(try CrashTests.rawReplay(store)) == Array(1...32))
    }

    @Test("The fault tool refuses a malformed HEALTHLOG_TEST_FAULT as bad usage: exit 2, nothing written")
    func malformedFault() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        let result = try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(1...1), injecting: "kill:nowhere")
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("healthlog: error: HEALTHLOG_TEST_FAULT must be kill:POINT[:N], enospc-after:BYTES or fail-fsync, not 'kill:nowhere'\n"))
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    // MARK: Helpers

    /// A store of one append through the library (samples 1…30, deleting 2 and 4: 32
    /// events) with ``CrashTests/sizes``, so it spans several segments.
    static func seeded(_ dir: TemporaryDirectory) throws -> String {
        let store = dir.file("store")
        try CrashTests.seed(store, with: Events.lines(1...30, deleting: [2, 4]))
        return store
    }

    /// The segment files, relative to the store, in order.
    static func segments(_ store: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: store + "/segments").filter { $0.hasSuffix(".log.lz4") }.sorted().map { "segments/" + $0 }
    }

    /// The `ok:` line `verify` prints for the store as it is (counts from the library, each
    /// noun in the number it takes).
    static func ok(_ store: String) throws -> String {
        let report = try HealthStore(directory: store).verify()
        let events = "\(report.events) event\(report.events == 1 ? "" : "s")"
        let batches = "\(report.batches) batch\(report.batches == 1 ? "" : "es")"
        let segments = "\(report.segments) segment\(report.segments == 1 ? "" : "s")"
        return "ok: \(events) in \(batches), \(segments)\n"
    }
}

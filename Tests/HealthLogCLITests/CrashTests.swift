#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HealthLog
import HealthLogTestSupport
import Testing

/// The real `healthlog` commands (in the test-only fault tool) killed in the middle of an append, and writers competing
/// for one store (`Format.md`, "Writing" and "Locks").
///
/// `HEALTHLOG_TEST_FAULT=kill:POINT:N` makes the fault tool's process `SIGKILL` itself the Nth time an
/// append reaches POINT (a batch written, a segment created, an index written). Small
/// batch and segment sizes make the append span several batches and segments. After the
/// kill the store must hold exactly the appends that returned, plus all or none of the one
/// in flight (none while its last batch is not out), `verify` must pass, and the next
/// writer must cut any torn tail and go on numbering without a gap.
@Suite("Crashes and concurrent writers")
struct CrashTests {
    /// Small sizes: about three events per batch, about four batches per segment.
    static let sizes = ["HEALTHLOG_BATCH_BYTES": "700", "HEALTHLOG_SEGMENT_BYTES": "3000"]

    /// Where the append in flight dies.
    enum KillPoint: CustomTestStringConvertible, Sendable {
        /// Right after its Nth batch was written.
        case afterBatch(Int)
        case beforeLastBatch
        case afterLastBatch
        /// Right after it created its Nth segment file (header written, no batch in it yet).
        case segmentCreated(Int)
        /// During the commit: once the first sidecar index is rewritten, once the UUID run
        /// is written (`kill:synced` leaves the same files as ``afterLastBatch``).
        case segmentIndexWritten, uuidRunWritten

        var testDescription: String {
            switch self {
            case .afterBatch(let n): "after batch \(n)"
            case .beforeLastBatch: "after all batches but the last"
            case .afterLastBatch: "after the last batch, before the commit"
            case .segmentCreated(let n): "after creating segment \(n)"
            case .segmentIndexWritten: "after a sidecar index"
            case .uuidRunWritten: "after the UUID run"
            }
        }

        /// The `HEALTHLOG_TEST_FAULT` value, for an append of `total` batches.
        func fault(batches total: Int) -> String {
            switch self {
            case .afterBatch(let n): "kill:batch-written:\(n)"
            case .beforeLastBatch: "kill:batch-written:\(total - 1)"
            case .afterLastBatch: "kill:batch-written:\(total)"
            case .segmentCreated(let n): "kill:segment-created:\(n)"
            case .segmentIndexWritten: "kill:segment-index-written"
            case .uuidRunWritten: "kill:uuid-run-written"
            }
        }

        /// Whether the append has written into a segment of its own by then.
        var hasRolled: Bool {
            if case .afterBatch(let n) = self { return n >= 6 }
            return true
        }

        /// Whether the append's last batch, which carries the end-of-append flag, is out.
        var isPastLastBatch: Bool {
            switch self {
            case .afterBatch, .beforeLastBatch, .segmentCreated: false
            case .afterLastBatch, .segmentIndexWritten, .uuidRunWritten: true
            }
        }
    }

    @Test(
        "A writer killed mid-append leaves the appends that returned, all or none of its own, and a store the next writer carries on",
        arguments: [
            KillPoint.afterBatch(1), .afterBatch(6), .beforeLastBatch, .segmentCreated(2),
            .afterLastBatch, .segmentIndexWritten, .uuidRunWritten,
        ])
    func killedMidAppend(_ point: KillPoint) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        let first = Events.lines(1...5)
        let inFlight = Events.lines(6...45, deleting: [2, 4])
        let total = try Self.batchCount(of: inFlight, after: first, in: dir)
        try #require(total >= 10, "the append in flight has \(total) batches")

        try Self.seed(store, with: first)
        let acknowledged = try HealthLogBinary.run(["--store", store, "anchor"]).stdout
        let before = try HealthLogBinary.run(["--store", store, "replay"]).stdout

        // The input (about 10 KB) fits in the pipe buffer, so the kill never meets a half-written stdin.
        let killed = try HealthLogBinary.run(
            ["--store", store, "append"], stdin: inFlight, environment: Self.sizes, injecting: point.fault(batches: total))
        #expect(killed.wasSignalled && killed.status == SIGKILL, "status \(killed.status): \(killed.stderr)")
        #expect(killed.stdout.isEmpty, "no anchor for an append that did not return")
        if point.hasRolled { #expect(try Self.segmentCount(store) >= 2, "the append in flight reached a new segment") }

        let after = try HealthLogBinary.run(["--store", store, "replay"])
        #expect(after.status == 0, "\(after.stderr)")
        let isWhole = after.stdout != before
        if point.isPastLastBatch {
            #expect(Events.seqs(try Self.rawReplay(store)) == (isWhole ? Array(1...47) : Array(1...5)), "all or nothing")
        } else {
            #expect(!isWhole, "part of an append that never finished is visible")
            #expect(after.stdout == before)
            #expect(try HealthLogBinary.run(["--store", store, "anchor"]).stdout == acknowledged)
        }

        let verify = try HealthLogBinary.run(["--store", store, "verify"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(verify.stdout.contains("note: torn tail of ") != isWhole, "\(verify.stdout)")
        #expect(verify.stdout.split(separator: "\n").last?.hasPrefix("ok: \(isWhole ? 47 : 5) events in ") == true, "\(verify.stdout)")

        let next = try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(100...102), environment: Self.sizes)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stderr.hasPrefix("healthlog: note: cut a torn tail of ") != isWhole, "\(next.stderr)")
        #expect(next.stderr.hasSuffix("healthlog: added 3, deleted 0, replaced 0, skipped 0\n"))
        let head: UInt64 = isWhole ? 47 : 5
        #expect(Events.seqs(try Self.rawReplay(store)) == Array(1...(head + 3)))
        let healed = try HealthLogBinary.run(["--store", store, "verify"])
        #expect(healed.status == 0 && !healed.stdout.contains("note:"), "\(healed.stdout)")
    }

    @Test("A second writer waits for the lock, fails with exit 1 naming the other process, and succeeds once the lock is free")
    func lockHeldByAnotherProcess() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        try Self.seed(store, with: Events.lines(1...1))

        let fd = open(store + "/lock", O_RDWR)
        try #require(fd >= 0)
        var isLocked = true
        try #require(flock(fd, LOCK_EX) == 0)
        defer { if isLocked { close(fd) } }

        let blocked = try HealthLogBinary.run(
            ["--store", store, "append"], stdin: Events.lines(2...2), environment: ["HEALTHLOG_LOCK_TIMEOUT": "0.2"])
        #expect(blocked.status == 1)
        #expect(blocked.stdout.isEmpty)
        #expect(
            blocked.stderr
                == "healthlog: error: another healthlog process is writing to \(store); gave up waiting after 0.2 s (set HEALTHLOG_LOCK_TIMEOUT to wait longer)\n")
        let reader = try HealthLogBinary.run(["--store", store, "replay"])
        #expect(reader.status == 0 && Events.seqs(reader.stdout) == [1], "readers never take the lock")

        close(fd)
        isLocked = false
        let freed = try HealthLogBinary.run(
            ["--store", store, "append"], stdin: Events.lines(2...2), environment: ["HEALTHLOG_LOCK_TIMEOUT": "0.2"])
        #expect(freed.status == 0, "\(freed.stderr)")
        #expect(Events.seqs(try Self.rawReplay(store)) == [1, 2])
    }

    @Test("Two appends started at once both succeed, each as one unbroken run of sequence numbers, and a reader sees a whole prefix")
    func concurrentWriters() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        try Self.seed(store, with: Events.lines(1...2))
        let fileA = dir.file("a.ndjson")
        let fileB = dir.file("b.ndjson")
        try Events.lines(1001...1150).write(toFile: fileA, atomically: false, encoding: .utf8)
        try Events.lines(2001...2150).write(toFile: fileB, atomically: false, encoding: .utf8)

        var environment = Self.sizes
        environment["HEALTHLOG_LOCK_TIMEOUT"] = "120"
        let writerA = try HealthLogBinary.launch(["--store", store, "append", fileA], environment: environment, outputIn: dir)
        let writerB = try HealthLogBinary.launch(["--store", store, "append", fileB], environment: environment, outputIn: dir)
        let reader = try HealthLogBinary.launch(["--store", store, "replay", "--raw"], outputIn: dir)
        let (a, b, read) = (writerA.finish(), writerB.finish(), reader.finish())

        #expect(a.status == 0, "\(a.stderr)")
        #expect(b.status == 0, "\(b.stderr)")
        #expect(read.status == 0, "\(read.stderr)")
        #expect([2, 152, 302].contains(Events.seqs(read.stdout).count))
        #expect(Events.seqs(read.stdout) == Array(1...UInt64(Events.seqs(read.stdout).count)))

        let all = try Self.rawReplay(store)
        #expect(Events.seqs(all) == Array(1...302))
        let lines = all.split(separator: "\n")
        for prefix in ["00000000-0000-4000-8000-000000001", "00000000-0000-4000-8000-000000002"] {
            let positions = lines.indices.filter { lines[$0].contains(prefix) }
            #expect(positions.count == 150 && positions.last! - positions.first! == 149, "the append starting \(prefix) is interleaved")
        }
        let head = try HealthLogBinary.run(["--store", store, "anchor"]).stdout
        #expect([a.stdout, b.stdout].contains(head))
        #expect(try HealthLogBinary.run(["--store", store, "verify"]).status == 0)
    }

    // MARK: Helpers

    /// A store handle with the sizes of ``sizes``.
    static func library(_ directory: String) -> HealthStore {
        var options = StoreOptions()
        options.batchBytes = Int(sizes["HEALTHLOG_BATCH_BYTES"]!)!
        options.segmentBytes = Int(sizes["HEALTHLOG_SEGMENT_BYTES"]!)!
        return HealthStore(directory: directory, options: options)
    }

    /// Makes the appends that returned before the crash, through the library with
    /// ``sizes`` (the CLI's `append` costs over a second of CPU in a debug build).
    static func seed(_ store: String, with lines: String) throws {
        _ = try library(store).append(ndjson: Array(lines.utf8))
    }

    /// How many batches `lines` make when appended after `first`, with ``sizes``: the same
    /// appends made in-process into a scratch store.
    static func batchCount(of lines: String, after first: String, in dir: TemporaryDirectory) throws -> Int {
        let scratch = library(dir.file("scratch"))
        _ = try scratch.append(ndjson: Array(first.utf8))
        let before = try scratch.verify().batches
        _ = try scratch.append(ndjson: Array(lines.utf8))
        return try scratch.verify().batches - before
    }

    /// The raw replay of the whole store (stdout), requiring success.
    static func rawReplay(_ store: String) throws -> String {
        let result = try HealthLogBinary.run(["--store", store, "replay", "--raw"])
        try #require(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    /// The number of segment files.
    static func segmentCount(_ store: String) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: store + "/segments").filter { $0.hasSuffix(".log.lz4") }.count
    }
}

/// NDJSON event lines for the CLI tests, with UUIDs derived from a number so every run
/// writes the same bytes.
enum Events {
    /// The UUID of sample `n`.
    static func uuid(_ n: Int) -> String {
        let digits = String(n)
        return "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - digits.count) + digits
    }

    /// One add per number in `range`, cycling through a quantity, a category and a second
    /// quantity type; then a delete of each sample in `deleting`.
    static func lines(_ range: ClosedRange<Int>, deleting: [Int] = []) -> String {
        var text = ""
        for n in range {
            let minute = String(n % 60).count == 1 ? "0\(n % 60)" : String(n % 60)
            switch n % 3 {
            case 0:
                text += #"{"uuid":"\#(uuid(n))","type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T08:\#(minute):00Z","value":\#(60 + n % 50),"unit":"count/min","source":"Watch"}"#
            case 1:
                text += #"{"uuid":"\#(uuid(n))","type":"HKCategoryTypeIdentifierSleepAnalysis","start":"2024-03-01T01:\#(minute):00+01:00","end":"2024-03-01T02:\#(minute):00+01:00","value":"HKCategoryValueSleepAnalysisAsleepCore"}"#
            default:
                text += #"{"uuid":"\#(uuid(n))","type":"HKQuantityTypeIdentifierStepCount","start":"2024-03-01T09:\#(minute):00Z","value":\#(n * 10),"unit":"count","metadata":{"HKMetadataKeyWasUserEntered":false}}"#
            }
            text += "\n"
        }
        for n in deleting { text += #"{"op":"delete","uuid":"\#(uuid(n))"}"# + "\n" }
        return text
    }

    /// The `seq` of each line of replay output.
    static func seqs(_ output: String) -> [UInt64] {
        output.split(separator: "\n").compactMap { line in
            guard line.hasPrefix(#"{"seq":"#) else { return nil }
            return UInt64(line.dropFirst(7).prefix(while: \.isNumber))
        }
    }
}

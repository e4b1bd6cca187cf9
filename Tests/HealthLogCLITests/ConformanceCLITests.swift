import Foundation
import HealthLog
import Synchronization
import HealthLogTestSupport
import Testing

/// The command-line side of the conformance tests of the anchor rules: refused anchors exit 3
/// (rule 6), predicate options and their usage errors (rule 9), paging with an anchor
/// file (rule 4), and `replay --follow` (rule 10) against appends by other processes,
/// stopped by SIGINT and SIGTERM. The library side is in
/// `HealthLogTests/Query/Conformance*Tests.swift`.
@Suite("Conformance: anchor rules on the command line")
struct ConformanceCLITests {
    /// A heart-rate event line with `extra` members appended.
    static func heartRate(_ uuid: String, _ value: Int, start: String = "2024-03-01T08:00:00Z", _ extra: String = "") -> String {
        #"{"uuid":"\#(uuid)","type":"HKQuantityTypeIdentifierHeartRate","start":"\#(start)","value":\#(value),"unit":"count/min"\#(extra)}"# + "\n"
    }

    static func uuid(_ n: Int) -> String { String(format: "00000000-0000-4000-8000-%012d", n) }

    /// Runs `healthlog --store STORE ARGUMENTS`.
    static func tool(_ store: String, _ arguments: [String], stdin: String = "") throws -> BuiltProgram.Result {
        try HealthLogBinary.run(["--store", store] + arguments, stdin: stdin)
    }

    /// Appends `text` with the CLI (another process), expecting success.
    static func append(_ store: String, _ text: String) throws {
        let result = try tool(store, ["append", "--no-sync"], stdin: text)
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// The sequence numbers and UUIDs of NDJSON output.
    static func parse(_ output: String) throws -> [(seq: UInt64, uuid: String, isDelete: Bool)] {
        try output.split(separator: "\n").map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return (try #require((object["seq"] as? NSNumber)?.uint64Value), (object["uuid"] as? String) ?? "", (object["op"] as? String) == "delete")
        }
    }

    /// The token printed as `next-anchor: TOKEN` in `stderr`.
    static func nextAnchor(_ stderr: String) -> String? {
        stderr.split(separator: "\n").last { $0.hasPrefix("next-anchor: ") }.map { String($0.dropFirst("next-anchor: ".count)) }
    }

    /// Sends `signal` to `tool` and collects its result; one that has not exited 60 s later
    /// is an issue, and is killed rather than left to hang the run.
    static func stop(_ tool: LaunchedProgram, with signal: Int32) async -> BuiltProgram.Result {
        if !(await tool.stop(with: signal)) { Issue.record("the follower did not exit within 60 s of signal \(signal)") }
        return tool.finish()
    }

    @Test("Rule 6 (CLI): an anchor that is malformed, from another store, or ahead of the head exits 3 with nothing on stdout, and the anchor file is left alone")
    func rule6RefusedAnchorsExit3() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store"), other = dir.file("other"), old = dir.file("old-copy")
        try Self.append(store, (1...3).map { Self.heartRate(Self.uuid($0), 60 + $0) }.joined())
        try Self.append(other, Self.heartRate(Self.uuid(1), 70))
        // A copy of the store taken now is the same store, three events behind.
        try FileManager.default.copyItem(atPath: store, toPath: old)
        try Self.append(store, (4...5).map { Self.heartRate(Self.uuid($0), 60 + $0) }.joined())
        let head = try Self.tool(store, ["anchor"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let foreign = try Self.tool(other, ["anchor"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try Self.tool(store, ["replay", "--from", head]).status == 0)

        let cases: [(String, [String], String)] = [
            (store, ["--from", "not-an-anchor!"], "malformed"),
            (store, ["--from", String(head.dropLast())], "malformed"),
            (store, ["--from", foreign], "another store"),
            (store, ["--from", "6"], "past the store's head"),
            (old, ["--from", head], "past the store's head"),
            (store, ["--from", foreign, "--follow"], "another store"),
            (store, ["--from", foreign, "--limit", "1", "--type", "HeartRate"], "another store"),
        ]
        for (path, arguments, reason) in cases {
            let result = try Self.tool(path, ["replay"] + arguments)
            #expect(result.status == 3, "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "never read as the beginning")
            #expect(result.stderr.contains(reason), "\(arguments): \(result.stderr)")
            #expect(Self.nextAnchor(result.stderr) == nil)
        }
        // A foreign anchor in the anchor file: exit 3, the file unchanged.
        let anchorFile = dir.file("anchor")
        try Data((foreign + "\n").utf8).write(to: URL(fileURLWithPath: anchorFile))
        let result = try Self.tool(store, ["replay", "--anchor-file", anchorFile])
        #expect(result.status == 3 && result.stdout.isEmpty)
        #expect(String(decoding: FileManager.default.contents(atPath: anchorFile) ?? Data(), as: UTF8.self) == foreign + "\n")
    }

    @Test("Rule 4 (CLI): paging with --limit and --anchor-file returns every item exactly once, in order, the anchor naming the last item delivered")
    func rule4PagingWithAnchorFile() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        try Self.append(store, (1...7).map { Self.heartRate(Self.uuid($0), 60 + $0) }.joined())
        try Self.append(store, #"{"op":"delete","uuid":"\#(Self.uuid(2))"}"# + "\n" + #"{"op":"delete","uuid":"\#(Self.uuid(6))"}"# + "\n")
        let whole = try Self.parse(try Self.tool(store, ["replay"]).stdout).map(\.seq)
        #expect(whole == [1, 3, 4, 5, 7, 8, 9])
        let anchorFile = dir.file("anchor")
        var paged: [UInt64] = []
        for _ in 0..<10 {
            let result = try Self.tool(store, ["replay", "--limit", "3", "--anchor-file", anchorFile])
            #expect(result.status == 0)
            let seqs = try Self.parse(result.stdout).map(\.seq)
            let saved = try #require(try AnchorFile.read(anchorFile))
            #expect(saved.token == Self.nextAnchor(result.stderr))
            if let last = seqs.last { #expect(saved.seq == last) }
            paged += seqs
            if seqs.isEmpty { break }
        }
        #expect(paged == whole)
    }

    @Test("Rule 9 (CLI): repeated --type, --source, --device, --uuid and --category are alternatives; repeated --metadata and --where all apply; fields combine with AND")
    func rule9PredicateOptions() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        let lines = [
            Self.heartRate(Self.uuid(1), 50, #","source":"Watch","device":"W1","metadata":{"k":1,"ctx":"rest"}"#),
            Self.heartRate(Self.uuid(2), 110, #","source":"Phone","device":"P1","metadata":{"k":"1"}"#),
            Self.heartRate(Self.uuid(3), 130, start: "2024-03-01T10:00:00+01:00", #","source":"Scale","metadata":{"k":true,"ctx":"run"}"#),
            #"{"uuid":"\#(Self.uuid(4))","type":"HKCategoryTypeIdentifierSleepAnalysis","start":"2024-03-01T09:00:00Z","end":"2024-03-01T09:30:00Z","value":"HKCategoryValueSleepAnalysisAsleepUnspecified","source":"Watch"}"# + "\n",
            #"{"uuid":"\#(Self.uuid(5))","type":"HKCategoryTypeIdentifierSleepAnalysis","start":"2024-03-01T09:30:00Z","value":3,"source":"Phone"}"# + "\n",
            #"{"uuid":"\#(Self.uuid(6))","type":"HKQuantityTypeIdentifierStepCount","start":"2024-03-01T09:00:00Z","value":200,"unit":"count","metadata":{"k":"true"}}"# + "\n",
        ]
        try Self.append(store, lines.joined())
        func uuids(_ arguments: [String]) throws -> [Int] {
            let result = try Self.tool(store, ["replay"] + arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return try Self.parse(result.stdout).map { Int($0.uuid.suffix(12))! }
        }
        #expect(try uuids(["--type", "HeartRate", "--type", "StepCount"]) == [1, 2, 3, 6])
        #expect(try uuids(["--source", "Watch", "--source", "Scale"]) == [1, 3, 4])
        #expect(try uuids(["--device", "W1", "--device", "P1"]) == [1, 2])
        #expect(try uuids(["--uuid", Self.uuid(2).lowercased(), "--uuid", Self.uuid(5)]) == [2, 5])
        #expect(try uuids(["--category", "1", "--category", "HKCategoryValueSleepAnalysisAsleepCore"]) == [4, 5])
        #expect(try uuids(["--category", "HKCategoryValueSleepAnalysisAsleepUnspecified"]) == [4])
        #expect(try uuids(["--metadata", "k=1"]) == [1, 2])
        #expect(try uuids(["--metadata", "k=true"]) == [3, 6])
        #expect(try uuids(["--metadata", "k", "--metadata", "ctx"]) == [1, 3])
        #expect(try uuids(["--metadata", "k=1", "--metadata", "ctx=rest"]) == [1])
        #expect(try uuids(["--where", "value > 100"]) == [2, 3, 6])
        #expect(try uuids(["--where", "value > 100", "--where", "value<=130"]) == [2, 3])
        #expect(try uuids(["--where", "value != 110", "--type", "HeartRate", "--source", "Watch", "--source", "Scale"]) == [1, 3])
        // Dates: [09:00Z, 09:30Z) — the 10:00+01:00 heart rate is at 09:00Z.
        #expect(try uuids(["--start", "2024-03-01T09:00:00Z", "--end", "2024-03-01T09:30:00Z"]) == [3, 4, 6])
        #expect(try uuids(["--start", "2024-03-01T09:00:00Z", "--end", "2024-03-01T09:30:00Z", "--strict-end"]) == [3, 6])
        #expect(try uuids(["--start", "2024-03-01T09:30:00Z", "--strict-start", "--strict-end"]) == [5])
        #expect(try uuids(["--end", "2024-03-01T09:00:00Z"]) == [1, 2])
        #expect(try uuids(["--start", "2024-03-01", "--end", "2024-03-02", "--source", "Phone"]) == [2, 5])
    }

    @Test("Rule 9 (CLI): a start after the end, a malformed date, UUID or --where expression is bad usage (exit 2) naming the bad token")
    func rule9BadUsage() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        try Self.append(store, Self.heartRate(Self.uuid(1), 60))
        let cases: [([String], String)] = [
            (["--start", "2024-03-02", "--end", "2024-03-01"], "2024-03-02"),
            (["--start", "2024-13-01"], "2024-13-01"),
            (["--end", "yesterday"], "yesterday"),
            (["--uuid", "not-a-uuid"], "not-a-uuid"),
            (["--where", "value => 100"], "'=>'"),
            (["--where", "weight > 100"], "'weight'"),
            (["--where", "value > abc"], "'abc'"),
            (["--where", "value > 1 extra"], "'extra'"),
            (["--where", "value >"], "end of expression"),
            (["--follow", "--limit", "2"], "--limit"),
            (["--limit", "-1"], "-1"),
        ]
        for (arguments, token) in cases {
            let result = try Self.tool(store, ["replay"] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(token), "\(arguments) should name \(token): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test("Rule 10 (CLI): replay --follow delivers the catch-up, then what other processes append, writes the anchor file after each batch, and on SIGINT prints next-anchor and exits 0")
    func rule10FollowSIGINT() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        try Self.append(store, (1...5).map { Self.heartRate(Self.uuid($0), 60 + $0) }.joined())
        let anchorFile = dir.file("anchor")
        try Data("2\n".utf8).write(to: URL(fileURLWithPath: anchorFile))
        let follower = try HealthLogBinary.launch(["--store", store, "replay", "--follow", "--anchor-file", anchorFile], outputIn: dir)
        func seqs() throws -> [UInt64] { try Self.parse(follower.completeOutputLines.joined(separator: "\n")).map(\.seq) }
        func saved() -> UInt64? { (try? AnchorFile.read(anchorFile))?.seq }

        #expect(try await eventually { try seqs() == [3, 4, 5] && saved() == 5 }, "the catch-up and its anchor")
        try Self.append(store, (6...7).map { Self.heartRate(Self.uuid($0), 60 + $0) }.joined())
        #expect(try await eventually { try seqs() == [3, 4, 5, 6, 7] && saved() == 7 }, "a live batch and its anchor")
        try Self.append(store, #"{"op":"delete","uuid":"\#(Self.uuid(4))"}"# + "\n")
        #expect(try await eventually { try seqs() == [3, 4, 5, 6, 7, 8] && saved() == 8 }, "a deletion")
        #expect(try Self.parse(follower.completeOutputLines.joined(separator: "\n")).last?.isDelete == true)

        let result = await Self.stop(follower, with: SIGINT)
        #expect(!result.wasSignalled && result.status == 0, "\(result.stderr)")
        let token = try #require(Self.nextAnchor(result.stderr), "\(result.stderr)")
        #expect(try QueryAnchor(token: token).seq == 8)
        #expect(try AnchorFile.read(anchorFile)?.token == token)
        #expect(try Self.parse(result.stdout).map(\.seq) == [3, 4, 5, 6, 7, 8])
    }

    @Test("Rule 10 (CLI): replay --follow started while other processes keep appending misses nothing and repeats nothing, in increasing order; SIGTERM prints next-anchor and exits 0")
    func rule10FollowRaceSIGTERM() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        try Self.append(store, (1...10).map { Self.heartRate(Self.uuid($0), 60 + $0) }.joined())
        let writerState = WriterState()
        // Keep appending, from other processes, while the follower starts and runs. The
        // appends take as long as a loaded machine makes them: the wait for the writer is
        // for its end, with a bound that only a hang reaches.
        let writer = Thread {
            for i in 0..<12 {
                var text = Self.heartRate(Self.uuid(100 + i), 100 + i)
                text += #"{"uuid":"\#(Self.uuid(200 + i))","type":"HKQuantityTypeIdentifierStepCount","start":"2024-03-01T08:00:00Z","value":\#(i),"unit":"count"}"# + "\n"
                if i % 4 == 1 { text += #"{"op":"delete","uuid":"\#(Self.uuid(1 + i))"}"# + "\n" }
                if let result = try? Self.tool(store, ["append", "--no-sync"], stdin: text), result.status != 0 {
                    writerState.failures.withLock { $0.append(result.stderr) }
                }
            }
            writerState.done.update { $0 = true }
        }
        writer.start()
        let follower = try HealthLogBinary.launch(["--store", store, "replay", "--follow", "--raw", "--type", "HeartRate", "--from", "4"], outputIn: dir)
        #expect(await writerState.done.wait(within: 300) { $0 })
        #expect(writerState.failures.withLock { $0 }.isEmpty)
        let expected = try Self.tool(store, ["replay", "--raw", "--type", "HeartRate", "--from", "4"])
        let expectedLines = expected.stdout.split(separator: "\n").map(String.init)
        #expect(expectedLines.count == 6 + 12 + 3)
        #expect(await eventually { follower.completeOutputLines.count >= expectedLines.count })

        let result = await Self.stop(follower, with: SIGTERM)
        #expect(!result.wasSignalled && result.status == 0, "\(result.stderr)")
        let got = result.stdout.split(separator: "\n").map(String.init)
        #expect(got == expectedLines, "every matching event after the anchor exactly once, in order")
        let seqs = try Self.parse(result.stdout).map(\.seq)
        #expect(zip(seqs, seqs.dropFirst()).allSatisfy { $0 < $1 })
        #expect(try Self.nextAnchor(result.stderr).map { try QueryAnchor(token: $0).seq } == seqs.last)
        #expect(Self.nextAnchor(result.stderr) == Self.nextAnchor(expected.stderr))
    }
}

/// What the appending thread of a follow test reports.
private final class WriterState: Sendable {
    let done = WatchedValue(false)
    let failures = Mutex<[String]>([])
}

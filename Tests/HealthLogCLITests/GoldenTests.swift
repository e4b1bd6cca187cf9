import Foundation
import HealthLogTestSupport
import Testing

/// Golden tests of what `healthlog` prints: every `--help` page word for word
/// (texts in ``GoldenTexts``), the exact text and exit code of the common errors, and the
/// stdout/stderr contract of `append` (the anchor alone on stdout, the summary on stderr)
/// and `replay` (events on stdout, `next-anchor: TOKEN` on stderr, `--anchor-file`).
@Suite("Golden help, errors and output")
struct GoldenTests {
    /// One `--help` page.
    enum HelpPage: String, CaseIterable, CustomTestStringConvertible {
        case overview, initStore = "init", append, add, delete, replay, export, aggregate, plot, workouts, sleep, route, report, backup, restore, recover, anchor, log, stats, verify, reindex, compact,
            importExport = "import", key, unlock, lock
        var testDescription: String { rawValue }

        /// The command words before `--help`.
        var command: [String] { self == .overview ? [] : [rawValue] }

        var expected: String {
            switch self {
            case .overview: GoldenTexts.overview
            case .append: GoldenTexts.append
            case .add: GoldenTexts.add
            case .delete: GoldenTexts.delete
            case .replay: GoldenTexts.replay
            case .export: GoldenTexts.export
            case .aggregate: GoldenTexts.aggregate
            case .plot: GoldenTexts.plot
            case .route: GoldenTexts.route
            case .workouts: GoldenTexts.workouts
            case .sleep: GoldenTexts.sleep
            case .report: GoldenTexts.report
            case .backup: GoldenTexts.backup
            case .restore: GoldenTexts.restore
            case .recover: GoldenTexts.recover
            case .anchor: GoldenTexts.anchor
            case .log: GoldenTexts.log
            case .stats: GoldenTexts.stats
            case .verify: GoldenTexts.verify
            case .reindex: GoldenTexts.reindex
            case .compact: GoldenTexts.compact
            case .importExport: GoldenTexts.importExport
            case .initStore: GoldenTexts.initStore
            case .key: GoldenTexts.key
            case .unlock: GoldenTexts.unlock
            case .lock: GoldenTexts.lock
            }
        }
    }

    static let replayUsage = """
        Usage: healthlog [--store <dir>] replay [--from <anchor>] [--type <type> ...] [predicate options] [--limit <n>] [--raw] [--follow] [--anchor-file <file>] [--format ndjson|csv|ndjson-rows]
        See 'healthlog replay --help'.

        """
    static let deleteUsage = """
        Usage: healthlog [--store <dir>] delete [--no-sync] <uuid> ...
        See 'healthlog delete --help'.

        """
    static let malformed = "is malformed: expected a token printed by healthlog, 0, or a sequence number"

    @Test("Every --help page reads exactly as reviewed, on stdout, with exit 0", arguments: HelpPage.allCases)
    func help(_ page: HelpPage) throws {
        Self.expect(try HealthLogBinary.run(page.command + ["--help"]), status: 0, stdout: page.expected + "\n")
    }

    @Test("-h, 'help COMMAND' and a command's --help after other options print the same page", arguments: HelpPage.allCases)
    func helpSpellings(_ page: HelpPage) throws {
        Self.expect(try HealthLogBinary.run(page.command + ["-h"]), status: 0, stdout: page.expected + "\n")
        Self.expect(try HealthLogBinary.run(["help"] + page.command), status: 0, stdout: page.expected + "\n")
        if page != .overview {
            Self.expect(try HealthLogBinary.run(["--store", "/nonexistent"] + page.command + ["--bogus", "--help"]), status: 0, stdout: page.expected + "\n")
        }
    }

    @Test("An unknown option before the command is named as an option: exit 2 with the top-level usage")
    func unknownTopLevelOption() throws {
        Self.expect(
            try HealthLogBinary.run(["--bogus"]), status: 2,
            stderr: "healthlog: error: unknown option '--bogus'\nUsage: healthlog [--store <dir>] <command> [<options>]\nSee 'healthlog --help'.\n")
    }

    @Test("An unknown command is bad usage: exit 2 with the top-level usage")
    func unknownCommand() throws {
        Self.expect(
            try HealthLogBinary.run(["frobnicate"]), status: 2,
            stderr: "healthlog: error: unknown command 'frobnicate'\nUsage: healthlog [--store <dir>] <command> [<options>]\nSee 'healthlog --help'.\n")
    }

    @Test("An unknown option is bad usage: exit 2 with the command's usage")
    func unknownOption() throws {
        Self.expect(try HealthLogBinary.run(["--store", "/nonexistent", "replay", "--bogus"]), status: 2, stderr: "healthlog: error: unknown option '--bogus'\n" + Self.replayUsage)
    }

    @Test("A --limit that is not a whole number, 0 or more, is bad usage: exit 2", arguments: ["-1", "abc", "1.5", ""])
    func badLimit(_ value: String) throws {
        Self.expect(
            try HealthLogBinary.run(["--store", "/nonexistent", "replay", "--limit", value]), status: 2,
            stderr: "healthlog: error: --limit must be a whole number, 0 or more, not '\(value)'\n" + Self.replayUsage)
    }

    @Test("A malformed anchor, or a token with a broken checksum, is refused with exit 3")
    func malformedAnchor() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        try CrashTests.seed(store, with: Events.lines(1...2))
        Self.expect(try HealthLogBinary.run(["--store", store, "replay", "--from", "zzz!"]), status: 3, stderr: "healthlog: error: anchor 'zzz!' \(Self.malformed)\n")
        var token = Array(try Self.head(store))
        token[5] = token[5] == "A" ? "B" : "A"
        Self.expect(try HealthLogBinary.run(["--store", store, "replay", "--from", String(token)]), status: 3, stderr: "healthlog: error: anchor '\(String(token))' \(Self.malformed)\n")
    }

    @Test("An anchor past the store's head, as a number or as a token, is refused with exit 3, never clamped")
    func anchorAhead() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        try CrashTests.seed(store, with: Events.lines(1...2))
        Self.expect(try HealthLogBinary.run(["--store", store, "replay", "--from", "99"]), status: 3, stderr: "healthlog: error: anchor 99 is past the store's head, sequence 2\n")
        // A copy of the store (same identity) that went on: its anchor is ahead of the original.
        try FileManager.default.copyItem(atPath: store, toPath: dir.file("copy"))
        try CrashTests.seed(dir.file("copy"), with: Events.lines(3...3))
        let ahead = try Self.head(dir.file("copy"))
        Self.expect(
            try HealthLogBinary.run(["--store", store, "replay", "--from", ahead]), status: 3,
            stderr: "healthlog: error: anchor \(ahead) (sequence 3) is past the store's head, sequence 2\n")
    }

    @Test("An anchor from another store is refused with exit 3")
    func foreignAnchor() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try CrashTests.seed(dir.file("one"), with: Events.lines(1...2))
        try CrashTests.seed(dir.file("other"), with: Events.lines(1...2))
        let foreign = try Self.head(dir.file("other"))
        Self.expect(
            try HealthLogBinary.run(["--store", dir.file("one"), "replay", "--from", foreign]), status: 3,
            stderr: "healthlog: error: anchor \(foreign) belongs to another store\n")
    }

    @Test("Reading commands on a missing store exit 1 and create nothing", arguments: ["replay", "anchor", "verify"])
    func missingStore(_ command: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("missing")
        Self.expect(try HealthLogBinary.run(["--store", store, command]), status: 1, stderr: "healthlog: error: no healthlog store at \(store)\n")
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test("A bad input line exits 2 naming the line and the field, and writes nothing")
    func badInputLine() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        try CrashTests.seed(store, with: Events.lines(1...1))
        let head = try Self.head(store)
        let good = Events.lines(2...2)
        let wrongType = #"{"type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T08:00:00Z","value":"72","unit":"count/min"}"#
        Self.expect(
            try HealthLogBinary.run(["--store", store, "append"], stdin: good + wrongType + "\n"), status: 2,
            stderr: "healthlog: error: line 2: field 'value': must be a number for a quantity type\n")
        let file = dir.file("typo.ndjson")
        try (#"{"type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T08:00:00Z","valu":72,"unit":"count/min"}"# + "\n")
            .write(toFile: file, atomically: false, encoding: .utf8)
        Self.expect(try HealthLogBinary.run(["--store", store, "append", file]), status: 2, stderr: "healthlog: error: \(file): line 1: field 'valu': unknown field\n")
        #expect(try Self.head(store) == head)
        #expect(Events.seqs(try CrashTests.rawReplay(store)) == [1])
    }

    @Test("delete without UUIDs, or with something that is not one, is bad usage: exit 2 with the usage")
    func deleteUsage() throws {
        Self.expect(try HealthLogBinary.run(["--store", "/nonexistent", "delete"]), status: 2, stderr: "healthlog: error: an empty delete list: give at least one UUID\n" + Self.deleteUsage)
        Self.expect(try HealthLogBinary.run(["--store", "/nonexistent", "delete", "nope"]), status: 2, stderr: "healthlog: error: argument 1: 'nope' is not a UUID\n" + Self.deleteUsage)
    }

    @Test("delete of a UUID that is not live names its place in the list, not an input line, and writes nothing: exit 2")
    func deleteNotLive() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        try CrashTests.seed(store, with: Events.lines(1...2))
        let before = try DirectoryFiles.byName(store)
        let missing = "11111111-1111-4111-8111-111111111111"
        Self.expect(
            try HealthLogBinary.run(["--store", store, "delete", Events.uuid(1), missing]), status: 2,
            stderr: "healthlog: error: UUID 2: field 'uuid': no sample in the store has UUID \(missing)\n")
        #expect(try DirectoryFiles.byName(store) == before)
    }

    @Test("append prints the new anchor alone on stdout and its summary on stderr; delete does the same")
    func appendOutput() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        let appended = try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(1...3))
        let token = try Self.head(store)
        Self.expect(appended, status: 0, stdout: token + "\n", stderr: "healthlog: added 3, deleted 0, replaced 0, skipped 0\n")
        #expect(token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }, "URL-safe")

        let deleted = try HealthLogBinary.run(["--store", store, "delete", Events.uuid(2).lowercased()])
        let next = try Self.head(store)
        #expect(next != token)
        Self.expect(deleted, status: 0, stdout: next + "\n", stderr: "healthlog: added 0, deleted 1, replaced 0, skipped 0\n")
    }

    @Test("replay prints events on stdout and 'next-anchor: TOKEN' on stderr; the token pages on")
    func replayOutput() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        try CrashTests.seed(store, with: Events.lines(1...3))
        let head = try Self.head(store)
        let all = try HealthLogBinary.run(["--store", store, "replay"])
        Self.expect(all, status: 0, stdout: all.stdout, stderr: "next-anchor: \(head)\n")
        #expect(Events.seqs(all.stdout) == [1, 2, 3] && all.stdout.split(separator: "\n").count == 3)

        let first = try HealthLogBinary.run(["--store", store, "replay", "--limit", "1"])
        #expect(first.stdout == all.stdout.split(separator: "\n")[0] + "\n")
        let token = try #require(first.stderr.split(separator: " ").last.map { String($0.dropLast()) })
        #expect(first.stderr == "next-anchor: \(token)\n" && token != head)
        let rest = try HealthLogBinary.run(["--store", store, "replay", "--from", token])
        Self.expect(rest, status: 0, stdout: all.stdout.split(separator: "\n")[1...].map { $0 + "\n" }.joined(), stderr: "next-anchor: \(head)\n")
        Self.expect(try HealthLogBinary.run(["--store", store, "replay", "--from", head]), status: 0, stderr: "next-anchor: \(head)\n")
    }

    @Test("--anchor-file is read when --from is absent, written 0600 with the new token, and ignored in favour of --from")
    func anchorFile() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        let file = dir.file("anchor")
        try CrashTests.seed(store, with: Events.lines(1...3))
        let head = try Self.head(store)

        // Under umask 000, so only the tool itself can make the file private.
        let first = try HealthLogBinary.launch(["--store", store, "replay", "--anchor-file", file], umask: "000", outputIn: dir).finish()
        #expect(first.status == 0 && Events.seqs(first.stdout) == [1, 2, 3])
        #expect(try String(contentsOfFile: file, encoding: .utf8) == head + "\n")
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int == 0o600)

        Self.expect(try HealthLogBinary.run(["--store", store, "replay", "--anchor-file", file]), status: 0, stderr: "next-anchor: \(head)\n")
        try CrashTests.seed(store, with: Events.lines(4...4))
        let newer = try Self.head(store)
        let update = try HealthLogBinary.run(["--store", store, "replay", "--anchor-file", file])
        Self.expect(update, status: 0, stdout: update.stdout, stderr: "next-anchor: \(newer)\n")
        #expect(Events.seqs(update.stdout) == [4])
        #expect(try String(contentsOfFile: file, encoding: .utf8) == newer + "\n")

        let fromZero = try HealthLogBinary.run(["--store", store, "replay", "--from", "0", "--anchor-file", file])
        #expect(fromZero.status == 0 && Events.seqs(fromZero.stdout) == [1, 2, 3, 4])

        try "garbage\n".write(toFile: file, atomically: false, encoding: .utf8)
        Self.expect(try HealthLogBinary.run(["--store", store, "replay", "--anchor-file", file]), status: 3, stderr: "healthlog: error: \(file): anchor 'garbage' \(Self.malformed)\n")
    }

    /// How the store is spoiled for ``damagedStore(_:)``.
    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        case flippedBatchHeader, newerFormatInMeta
        var testDescription: String { rawValue }
    }

    @Test("On a damaged or newer-format store every command exits 1 saying where or why, and a writer changes nothing", arguments: Damage.allCases)
    func damagedStore(_ damage: Damage) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        try CrashTests.seed(store, with: Events.lines(1...12))
        try CrashTests.seed(store, with: Events.lines(13...24))
        let error: String
        switch damage {
        case .flippedBatchHeader:
            let segment = "segments/00000000000000000001.0000.log.lz4"
            var bytes = try Data(contentsOf: URL(fileURLWithPath: store + "/" + segment))
            let at = try #require(Self.batchHeaderOffsets(bytes).first)
            bytes[at + 20] ^= 0xFF
            try bytes.write(to: URL(fileURLWithPath: store + "/" + segment))
            // Without its sidecar index, so the batch headers are read from the segment.
            try FileManager.default.removeItem(atPath: store + "/segments/00000000000000000001.0000.idx")
            error = "\(segment) at byte \(at): batch header checksum mismatch; "
        case .newerFormatInMeta:
            let meta = try String(contentsOfFile: store + "/meta", encoding: .utf8)
            try meta.replacingOccurrences(of: "\nformat 1\n", with: "\nformat 3\n").write(toFile: store + "/meta", atomically: false, encoding: .utf8)
            error = "\(store) was written by healthlog format version 3; this healthlog reads up to version 2: upgrade healthlog\n"
        }
        let before = try DirectoryFiles.byName(store)
        for command in [["replay"], ["anchor"], ["delete", Events.uuid(1)], ["verify"]] {
            let result = try HealthLogBinary.run(["--store", store] + command)
            #expect(result.status == 1 && !result.wasSignalled, "\(command): \(result.stderr)")
            if damage == .flippedBatchHeader, command == ["verify"] {
                #expect(result.stdout.hasPrefix("problem: " + error) && result.stderr.isEmpty, "\(result.stdout)")
            } else {
                #expect(result.stdout.isEmpty)
                #expect(result.stderr.hasPrefix("healthlog: error: " + error) && result.stderr.hasSuffix("\n"), "\(command): \(result.stderr)")
                #expect(damage == .newerFormatInMeta || result.stderr.contains("damage, not a torn tail"), "\(command): \(result.stderr)")
            }
        }
        #expect(try DirectoryFiles.byName(store) == before)
    }

    @Test("A writer exits 1 and cuts nothing when the last batch of an acknowledged append is damaged")
    func damagedAcknowledgedTail() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        try CrashTests.seed(store, with: Events.lines(1...12))
        try CrashTests.seed(store, with: Events.lines(13...24))
        let segments = try FileManager.default.contentsOfDirectory(atPath: store + "/segments").sorted()
        let path = store + "/segments/" + (try #require(segments.last))
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let at = try #require(Self.batchHeaderOffsets(bytes).last)
        bytes[at + 30] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: path))
        let before = try DirectoryFiles.byName(store)
        let result = try HealthLogBinary.run(["--store", store, "delete", Events.uuid(1)])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("at byte \(at): batch header checksum mismatch"), "\(result.stderr)")
        #expect(try DirectoryFiles.byName(store) == before)
    }

    // MARK: Helpers

    /// Checks a run's exit status and its exact output.
    static func expect(
        _ result: BuiltProgram.Result, status: Int32, stdout: String = "", stderr: String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(!result.wasSignalled, sourceLocation: sourceLocation)
        #expect(result.status == status, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout == stdout, sourceLocation: sourceLocation)
        #expect(result.stderr == stderr, sourceLocation: sourceLocation)
    }

    /// The store's head anchor, as `healthlog anchor` prints it.
    static func head(_ store: String) throws -> String {
        let result = try HealthLogBinary.run(["--store", store, "anchor"])
        try #require(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        return String(result.stdout.dropLast())
    }

    /// The offsets of every batch header (its skippable-frame magic, `51 2A 4D 18`) in a segment.
    static func batchHeaderOffsets(_ bytes: Data) -> [Int] {
        let magic: [UInt8] = [0x51, 0x2A, 0x4D, 0x18]
        let array = [UInt8](bytes)
        return array.indices.dropLast(3).filter { Array(array[$0..<$0 + 4]) == magic }
    }
}

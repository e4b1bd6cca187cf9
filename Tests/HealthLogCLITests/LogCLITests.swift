import Foundation
import HealthLogTestSupport
import Testing

/// `healthlog log` and the restore that shows what it does: each append with what made it,
/// `restore --to` printing what it keeps and discards, `--dry-run`, and the empty cut refused.
@Suite("log and restore preview")
struct LogCLITests {
    @Test("log lists add, append FILE, delete and import FILE (exported DATE), newest first, each with its anchor; --format ndjson and --limit")
    func listsWhatMadeEachAppend() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        let input = dir.file("week-1.ndjson")
        try Events.lines(1...10).write(toFile: input, atomically: true, encoding: .utf8)
        let appended = try HealthLogBinary.run(["--store", store, "append", input])
        try #require(appended.status == 0, "\(appended.stderr)")
        #expect(try HealthLogBinary.run(["--store", store, "add", "--type", "HeartRate", "--value", "70", "--unit", "count/min"]).status == 0)
        #expect(try HealthLogBinary.run(["--store", store, "delete", Events.uuid(3)]).status == 0)
        let imported = try HealthLogBinary.run(["--store", store, "import", PackageFiles.appleHealthExport("freddiefujiwara-ahcd.xml")])
        try #require(imported.status == 0, "\(imported.stderr)")
        let log = try HealthLogBinary.run(["--store", store, "log"])
        #expect(log.status == 0, "\(log.stderr)")
        let rows = log.stdout.split(separator: "\n").map(String.init)
        #expect(rows.count == 5)
        #expect(rows[0].hasPrefix("seq") && rows[0].contains("committed") && rows[0].contains("anchor"))
        #expect(rows[1].hasPrefix("13…28 ") && rows[1].contains(" import freddiefujiwara-ahcd.xml (exported "), "\(rows[1])")
        #expect(rows[2].hasPrefix("12 ") && rows[2].contains(" delete "), "\(rows[2])")
        #expect(rows[3].hasPrefix("11 ") && rows[3].contains(" add "), "\(rows[3])")
        #expect(rows[4].hasPrefix("1…10 ") && rows[4].contains(" append week-1.ndjson "), "\(rows[4])")
        #expect(rows[4].hasSuffix(appended.stdout.trimmingCharacters(in: .newlines)))
        let ndjson = try HealthLogBinary.run(["--store", store, "log", "--format", "NDJSON", "--limit", "2"])
        let objects = try ndjson.stdout.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(objects.count == 2)
        #expect(objects[0]["command"] as? String == "import" && objects[0]["exportDate"] != nil && objects[0]["committedAt"] != nil)
        #expect(objects[1]["firstSeq"] as? Int == 12 && objects[1]["deleted"] as? Int == 1 && objects[1]["added"] as? Int == 0)
        let fresh = dir.file("fresh")
        #expect(try HealthLogBinary.run(["--store", fresh, "import", PackageFiles.appleHealthExport("freddiefujiwara-ahcd.xml")]).status == 0)
        let freshRows = try HealthLogBinary.run(["--store", fresh, "log"]).stdout.split(separator: "\n")
        #expect(freshRows.count == 2 && freshRows[1].contains(" import freddiefujiwara-ahcd.xml (exported "), "\(freshRows)")
        let none = try HealthLogBinary.run(["--store", dir.file("none"), "log"])
        #expect(none.status == 1 && none.stderr.contains("no store"), "\(none.stderr)")
    }

    @Test("restore --to prints what it keeps and discards; --dry-run changes nothing; the anchor from log undoes the newest append")
    func previewAndDryRun() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        #expect(try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(1...10)).status == 0)
        #expect(try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(11...20)).status == 0)
        #expect(try HealthLogBinary.run(["--store", store, "backup", dir.file("backup")]).status == 0)
        #expect(try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(21...25)).status == 0)
        let rows = try HealthLogBinary.run(["--store", dir.file("backup"), "log"]).stdout.split(separator: "\n")
        let undo = try #require(rows.last?.split(separator: " ").last.map(String.init))
        let before = try FileTreeImage(dir.path)
        let dry = try HealthLogBinary.run(["--store", store, "restore", "--force", "--dry-run", "--to", undo, dir.file("backup")])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stderr.contains("keeps sequence 1…10 (1 append; the last committed "), "\(dry.stderr)")
        #expect(dry.stderr.contains("and discards the backup's sequence 11…20 (1 append, "), "\(dry.stderr)")
        #expect(dry.stderr.contains("and the store's sequence 21…25, which the backup does not hold"), "\(dry.stderr)")
        #expect(dry.stderr.contains("dry run: nothing was changed") && dry.stdout.isEmpty)
        #expect(try FileTreeImage(dir.path) == before)
        let real = try HealthLogBinary.run(["--store", store, "restore", "--force", "--to", undo, dir.file("backup")])
        #expect(real.status == 0 && real.stderr.contains("keeps sequence 1…10"), "\(real.stderr)")
        #expect(Events.seqs(try CrashTests.rawReplay(store)) == Array(1...10))
        #expect(try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(30...31)).status == 0)
        let log = try HealthLogBinary.run(["--store", store, "log"]).stdout.split(separator: "\n").map(String.init)
        #expect(log.count == 4 && log[1].hasPrefix("26…27 "), "\(log)")
        #expect(log[2].hasPrefix("- ") && log[2].hasSuffix("restore: kept 1…10, new timeline from 26 (11…25 discarded)"), "\(log)")
        #expect(log[3].hasPrefix("1…10 "), "\(log)")
        let limited = try HealthLogBinary.run(["--store", store, "log", "--limit", "2"]).stdout.split(separator: "\n").map(String.init)
        #expect(limited == log, "--limit counts appends, not the restore rows between them: \(limited)")
    }

    @Test("A bare date before every append exits 3 naming --to 0 and changes nothing; --time-zone moves the bare date to that zone's midnight; --to 0 empties the store")
    func emptyCutRefused() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        #expect(try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(1...10)).status == 0)
        #expect(try HealthLogBinary.run(["--store", store, "backup", dir.file("backup")]).status == 0)
        let today = String(ISO8601DateFormatter().string(from: Date()).prefix(10))
        let before = try FileTreeImage(dir.path)
        let refused = try HealthLogBinary.run(["--store", store, "restore", "--force", "--to", today, dir.file("backup")])
        #expect(refused.status == 3, "\(refused.stderr)")
        #expect(refused.stderr.contains("to \(today)T00:00:00Z would keep no event") && refused.stderr.contains("give --to 0"), "\(refused.stderr)")
        #expect(try FileTreeImage(dir.path) == before)
        let zoned = try HealthLogBinary.run(["--store", store, "restore", "--force", "--dry-run", "--time-zone", "Pacific/Kiritimati", "--to", today, dir.file("backup")])
        #expect(zoned.status == 3 && zoned.stderr.contains("T10:00:00Z would keep no event"), "\(zoned.stderr)")
        let emptied = try HealthLogBinary.run(["--store", store, "restore", "--force", "--to", "0", dir.file("backup")])
        #expect(emptied.status == 0 && emptied.stderr.contains("keeps no event"), "\(emptied.stderr)")
        #expect(Events.seqs(try CrashTests.rawReplay(store)).isEmpty)
    }
}

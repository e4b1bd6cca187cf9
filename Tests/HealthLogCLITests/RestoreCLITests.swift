import Foundation
import HealthLogTestSupport
import Testing

/// `healthlog restore SRC [--force]`: its exit codes, the refusal of anchors into discarded
/// history (exit 3), and a kill at every step leaving the old store or the new one.
@Suite("restore")
struct RestoreCLITests {
    /// A store of events 1…10 backed up, then grown to 20; returns the anchor of event 15.
    private static func seed(_ dir: TemporaryDirectory) throws -> String {
        try CrashTests.seed(dir.file("store"), with: Events.lines(1...10))
        let backup = try HealthLogBinary.run(["--store", dir.file("store"), "backup", dir.file("backup")])
        try #require(backup.status == 0, "\(backup.stderr)")
        let more = try HealthLogBinary.run(["--store", dir.file("store"), "append"], stdin: Events.lines(11...20))
        try #require(more.status == 0, "\(more.stderr)")
        let page = try HealthLogBinary.run(["--store", dir.file("store"), "replay", "--limit", "15"])
        return String(try #require(page.stderr.split(separator: "\n").first { $0.hasPrefix("next-anchor: ") }).dropFirst(13))
    }

    @Test("Exit 2 over a store without --force; exit 0 with it; an anchor into the discarded history exits 3 with the advice, before and after new appends")
    func exitCodes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let discarded = try Self.seed(dir)
        let refused = try HealthLogBinary.run(["--store", dir.file("store"), "restore", dir.file("backup")])
        #expect(refused.status == 2 && refused.stderr.contains("pass --force"), "\(refused.stderr)")
        let restored = try HealthLogBinary.run(["--store", dir.file("store"), "restore", "--force", dir.file("backup")])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.stderr.contains("new timeline from sequence 21; sequence 11…20 discarded"), "\(restored.stderr)")
        for round in 0..<2 {
            let replay = try HealthLogBinary.run(["--store", dir.file("store"), "replay", "--from", discarded])
            #expect(replay.status == 3, "round \(round): \(replay.stderr)")
            #expect(replay.stderr.contains("resync from 0 or from an anchor at or before 10"), "\(replay.stderr)")
            _ = try HealthLogBinary.run(["--store", dir.file("store"), "append"], stdin: Events.lines((31 + 10 * round)...(40 + 10 * round)))
        }
        #expect(Events.seqs(try CrashTests.rawReplay(dir.file("store"))) == Array(1...10) + Array(21...40))
        #expect(try HealthLogBinary.run(["--store", dir.file("store"), "verify"]).status == 0)
        let damaged = dir.file("backup/checkpoint")
        var bytes = try #require(FileManager.default.contents(atPath: damaged))
        bytes[9] ^= 1
        try bytes.write(to: URL(fileURLWithPath: damaged))
        let tampered = try HealthLogBinary.run(["--store", dir.file("fresh"), "restore", dir.file("backup")])
        #expect(tampered.status == 1 && !FileManager.default.fileExists(atPath: dir.file("fresh")), "\(tampered.stderr)")
    }

    @Test("A restore where its store was lost names the 2^32 numbers it leaves unused as such, not as discarded history; a cut one names both")
    func lostStoreNumbersLeftUnused() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        _ = try Self.seed(dir)
        let restored = try HealthLogBinary.run(["--store", dir.file("lost"), "restore", dir.file("backup")])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(
            restored.stderr.contains("new timeline from sequence 4294967307; sequence 11…4294967306 left unused: the store the backup came from may have issued them after the backup"),
            "\(restored.stderr)")
        #expect(!restored.stderr.contains("discarded"), "\(restored.stderr)")
        // A backup of two appends, 1…5 and 6…10, cut after the first.
        for range in [1...5, 6...10] { _ = try HealthLogBinary.run(["--store", dir.file("two"), "append"], stdin: Events.lines(range)) }
        try #require(try HealthLogBinary.run(["--store", dir.file("two"), "backup", dir.file("two-backup")]).status == 0)
        let cut = try HealthLogBinary.run(["--store", dir.file("cut"), "restore", "--to", "5", dir.file("two-backup")])
        #expect(cut.status == 0, "\(cut.stderr)")
        #expect(cut.stderr.contains("new timeline from sequence 4294967307; sequence 6…10 discarded; sequence 11…4294967306 left unused"), "\(cut.stderr)")
    }

    @Test(
        "A restore killed at any step leaves the old store or the new one, whole; the next restore removes what it left and succeeds",
        arguments: ["restore-copied", "restore-verified", "restore-synced", "restore-swapped"])
    func killed(_ point: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        _ = try Self.seed(dir)
        let old = try CrashTests.rawReplay(dir.file("store"))
        let killed = try HealthLogBinary.run(["--store", dir.file("store"), "restore", "--force", dir.file("backup")], injecting: "kill:\(point)")
        try #require(killed.wasSignalled, "status \(killed.status): \(killed.stderr)")
        let seqs = Events.seqs(try CrashTests.rawReplay(dir.file("store")))
        #expect(seqs == Events.seqs(old) || seqs == Array(1...10), "\(point): \(seqs)")
        #expect(seqs == (point == "restore-swapped" ? Array(1...10) : Array(1...20)))
        #expect(try HealthLogBinary.run(["--store", dir.file("store"), "verify"]).status == 0)
        let again = try HealthLogBinary.run(["--store", dir.file("store"), "restore", "--force", dir.file("backup")])
        #expect(again.status == 0 && again.stderr.contains("left by an interrupted restore"), "\(again.stderr)")
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: dir.path)).contains { $0.contains(".restore-") })
        let next = try HealthLogBinary.run(["--store", dir.file("store"), "append"], stdin: Events.lines(50...50))
        #expect(Events.seqs(try CrashTests.rawReplay(dir.file("store"))) == Array(1...10) + [21], "\(next.stderr)")
    }
}

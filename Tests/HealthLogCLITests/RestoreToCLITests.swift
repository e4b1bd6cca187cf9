import Foundation
import HealthLogTestSupport
import Testing

/// `healthlog restore SRC --to ANCHOR|DATE`: undoing a bad import, the refused points
/// (exit 3, nothing written), and a kill at every step of a point-in-time restore.
@Suite("restore --to")
struct RestoreToCLITests {
    /// What ``seed(_:)`` built.
    struct Seeded {
        /// The anchor printed after the good appends (1…20).
        var good: String
        /// An instant after the good appends and before the bad one, to the millisecond.
        var beforeBad: String
        /// The anchor printed after the bad append (21…30).
        var bad: String
    }

    /// Returns once the wall clock shows a later millisecond than `date`.
    private static func waitPast(_ date: Date) {
        while Date().timeIntervalSince1970 * 1000 < (date.timeIntervalSince1970 * 1000).rounded(.down) + 1 {}
    }

    /// Two good appends (1…10, 11…20), then a bad one (21…30), then a backup (head 30):
    /// the backup holds the mistake to undo.
    private static func seed(_ dir: TemporaryDirectory) throws -> Seeded {
        let store = dir.file("store")
        _ = try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(1...10))
        let good = try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(11...20))
        try #require(good.status == 0, "\(good.stderr)")
        waitPast(Date())
        let between = Date()
        waitPast(between)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let bad = try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(21...30))
        try #require(bad.status == 0, "\(bad.stderr)")
        let backup = try HealthLogBinary.run(["--store", store, "backup", dir.file("backup")])
        try #require(backup.status == 0, "\(backup.stderr)")
        return Seeded(
            good: good.stdout.trimmingCharacters(in: .newlines), beforeBad: formatter.string(from: between), bad: bad.stdout.trimmingCharacters(in: .newlines))
    }

    @Test(
        "Undoing a bad import: --to the anchor or the instant before it keeps 1…20; anchors before the cut work, after it exit 3 with the advice; new events start above 30",
        arguments: ["anchor", "date"])
    func undoBadImport(_ kind: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let seeded = try Self.seed(dir)
        let point = kind == "anchor" ? seeded.good : seeded.beforeBad
        let restored = try HealthLogBinary.run(["--store", dir.file("store"), "restore", "--force", "--to", point, dir.file("backup")])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.stdout.trimmingCharacters(in: .newlines) == seeded.good)
        #expect(restored.stderr.contains("restored 20 events (cut at sequence 20 of the backup's 30)"), "\(restored.stderr)")
        #expect(restored.stderr.contains("new timeline from sequence 31; sequence 21…30 discarded"), "\(restored.stderr)")
        #expect(Events.seqs(try CrashTests.rawReplay(dir.file("store"))) == Array(1...20))
        let before = try HealthLogBinary.run(["--store", dir.file("store"), "replay", "--raw", "--from", "15"])
        #expect(before.status == 0 && Events.seqs(before.stdout) == Array(16...20), "\(before.stderr)")
        for anchor in [seeded.bad, "25"] {
            let after = try HealthLogBinary.run(["--store", dir.file("store"), "replay", "--from", anchor])
            #expect(after.status == 3 && after.stderr.contains("resync from 0 or from an anchor at or before 20"), "\(after.stderr)")
        }
        let next = try HealthLogBinary.run(["--store", dir.file("store"), "append"], stdin: Events.lines(40...42))
        #expect(next.status == 0, "\(next.stderr)")
        #expect(Events.seqs(try CrashTests.rawReplay(dir.file("store"))) == Array(1...20) + [31, 32, 33])
        #expect(try HealthLogBinary.run(["--store", dir.file("store"), "verify"]).status == 0)
    }

    @Test(
        "A malformed, foreign or past-the-head --to, or a date after the backup, exits 3 and writes nothing",
        arguments: ["malformed", "bad-date", "foreign", "past-head", "future"])
    func refused(_ kind: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        _ = try Self.seed(dir)
        let point: String
        switch kind {
        case "malformed": point = "yesterday"
        case "bad-date": point = "2026-13-01"
        case "foreign": point = try HealthLogBinary.run(["--store", dir.file("other"), "append"], stdin: Events.lines(1...1)).stdout.trimmingCharacters(in: .newlines)
        case "past-head": point = "31"
        default: point = "2999-01-01"
        }
        let before = try FileTreeImage(dir.file("store"))
        for (target, force) in [("store", true), ("fresh", false)] {
            let result = try HealthLogBinary.run(["--store", dir.file(target), "restore"] + (force ? ["--force"] : []) + ["--to", point, dir.file("backup")])
            #expect(result.status == 3 && result.stderr.hasPrefix("healthlog: error: "), "\(kind): \(result.status) \(result.stderr)")
            if kind == "bad-date" { #expect(result.stderr.hasPrefix("healthlog: error: --to '2026-13-01' is not a date: 2026-13-01 is not a day of the calendar")) }
        }
        #expect(try FileTreeImage(dir.file("store")) == before)
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(!left.contains("fresh") && !left.contains { $0.contains(".restore-") }, "\(left)")
    }

    @Test(
        "A point-in-time restore killed at any step leaves the old store or the cut one, whole; the next restore removes what it left and succeeds",
        arguments: ["restore-copied", "restore-cut", "restore-verified", "restore-synced", "restore-swapped"])
    func killed(_ point: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let seeded = try Self.seed(dir)
        _ = try HealthLogBinary.run(["--store", dir.file("store"), "append"], stdin: Events.lines(31...35))
        let restore = ["--store", dir.file("store"), "restore", "--force", "--to", seeded.good, dir.file("backup")]
        let old = try FileTreeImage(dir.file("store"))
        let killed = try HealthLogBinary.run(restore, injecting: "kill:\(point)")
        try #require(killed.wasSignalled, "status \(killed.status): \(killed.stderr)")
        if point != "restore-swapped" { #expect(try FileTreeImage(dir.file("store")) == old, "\(point): the old store was touched") }
        let seqs = Events.seqs(try CrashTests.rawReplay(dir.file("store")))
        #expect(seqs == (point == "restore-swapped" ? Array(1...20) : Array(1...35)), "\(point): \(seqs)")
        #expect(try HealthLogBinary.run(["--store", dir.file("store"), "verify"]).status == 0)
        let again = try HealthLogBinary.run(restore)
        #expect(again.status == 0 && again.stderr.contains("left by an interrupted restore"), "\(again.stderr)")
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: dir.path)).contains { $0.contains(".restore-") })
        _ = try HealthLogBinary.run(["--store", dir.file("store"), "append"], stdin: Events.lines(50...50))
        #expect(Events.seqs(try CrashTests.rawReplay(dir.file("store"))) == Array(1...20) + [36])
        #expect(try HealthLogBinary.run(["--store", dir.file("store"), "verify"]).status == 0)
    }
}

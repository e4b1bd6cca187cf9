#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HealthLogTestSupport
import Testing

/// `healthlog backup`: the backup's head anchor on stdout, a summary on stderr, exit codes.
@Suite("backup")
struct BackupCLITests {
    @Test("backup prints the copy's head anchor, which the store also gives; a non-store destination exits 2, a missing store 1")
    func backupCommand() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        let appended = try HealthLogBinary.run(
            ["--store", store, "append"], stdin: #"{"type":"HKQuantityTypeIdentifierStepCount","start":"2024-03-01T08:00:00Z","value":5,"unit":"count"}"# + "\n")
        let result = try HealthLogBinary.run(["--store", store, "backup", dir.file("backup")])
        #expect(result.status == 0)
        #expect(result.stdout == appended.stdout)
        #expect(result.stderr.hasPrefix("healthlog: backed up 1 event: "))
        #expect(try HealthLogBinary.run(["--store", dir.file("backup"), "replay", "--from", "0"]).stdout.contains("HKQuantityTypeIdentifierStepCount"))
        #expect(try HealthLogBinary.run(["--store", store, "backup", dir.path]).status == 2)
        #expect(try HealthLogBinary.run(["--store", dir.file("none"), "backup", dir.file("backup2")]).status == 1)
        #expect(try HealthLogBinary.run(["--store", store, "backup"]).status == 2)
    }

    /// A step-count line for `append`, numbered by its value.
    static func steps(_ value: Int) -> String {
        #"{"type":"HKQuantityTypeIdentifierStepCount","start":"2024-03-01T08:00:00Z","value":\#(value),"unit":"count"}"# + "\n"
    }

    @Test("backup --follow keeps the backup current as another process appends, and on SIGINT exits 0 with a backup equal to the store")
    func followKeepsTheBackupCurrent() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store"), backup = dir.file("backup")
        #expect(try HealthLogBinary.run(["--store", store, "append", "--no-sync"], stdin: Self.steps(1)).status == 0)
        let follower = try HealthLogBinary.launch(["--store", store, "backup", "--follow", backup], outputIn: dir)
        func backedUp() -> String {
            (try? HealthLogBinary.run(["--store", backup, "replay", "--raw", "--from", "0"]).stdout) ?? ""
        }
        #expect(await eventually { backedUp().contains(#""value":1,"#) })
        for round in 2...4 {
            #expect(try HealthLogBinary.run(["--store", store, "append", "--no-sync"], stdin: Self.steps(round)).status == 0)
            #expect(await eventually { backedUp().contains(#""value":\#(round),"#) }, "round \(round)")
        }
        if !(await follower.stop(with: SIGINT)) { Issue.record("backup --follow did not exit within 60 s of SIGINT") }
        let result = follower.finish()
        #expect(result.status == 0, "\(result.stderr)")
        let head = try HealthLogBinary.run(["--store", store, "anchor"]).stdout
        #expect(result.stdout == head)
        #expect(result.stderr.hasSuffix("healthlog: backed up to seq 4\n"), "\(result.stderr)")
        #expect(try HealthLogBinary.run(["--store", backup, "verify"]).status == 0)
        #expect(backedUp() == (try HealthLogBinary.run(["--store", store, "replay", "--raw", "--from", "0"]).stdout))
        #expect(try HealthLogBinary.run(["--store", dir.file("restored"), "restore", backup]).status == 0)
    }

    /// Each file's inode and modification and change times under `directory`, by relative
    /// path, `manifest` left out.
    static func stamps(_ directory: String) throws -> [String: [Int]] {
        var stamps: [String: [Int]] = [:]
        for name in try FileManager.default.subpathsOfDirectory(atPath: directory) where name != "manifest" {
            var info = stat()
            try #require(lstat(directory + "/" + name, &info) == 0)
            stamps[name] = [Int(info.st_ino), info.st_mtim.tv_sec, info.st_mtim.tv_nsec, info.st_ctim.tv_sec, info.st_ctim.tv_nsec]
        }
        return stamps
    }

    @Test("A backup of an unchanged store into its earlier backup leaves every file there untouched (inode and times), meta and checkpoint included")
    func unchangedFilesAreLeftAlone() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store"), backup = dir.file("backup")
        #expect(try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(1...40, deleting: [3])).status == 0)
        #expect(try HealthLogBinary.run(["--store", store, "backup", backup]).status == 0)
        let before = try Self.stamps(backup)
        #expect(before.keys.contains("meta") && before.keys.contains("checkpoint"))
        let again = try HealthLogBinary.run(["--store", store, "backup", backup])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try Self.stamps(backup) == before)
        #expect(try HealthLogBinary.run(["--store", backup, "verify"]).status == 0)
    }

    @Test("backup --follow takes a round when the store is compacted, without waiting for an append")
    func followNoticesACompaction() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store"), backup = dir.file("backup")
        #expect(try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(1...6)).status == 0)
        let anchor = try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(7...8, deleting: [1, 2]))
        #expect(anchor.status == 0)
        let follower = try HealthLogBinary.launch(["--store", store, "backup", "--follow", backup], outputIn: dir)
        #expect(await eventually { FileManager.default.fileExists(atPath: backup + "/manifest") })
        let compacted = try HealthLogBinary.run(["--store", store, "compact", "--horizon", anchor.stdout.trimmingCharacters(in: .whitespacesAndNewlines)])
        #expect(compacted.status == 0, "\(compacted.stderr)")
        let expected = try HealthLogBinary.run(["--store", store, "replay", "--raw"]).stdout
        #expect(await eventually {
            FileManager.default.fileExists(atPath: backup + "/compactions")
                && (try? HealthLogBinary.run(["--store", backup, "replay", "--raw"]).stdout) == expected
        }, "the backup holds the compacted log")
        if !(await follower.stop(with: SIGINT)) { Issue.record("backup --follow did not exit within 60 s of SIGINT") }
        #expect(follower.finish().status == 0)
        #expect(try HealthLogBinary.run(["--store", backup, "verify"]).status == 0)
    }

    @Test("A backup --follow round that fails ends the follow by itself with exit 1 and the error, and the backup has no manifest")
    func failedRoundEndsTheFollow() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store"), backup = dir.file("backup")
        #expect(try HealthLogBinary.run(["--store", store, "append", "--no-sync"], stdin: Self.steps(1)).status == 0)
        let follower = try HealthLogBinary.launch(["--store", store, "backup", "--follow", backup], outputIn: dir)
        #expect(await eventually { FileManager.default.fileExists(atPath: backup + "/manifest") })
        try FileManager.default.removeItem(atPath: backup + "/segments")
        try ByteSurgery.write([0], to: backup + "/segments")
        #expect(try HealthLogBinary.run(["--store", store, "append", "--no-sync"], stdin: Self.steps(2)).status == 0)
        #expect(await follower.stop(with: 0), "signal 0 only waits: the follow must end by itself")
        let result = follower.finish()
        #expect(result.status == 1 && result.stderr.contains("healthlog: error: "), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: backup + "/manifest"))
    }
}

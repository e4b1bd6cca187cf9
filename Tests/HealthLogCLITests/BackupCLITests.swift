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
}

#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// `healthlog backup` and `restore` on an encrypted store, run with no secret at all.
@Suite("backup of an encrypted store")
struct EncryptedBackupCLITests {
    /// An encrypted store at `path`, made by `init --encrypt` with a key file beside it
    /// (returned with a handle opened by that file), holding `count` step counts.
    private static func encryptedStore(_ path: String, count: Int) throws -> (store: HealthStore, keyFile: String) {
        let keyFile = path + ".key"
        try ByteSurgery.write(Sodium.random(count: 32), to: keyFile)
        chmod(keyFile, 0o600)
        let made = try HealthLogBinary.run(["--key-file", keyFile, "--store", path, "init", "--encrypt"])
        #expect(made.status == 0, "\(made.stderr)")
        let store = HealthStore(directory: path, secret: .keyFile(keyFile))
        _ = try store.append(ndjson: Array((1...count).map(BackupCLITests.steps).joined().utf8))
        return (store, keyFile)
    }

    @Test("backup and backup --follow of an encrypted store need no secret and print the head anchor; restore without one exits 4, prints nothing on stdout and creates nothing")
    func backupWithoutTheKey() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (store, keyFile) = try Self.encryptedStore(dir.file("store"), count: 20)
        let head = try store.headAnchor().token + "\n"
        #expect(try HealthLogBinary.run(["--store", dir.file("store"), "replay"]).status == 4)
        let result = try HealthLogBinary.run(["--store", dir.file("store"), "backup", dir.file("backup")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == head)
        #expect(result.stderr.hasPrefix("healthlog: backed up 20 events: "), "\(result.stderr)")
        let follower = try HealthLogBinary.launch(["--store", dir.file("store"), "backup", "--follow", dir.file("followed")], outputIn: dir)
        #expect(await eventually { FileManager.default.fileExists(atPath: dir.file("followed/manifest")) })
        _ = try store.append(ndjson: Array(BackupCLITests.steps(21).utf8))
        #expect(await eventually { (try? BackupSource(dir.file("followed")).manifest.headSeq) == 21 })
        if !(await follower.stop(with: SIGINT)) { Issue.record("backup --follow did not exit within 60 s of SIGINT") }
        let followed = follower.finish()
        #expect(followed.status == 0, "\(followed.stderr)")
        #expect(followed.stdout == (try store.headAnchor().token + "\n"))
        for command in [["restore", dir.file("backup")], ["restore", "--dry-run", dir.file("followed")], ["restore", "--decrypt", dir.file("backup")]] {
            let refused = try HealthLogBinary.run(["--store", dir.file("restored")] + command)
            #expect(refused.status == 4, "\(command): \(refused.stderr)")
            #expect(refused.stdout.isEmpty)
            #expect(refused.stderr.contains("is encrypted"), "\(refused.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { !$0.hasPrefix("std") }.sorted() == ["backup", "followed", "store", "store.key"])
        #expect(try HealthLogBinary.run(["--store", dir.file("backup"), "verify"]).status == 4)
        let restored = try HealthLogBinary.run(["--key-file", keyFile, "--store", dir.file("restored"), "restore", dir.file("followed")])
        #expect(restored.status == 0, "\(restored.stderr)")
        let replayed = try HealthLogBinary.run(["--key-file", keyFile, "--store", dir.file("restored"), "replay", "--raw"])
        let original = try HealthLogBinary.run(["--key-file", keyFile, "--store", dir.file("store"), "replay", "--raw"])
        #expect(replayed.status == 0 && replayed.stdout == original.stdout && original.stdout.split(separator: "\n").count == 21)
    }

    @Test("restore --encrypt makes an encrypted store of a plaintext backup, and restore --decrypt the plaintext store again: same events, same anchors, no sample in the clear")
    func encryptAndDecryptRoundTrip() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let keyFile = dir.file("k.key")
        try ByteSurgery.write(Sodium.random(count: 32), to: keyFile)
        chmod(keyFile, 0o600)
        #expect(try HealthLogBinary.run(["--store", dir.file("plain"), "append"], stdin: (1...30).map(BackupCLITests.steps).joined()).status == 0)
        let anchor = try HealthLogBinary.run(["--store", dir.file("plain"), "replay", "--limit", "10"]).stderr
        let token = try #require(anchor.split(separator: "\n").first { $0.hasPrefix("next-anchor: ") }).dropFirst("next-anchor: ".count)
        #expect(try HealthLogBinary.run(["--store", dir.file("plain"), "backup", dir.file("b1")]).status == 0)
        let encrypted = try HealthLogBinary.run(["--key-file", keyFile, "--store", dir.file("sealed"), "restore", "--encrypt", dir.file("b1")])
        #expect(encrypted.status == 0, "\(encrypted.stderr)")
        #expect(try String(contentsOfFile: dir.file("sealed/meta"), encoding: .utf8).contains("encryption xchacha20poly1305"))
        #expect(try HealthLogBinary.run(["--store", dir.file("sealed"), "replay"]).status == 4)
        let original = try HealthLogBinary.run(["--store", dir.file("plain"), "replay", "--raw", "--from", String(token)])
        let sealed = try HealthLogBinary.run(["--key-file", keyFile, "--store", dir.file("sealed"), "replay", "--raw", "--from", String(token)])
        #expect(sealed.status == 0 && sealed.stdout == original.stdout && original.stdout.split(separator: "\n").count == 20, "\(sealed.stderr)")
        for (name, bytes) in try DirectoryFiles.contents(dir.file("sealed")) where !name.hasPrefix("keys/") && name != "meta" {
            #expect(bytes.firstRange(of: Array("StepCount".utf8)) == nil, "\(name)")
        }
        #expect(try HealthLogBinary.run(["--key-file", keyFile, "--store", dir.file("sealed"), "verify"]).status == 0)
        #expect(try HealthLogBinary.run(["--key-file", keyFile, "--store", dir.file("sealed"), "add", "--type", "StepCount", "--value", "5", "--unit", "count"]).status == 0)
        #expect(try HealthLogBinary.run(["--store", dir.file("sealed"), "backup", dir.file("b2")]).status == 0)
        let decrypted = try HealthLogBinary.run(["--key-file", keyFile, "--store", dir.file("plain2"), "restore", "--decrypt", dir.file("b2")])
        #expect(decrypted.status == 0, "\(decrypted.stderr)")
        let back = try HealthLogBinary.run(["--store", dir.file("plain2"), "replay", "--raw", "--from", String(token)])
        #expect(back.stdout.hasPrefix(original.stdout) && back.stdout.split(separator: "\n").count == 21, "\(back.stderr)")
        let twice = try HealthLogBinary.run(["--key-file", keyFile, "--store", dir.file("again"), "restore", "--encrypt", dir.file("b2")])
        #expect(twice.status == 2 && !FileManager.default.fileExists(atPath: dir.file("again")), "\(twice.stderr)")
    }

    @Test("restore --decrypt of a plaintext store's backup exits 2 and creates nothing")
    func decryptingAPlaintextBackup() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        #expect(try HealthLogBinary.run(["--store", dir.file("store"), "append"], stdin: BackupCLITests.steps(1)).status == 0)
        #expect(try HealthLogBinary.run(["--store", dir.file("store"), "backup", dir.file("backup")]).status == 0)
        let refused = try HealthLogBinary.run(["--store", dir.file("restored"), "restore", "--decrypt", dir.file("backup")])
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("without --decrypt"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("restored")))
    }

    @Test("restore --decrypt or --encrypt of a directory that is no backup says so (exit 1), asks for no key, and creates nothing")
    func notABackup() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.file("empty"), withIntermediateDirectories: false)
        for flag in ["--decrypt", "--encrypt"] {
            let refused = try HealthLogBinary.run(["--store", dir.file("restored"), "restore", flag, dir.file("empty")], stdin: "")
            #expect(refused.status == 1 && refused.stderr.contains("has no manifest"), "\(flag): \(refused.status) \(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir.file("restored")))
        }
    }

    @Test("restore's bad uses of --encrypt and --decrypt exit 2 naming the mistake even with no secret given, and create nothing")
    func usageBeforeKeys() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        _ = try Self.encryptedStore(dir.file("sealed"), count: 3)
        #expect(try HealthLogBinary.run(["--store", dir.file("sealed"), "backup", dir.file("sealed-backup")]).status == 0)
        #expect(try HealthLogBinary.run(["--store", dir.file("plain"), "append"], stdin: BackupCLITests.steps(1)).status == 0)
        #expect(try HealthLogBinary.run(["--store", dir.file("plain"), "backup", dir.file("plain-backup")]).status == 0)
        let mistakes: [(arguments: [String], message: String)] = [
            (["--encrypt", dir.file("sealed-backup")], "holds an encrypted store already"),
            (["--encrypt", "--decrypt", dir.file("sealed-backup")], "do not go together"),
            (["--encrypt", "--decrypt", dir.file("plain-backup")], "do not go together"),
            (["--decrypt", "--dry-run", dir.file("plain-backup")], "without --decrypt"),
        ]
        for mistake in mistakes {
            let refused = try HealthLogBinary.run(["--store", dir.file("restored"), "restore"] + mistake.arguments)
            #expect(refused.status == 2 && refused.stderr.contains(mistake.message), "\(mistake.arguments): \(refused.status) \(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir.file("restored")))
        }
    }
}


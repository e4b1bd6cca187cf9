#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// `healthlog import` into an encrypted store: the import worker, a process of its own, is
/// handed the secret (a file's path, or a passphrase on a pipe, never an argument).
@Suite("import into an encrypted store")
struct EncryptedImportCLITests {
    @Test("import into an encrypted store works with a key file and with a passphrase from the environment, adds what a plaintext store adds, and leaves no sample in the clear; without a secret it exits 4")
    func importEncrypted() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let export = PackageFiles.appleHealthExport("freddiefujiwara-ahcd.xml")
        let keyFile = dir.file("k.key")
        try ByteSurgery.write(Sodium.random(count: 32), to: keyFile)
        chmod(keyFile, 0o600)
        #expect(try HealthLogBinary.run(["--key-file", keyFile, "--store", dir.file("sealed"), "init", "--encrypt"]).status == 0)
        let refused = try HealthLogBinary.run(["--store", dir.file("sealed"), "import", export])
        #expect(refused.status == 4 && refused.stdout.isEmpty, "\(refused.stderr)")
        let plain = try HealthLogBinary.run(["--store", dir.file("plain"), "import", export])
        #expect(plain.status == 0, "\(plain.stderr)")
        let sealed = try HealthLogBinary.run(["--key-file", keyFile, "--store", dir.file("sealed"), "import", export])
        #expect(sealed.status == 0, "\(sealed.stderr)")
        let original = try HealthLogBinary.run(["--store", dir.file("plain"), "export"]).stdout
        #expect(try HealthLogBinary.run(["--key-file", keyFile, "--store", dir.file("sealed"), "export"]).stdout == original)
        for (name, bytes) in try DirectoryFiles.contents(dir.file("sealed")) where name != "meta" && !name.hasPrefix("keys/") {
            #expect(bytes.firstRange(of: Array("HKQuantityTypeIdentifier".utf8)) == nil, "\(name)")
        }
        // A passphrase store, its passphrase from the environment, handed to the worker on a pipe.
        let environment = ["HEALTHLOG_PASSPHRASE": "correct horse battery staple"]
        let made = try HealthLogBinary.faultTool.run(
            ["--store", dir.file("pass"), "init", "--encrypt"], environment: environment.merging(KeySlotsCLITests.weak) { $1 })
        #expect(made.status == 0, "\(made.stderr)")
        let viaPipe = try HealthLogBinary.run(["--store", dir.file("pass"), "import", export], environment: environment)
        #expect(viaPipe.status == 0, "\(viaPipe.stderr)")
        #expect(try HealthLogBinary.run(["--store", dir.file("pass"), "export"], environment: environment).stdout == original)
        let wrong = try HealthLogBinary.run(["--store", dir.file("pass"), "import", export], environment: ["HEALTHLOG_PASSPHRASE": "wrong"])
        #expect(wrong.status == 4, "\(wrong.stderr)")
    }
}

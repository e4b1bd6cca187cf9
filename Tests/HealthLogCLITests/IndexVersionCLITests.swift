import Foundation
import HealthLogTestSupport
import Testing

/// The CLI on a store whose segment indexes an earlier build wrote in an older index
/// layout (`Tests/HealthLogTests/Fixtures/IndexVersion1`, from commit c450f0c): `verify`,
/// `replay` and `append` all succeed, and `verify` notes the old indexes instead of
/// calling them damage.
@Suite("Index versions (CLI)")
struct IndexVersionCLITests {
    /// The fixture store's directory.
    static let fixture = PackageFiles.indexVersion1Store

    @Test("verify, replay and append of a store with index version 1 segment indexes exit 0")
    func oldIndexesAreNotDamage() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        try FileManager.default.copyItem(atPath: Self.fixture, toPath: store)
        // A checkout leaves directories 0755; a store must be private.
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: store)
        let verify = try HealthLogBinary.run(["--store", store, "verify"])
        #expect(verify.status == 0, "\(verify.stderr)")
        #expect(verify.stdout.contains("note: segments/00000000000000000001.0000.idx is index version 1, an older layout"), "\(verify.stdout)")
        #expect(!verify.stdout.contains("problem"), "\(verify.stdout)")
        let replay = try HealthLogBinary.run(["--store", store, "replay", "--raw"])
        #expect(replay.status == 0)
        #expect(replay.stdout.split(separator: "\n").count == 13)
        let line = #"{"type":"HKQuantityTypeIdentifierHeartRate","start":"2024-04-01T08:00:00Z","value":70,"unit":"count/min"}"#
        #expect(try HealthLogBinary.run(["--store", store, "append"], stdin: line + "\n").status == 0)
        let after = try HealthLogBinary.run(["--store", store, "verify"])
        #expect(after.status == 0)
        #expect(!after.stdout.contains("note:"), "\(after.stdout)")
    }
}

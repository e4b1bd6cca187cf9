import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// What a restore and a salvage do beside their target before they build the new store
/// there: a killed run's marked directory is removed (and said), a user's directory of a
/// similar name is never touched.
@Suite("Leftovers beside a restore's and a salvage's target")
struct BuildLeftoverTests {
    /// Makes `path` as a user's directory holding `mine`.
    static func plantUsers(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        #expect(FileManager.default.createFile(atPath: path + "/mine", contents: Data([9])))
    }

    /// Makes `path` as a killed run's directory: the marker and half a store.
    static func plantKilled(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: path + "/segments", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: path + "/" + ScratchDirectory.markerName, contents: nil))
        #expect(FileManager.default.createFile(atPath: path + "/segments/x", contents: Data([1, 2])))
    }

    @Test("Restore over a store removes a killed restore's directory, reports it, and keeps the user's store.restore-backup/")
    func restore() throws {
        let fixture = try RestoreFixture()
        defer { fixture.dir.remove() }
        try Self.plantUsers(fixture.dir.file("store.restore-backup"))
        try Self.plantUsers(fixture.dir.file("store.restore-old"))
        try Self.plantKilled(fixture.dir.file("store.restore-K1lled"))
        let report = try fixture.store.restore(from: fixture.backup, force: true)
        #expect(report.replacedStore)
        #expect(report.leftoversRemoved == [fixture.dir.file("store.restore-K1lled")])
        let beside = try FileManager.default.contentsOfDirectory(atPath: fixture.dir.path).filter { $0.hasPrefix("store.") }.sorted()
        #expect(beside == ["store.restore-backup", "store.restore-old"])
        for name in beside { #expect(FileManager.default.fileExists(atPath: fixture.dir.file(name + "/mine"))) }
        #expect(try RestoreFixture.seqs(fixture.store) == Array(1...100))
        #expect(!FileManager.default.fileExists(atPath: fixture.dir.file("store/" + ScratchDirectory.markerName)))
    }

    @Test("Recover into a new directory removes a killed recover's directory, notes it, and keeps the user's look-alike")
    func recover() throws {
        let fixture = try RestoreFixture()
        defer { fixture.dir.remove() }
        try Self.plantUsers(fixture.dir.file("salvaged.recover-backup"))
        try Self.plantKilled(fixture.dir.file("salvaged.recover-XyZ123"))
        let report = try fixture.store.recover(to: fixture.dir.file("salvaged"))
        #expect(report.notes.contains("removed \(fixture.dir.file("salvaged.recover-XyZ123")), left by an interrupted recover"), "\(report.notes)")
        let beside = try FileManager.default.contentsOfDirectory(atPath: fixture.dir.path).filter { $0.hasPrefix("salvaged") }.sorted()
        #expect(beside == ["salvaged", "salvaged.recover-backup"])
        #expect(FileManager.default.fileExists(atPath: fixture.dir.file("salvaged.recover-backup/mine")))
        #expect(try RestoreFixture.seqs(HealthStore(directory: fixture.dir.file("salvaged"))) == Array(1...150))
        #expect(!FileManager.default.fileExists(atPath: fixture.dir.file("salvaged/" + ScratchDirectory.markerName)))
    }
}

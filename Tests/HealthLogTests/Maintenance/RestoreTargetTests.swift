import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// Where `restore` may go, and what the restored store is.
@Suite("Restore targets")
struct RestoreTargetTests {
    @Test("Into a missing or empty directory: a private store that replays like the backup and verifies")
    func intoNewOrEmpty() throws {
        let fixture = try RestoreFixture()
        defer { fixture.dir.remove() }
        try FileManager.default.createDirectory(atPath: fixture.dir.file("empty"), withIntermediateDirectories: false)
        for name in ["missing", "empty"] {
            let copy = HealthStore(directory: fixture.dir.file(name))
            let report = try copy.restore(from: fixture.backup)
            // The store the backup came from is not here: whatever it issued after the
            // backup is skipped, so no number is ever issued twice.
            let first = 101 + Restore.unknownHistoryGap
            #expect(report.keptSeq == 100 && report.firstSeq == first && !report.replacedStore)
            #expect(try RestoreFixture.seqs(copy) == Array(1...100))
            #expect(try copy.verify().isSound)
            #expect(try copy.append(ndjson: RestoreFixture.lines(1, from: 900)).anchor.seq == first)
            #expect(throws: HealthLogError.self) { try RestoreFixture.seqs(copy, from: QueryAnchor(fromValue: 101 + 1_000_000)) }
            for relative in try FileManager.default.subpathsOfDirectory(atPath: fixture.dir.file(name)) {
                let mode = try FileManager.default.attributesOfItem(atPath: fixture.dir.file(name + "/" + relative))[.posixPermissions] as? Int
                let isDirectory = relative == "segments" || relative == "uuids"
                #expect(mode == (isDirectory ? 0o700 : 0o600), "\(relative)")
            }
            let mode = try FileManager.default.attributesOfItem(atPath: fixture.dir.file(name))[.posixPermissions] as? Int
            #expect(mode == 0o700)
        }
        let beside = try FileManager.default.contentsOfDirectory(atPath: fixture.dir.path)
        #expect(!beside.contains { $0.contains(".restore-") }, "\(beside)")
    }

    @Test("Over a store without force, or into a non-empty directory or a file, is bad usage and touches nothing")
    func refusedTargets() throws {
        let fixture = try RestoreFixture()
        defer { fixture.dir.remove() }
        try FileManager.default.createDirectory(atPath: fixture.dir.file("full"), withIntermediateDirectories: false)
        #expect(FileManager.default.createFile(atPath: fixture.dir.file("full/mine"), contents: Data("x".utf8)))
        #expect(FileManager.default.createFile(atPath: fixture.dir.file("file"), contents: Data("x".utf8)))
        let before = try RestoreFixture.tree(fixture.dir.path)
        for (name, force) in [("store", false), ("full", false), ("full", true), ("file", true), ("backup", true)] {
            let error = #expect(throws: HealthLogError.self) { try HealthStore(directory: fixture.dir.file(name)).restore(from: fixture.backup, force: force) }
            #expect(error?.code == .badUsage, "\(name)")
        }
        #expect(try RestoreFixture.tree(fixture.dir.path) == before)
    }

    @Test("A store of another identity replaced with force takes the backup's identity and numbers")
    func otherStoreReplaced() throws {
        let fixture = try RestoreFixture()
        defer { fixture.dir.remove() }
        let other = HealthStore(directory: fixture.dir.file("other"))
        _ = try other.append(ndjson: RestoreFixture.lines(500, from: 0))
        let report = try other.restore(from: fixture.backup, force: true)
        #expect(report.firstSeq == 101 + Restore.unknownHistoryGap, "another store's numbers say nothing of this one's")
        #expect(try other.headAnchor().token == HealthStore(directory: fixture.backup).headAnchor().token)
    }
}

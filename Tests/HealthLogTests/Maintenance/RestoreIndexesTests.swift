import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// A backup holds the log, not its indexes: a restore rebuilds them, so the restored store
/// is whole at once rather than at its next write.
@Suite("Restore rebuilds the indexes")
struct RestoreIndexesTests {
    /// The segment indexes and UUID runs of the store at `directory`.
    static func derivedFiles(_ directory: String) throws -> (indexes: [String], uuidRuns: [String]) {
        let segments = try FileManager.default.contentsOfDirectory(atPath: directory + "/segments")
        let uuids = (try? FileManager.default.contentsOfDirectory(atPath: directory + "/uuids")) ?? []
        return (segments.filter { $0.hasSuffix(".idx") }.sorted(), uuids.filter { $0.hasSuffix(".run") }.sorted())
    }

    @Test("Over the store and into a new directory, the restored store has every segment's index and a UUID run, and verifies without notes", arguments: [true, false])
    func indexesAfterRestore(overTheStore: Bool) throws {
        let fixture = try RestoreFixture()
        defer { fixture.dir.remove() }
        let target = overTheStore ? fixture.store : HealthStore(directory: fixture.dir.file("elsewhere"), options: RestoreFixture.options)
        _ = try target.restore(from: fixture.backup, force: overTheStore)
        let report = try target.verify()
        #expect(report.isSound, "\(report.problems)")
        #expect(report.notes == [])
        let segments = try FileManager.default.contentsOfDirectory(atPath: target.directory + "/segments").filter { !$0.hasSuffix(".idx") }
        let derived = try Self.derivedFiles(target.directory)
        #expect(segments.count > 1)
        #expect(derived.indexes.count == segments.count)
        #expect(!derived.uuidRuns.isEmpty)
        #expect(try RestoreFixture.seqs(target) == Array(1...100))
    }
}

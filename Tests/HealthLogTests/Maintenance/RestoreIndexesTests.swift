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

    /// A UUID numbered `k`.
    static func uuid(_ k: Int) -> String { String(format: "%08X-0000-4000-8000-%012X", k, k) }

    /// A heart rate numbered `k`, with a sync identifier and version when given.
    static func heartRate(_ k: Int, sync: (String, Int)? = nil) -> String {
        let metadata = sync.map { #","metadata":{"HKMetadataKeySyncIdentifier":"\#($0.0)","HKMetadataKeySyncVersion":\#($0.1)}"# } ?? ""
        return #"{"uuid":"\#(uuid(k))","type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T08:00:00Z","value":\#(60 + k % 40),"unit":"count/min"\#(metadata)}"# + "\n"
    }

    /// The bytes of every derived file of the store at `directory`, by relative path.
    static func derivedBytes(_ directory: String) throws -> [String: Data] {
        let derived = try derivedFiles(directory)
        var out: [String: Data] = [:]
        for name in derived.indexes { out["segments/" + name] = try Data(contentsOf: URL(fileURLWithPath: directory + "/segments/" + name)) }
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: directory + "/uuids")) ?? []) {
            out["uuids/" + name] = try Data(contentsOf: URL(fileURLWithPath: directory + "/uuids/" + name))
        }
        return out
    }

    @Test("The indexes a restore writes in its verification pass are, byte for byte, those reindex writes: with sync identifiers replaced, and a synced sample added and deleted in one append")
    func sameAsReindex() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"), options: RestoreFixture.options)
        _ = try store.append(ndjson: Array((0..<40).map { Self.heartRate($0, sync: $0 % 2 == 0 ? ("s\($0)", 1) : nil) }.joined().utf8))
        var second = (40..<50).map { Self.heartRate($0, sync: ("s\(($0 - 40) * 2)", 2)) }.joined()
        second += Self.heartRate(90, sync: ("gone", 1)) + #"{"op":"delete","uuid":"\#(Self.uuid(90))"}"# + "\n"
        second += [1, 3, 5].map { #"{"op":"delete","uuid":"\#(Self.uuid($0))"}"# + "\n" }.joined()
        _ = try store.append(ndjson: Array(second.utf8))
        _ = try store.backup(to: dir.file("backup"))
        let restored = HealthStore(directory: dir.file("restored"), options: RestoreFixture.options)
        _ = try restored.restore(from: dir.file("backup"))
        let written = try Self.derivedBytes(restored.directory)
        #expect(written.keys.contains { $0.hasSuffix(".run") } && written["uuids/sync"] != nil && written["uuids/deleted-adds"] != nil, "\(written.keys.sorted())")
        _ = try restored.reindex()
        #expect(try Self.derivedBytes(restored.directory) == written)
        let report = try restored.verify()
        #expect(report.isSound && report.notes == [], "\(report.problems) \(report.notes)")
    }
}

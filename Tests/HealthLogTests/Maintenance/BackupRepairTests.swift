import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// `backup` into an earlier backup whose files were damaged since: a file already in the
/// destination is kept only when it is byte-identical to the store's, so a retry repairs
/// the copy instead of failing on it forever.
@Suite("Backup repair")
struct BackupRepairTests {
    /// Which file of the earlier backup is damaged.
    enum Damaged: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case sealedSegment, sealedIndex, growingSegment

        var testDescription: String { rawValue }
    }

    /// A store of several sealed segments and a growing one, and a backup of it.
    private static func storeAndBackup(_ dir: TemporaryDirectory) throws -> (store: HealthStore, copy: HealthStore) {
        var options = StoreOptions()
        options.sync = false
        options.segmentBytes = 16_000
        options.batchBytes = 4_000
        let store = HealthStore(directory: dir.file("store"), options: options)
        let lines = (0..<600).map { i in
            #"{"type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T08:00:00Z","value":\#(i % 200),"unit":"count/min","metadata":{"n":\#(i)}}"# + "\n"
        }
        _ = try store.append(ndjson: Array(lines.joined().utf8))
        _ = try store.backup(to: dir.file("backup"))
        return (store, HealthStore(directory: dir.file("backup")))
    }

    private static func raw(_ store: HealthStore) throws -> [UInt8] {
        var out: [UInt8] = []
        _ = try store.replay(ReplayRequest(raw: true)) { out.append(contentsOf: $0) }
        return out
    }

    @Test("Backing up again over a copy with one flipped byte replaces that file; the copy verifies and replays like the store", arguments: Damaged.allCases)
    func damagedCopyIsReplaced(_ damaged: Damaged) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (store, copy) = try Self.storeAndBackup(dir)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.file("backup/segments")).sorted()
        let segments = names.filter { $0.hasSuffix(".log.lz4") }
        try #require(segments.count >= 3)
        let file = switch damaged {
        case .sealedSegment: segments[0]
        case .sealedIndex: try #require(names.first { $0.hasSuffix(".idx") })
        case .growingSegment: segments[segments.count - 1]
        }
        let path = dir.file("backup/segments/" + file)
        try ByteSurgery.flip(path, at: try ByteSurgery.size(path) / 2)
        #expect(try !copy.verify().isSound, "the flipped byte is damage verify sees")

        let repaired = try store.backup(to: dir.file("backup"))
        #expect(repaired.filesWritten == 1 && repaired.filesRemoved == 0, "\(repaired)")
        #expect(try ByteSurgery.read(path) == ByteSurgery.read(dir.file("store/segments/" + file)))
        #expect(try copy.verify().isSound)
        #expect(try Self.raw(copy) == Self.raw(store))
        let again = try store.backup(to: dir.file("backup"))
        #expect(again.filesWritten == 0 && again.bytesWritten == 0)
    }
}

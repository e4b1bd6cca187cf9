import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// Index files carry their own layout version (``IndexVersion``): one written by an earlier
/// build in an older layout, or by a later build in a newer one, is ignored and rebuilt,
/// never reported as damage. The old store is `Fixtures/IndexVersion1` (written by commit
/// c450f0c; see its PROVENANCE.md), whose segment indexes are index version 1.
@Suite("Index versions")
struct IndexVersionTests {
    /// The fixture store's directory.
    static let fixture = PackageFiles.indexVersion1Store
    /// The fixture's segment indexes, relative to the store.
    static let segmentIndexes = [1, 5, 9].map { "segments/\(String(format: "%020d", $0)).0000.idx" }

    @Test("A store whose segment indexes, UUID run and sync table are index version 1 verifies with a note for each and no problem")
    func oldSegmentIndexesAreNotes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try Self.oldStore(dir)
        let report = try store.verify()
        #expect(report.problems == [])
        #expect(report.events == 13)
        func note(_ name: String, current: UInt16) -> String {
            "\(name) is index version 1, an older layout than this healthlog's \(current); it is ignored, and the next write or 'healthlog reindex' rebuilds it"
        }
        #expect(report.notes == Self.segmentIndexes.map { note($0, current: FormatConstants.segmentIndexVersion) }
            + [note("uuids/00000000000000000001-00000000000000000013.run", current: FormatConstants.uuidIndexVersion)]
            + ["the UUID index covers events 1...0 of 13; the next write brings it up to date", note("uuids/sync", current: FormatConstants.syncTableVersion)])
    }

    @Test("A store whose segment indexes are index version 1 replays what it holds, and reading it changes no file")
    func oldSegmentIndexesAreIgnoredByReaders() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try Self.oldStore(dir)
        let before = try ByteSurgery.image(of: store.directory)
        let lines = try Self.replay(store)
        #expect(try ByteSurgery.image(of: store.directory) == before)
        for name in Self.segmentIndexes { try ByteSurgery.remove(store.directory + "/" + name) }
        #expect(try Self.replay(store) == lines)
        let raw = try Self.replay(store, raw: true)
        #expect(raw.count == 13)
        #expect(raw.filter { $0.contains(#""op":"add""#) }.count == 11)
    }

    @Test("The next append rewrites index version 1 segment indexes at version 2, and verify is then silent")
    func nextWriteRebuildsOldIndexes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try Self.oldStore(dir)
        _ = try store.append(ndjson: Array(#"{"type":"HKQuantityTypeIdentifierHeartRate","start":"2024-04-01T08:00:00Z","value":70,"unit":"count/min"}"#.utf8 + [10]))
        for name in Self.segmentIndexes {
            #expect(try Self.version(store.directory + "/" + name) == FormatConstants.segmentIndexVersion, "\(name)")
        }
        let report = try store.verify()
        #expect(report.problems == [])
        #expect(report.notes == [])
        #expect(report.events == 14)
    }

    @Test("reindex rewrites index version 1 segment indexes at version 2")
    func reindexRebuildsOldIndexes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try Self.oldStore(dir)
        _ = try store.reindex()
        for name in Self.segmentIndexes {
            #expect(try Self.version(store.directory + "/" + name) == FormatConstants.segmentIndexVersion, "\(name)")
        }
        let report = try store.verify()
        #expect(report.problems == [])
        #expect(report.notes == [])
    }

    /// An index file, with where its header checksum covers and is kept.
    struct IndexFile: Sendable, CustomTestStringConvertible {
        let name: String
        let checksummed: Range<Int>
        var testDescription: String { name }
    }

    static let indexFiles = [
        IndexFile(name: segmentIndexes[0], checksummed: 0..<72),
        IndexFile(name: "uuids/00000000000000000001-00000000000000000013.run", checksummed: 0..<60),
        IndexFile(name: "uuids/sync", checksummed: 0..<44),
    ]

    @Test("An index file of a newer index version is ignored, noted rather than called damage, and rebuilt by the next write", arguments: indexFiles)
    func newerVersionIsIgnored(_ file: IndexFile) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try Self.oldStore(dir)
        _ = try store.reindex()
        let lines = try Self.replay(store)
        let path = store.directory + "/" + file.name
        try ByteSurgery.patch(path, at: 4, with: [99, 0])
        try ByteSurgery.rechecksum(path, range: file.checksummed, storedAt: file.checksummed.upperBound)
        let report = try store.verify()
        #expect(report.problems == [])
        #expect(report.notes.contains { $0.hasPrefix("\(file.name) is index version 99, a newer layout than this healthlog's ") }, "\(report.notes)")
        #expect(try Self.replay(store) == lines)
        _ = try store.append(ndjson: Array(#"{"type":"HKQuantityTypeIdentifierHeartRate","start":"2024-04-01T08:00:00Z","value":70,"unit":"count/min"}"#.utf8 + [10]))
        let after = try store.verify()
        #expect(after.problems == [])
        #expect(!after.notes.contains { $0.contains("index version") }, "\(after.notes)")
    }

    /// A copy of the fixture store in `dir`.
    static func oldStore(_ dir: TemporaryDirectory) throws -> HealthStore {
        try IndexFixture.restore(ByteSurgery.image(of: fixture), into: dir.file("store"))
    }

    /// What `store` replays from the start, raw and as the view, as text.
    static func replay(_ store: HealthStore) throws -> [String] {
        try replay(store, raw: true) + replay(store, raw: false)
    }

    /// What `store` replays from the start, `raw` or as the view, as text.
    static func replay(_ store: HealthStore, raw: Bool) throws -> [String] {
        var lines: [String] = []
        _ = try store.replay(ReplayRequest(raw: raw)) { lines.append(String(decoding: $0, as: UTF8.self)) }
        return lines
    }

    /// The index version the file at `path` declares.
    static func version(_ path: String) throws -> UInt16 {
        let bytes = try ByteSurgery.read(path)
        return UInt16(bytes[4]) | UInt16(bytes[5]) << 8
    }
}

import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// The rounds of a continuous backup (``Backup/run(remembering:)``): a round after an
/// append reads and verifies only the new bytes, yet leaves the same backup a one-off
/// backup would, notices a destination file touched since the last round, and fails on a
/// copied tail that does not check out.
@Suite("Backup rounds")
struct BackupMemoryTests {
    /// A store with sealed segments and a growing one, a first round into `backup`, and
    /// the round's memory.
    private static func firstRound(_ dir: TemporaryDirectory) throws -> (store: HealthStore, backup: Backup, memory: BackupMemory?) {
        var options = StoreOptions()
        options.segmentBytes = 16_000
        options.batchBytes = 4_000
        let store = HealthStore(directory: dir.file("store"), options: options)
        _ = try store.append(ndjson: RestoreFixture.lines(400, from: 0))
        let backup = Backup(source: StoreLayout(directory: dir.file("store")), destination: StoreLayout(directory: dir.file("backup")), progress: nil)
        var memory: BackupMemory?
        _ = try backup.run(remembering: &memory)
        return (store, backup, memory)
    }

    /// The manifest's entries next to a fresh digest of every file it lists.
    private static func expectManifestTrue(_ dir: TemporaryDirectory, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let source = try BackupSource(dir.file("backup"))
        for entry in source.manifest.entries {
            let digest = try FileDigest.of(dir.file("backup/" + entry.path))
            #expect(digest.size == entry.size && digest.sha256 == entry.sha256, "\(entry.path)", sourceLocation: sourceLocation)
        }
        #expect(try HealthStore(directory: dir.file("backup")).verify().isSound, sourceLocation: sourceLocation)
    }

    @Test("A round after a small append keeps every sealed file unread, appends only the new bytes, and its manifest vouches for exactly the files")
    func roundAfterAppend() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var (store, backup, memory) = try Self.firstRound(dir)
        let sealed = try #require(memory?.files.count).advanced(by: -1)
        try #require(sealed >= 2)
        let summary = try store.append(ndjson: RestoreFixture.lines(3, from: 400))
        let report = try backup.run(remembering: &memory)
        #expect(report.headSeq == summary.anchor.seq && report.filesWritten == 1 && report.filesKept == sealed, "\(report)")
        #expect(report.bytesWritten > 0 && report.bytesWritten < 4_000, "only the appended bytes are copied: \(report)")
        #expect(memory?.headSeq == summary.anchor.seq)
        try Self.expectManifestTrue(dir)
        #expect(try RestoreFixture.seqs(HealthStore(directory: dir.file("backup"))) == Array(1...403))
        for round in 0..<3 {
            _ = try store.append(ndjson: RestoreFixture.lines(60, from: 403 + 60 * round))
            _ = try backup.run(remembering: &memory)
            try Self.expectManifestTrue(dir)
        }
        #expect(try RestoreFixture.seqs(HealthStore(directory: dir.file("backup"))) == Array(1...583))
    }

    @Test("A destination file touched since the last round is compared again and replaced", arguments: [true, false])
    func touchedCopyIsReplaced(_ growing: Bool) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var (store, backup, memory) = try Self.firstRound(dir)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.file("backup/segments")).filter { $0.hasSuffix(".log.lz4") }.sorted()
        let path = dir.file("backup/segments/" + (growing ? names[names.count - 1] : names[0]))
        try ByteSurgery.flip(path, at: 200)
        _ = try store.append(ndjson: RestoreFixture.lines(3, from: 400))
        let report = try backup.run(remembering: &memory)
        #expect(report.filesWritten == (growing ? 1 : 2), "the touched file, and the growing one's new bytes: \(report)")
        #expect(try ByteSurgery.read(path) == ByteSurgery.read(path.replacingOccurrences(of: "/backup/", with: "/store/")))
        try Self.expectManifestTrue(dir)
    }

    @Test("A copied tail that fails its frame checksum fails the round, leaves no manifest, and the next round starts over")
    func damagedTailFailsTheRound() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var (store, backup, memory) = try Self.firstRound(dir)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.file("store/segments")).filter { $0.hasSuffix(".log.lz4") }.sorted()
        let growing = dir.file("store/segments/" + names[names.count - 1])
        _ = try store.append(ndjson: RestoreFixture.lines(3, from: 400))
        try ByteSurgery.flip(growing, at: try ByteSurgery.size(growing) - 10)
        #expect(throws: HealthLogError.self) { try backup.run(remembering: &memory) }
        #expect(memory == nil)
        #expect(!FileManager.default.fileExists(atPath: dir.file("backup/manifest")))
    }
}

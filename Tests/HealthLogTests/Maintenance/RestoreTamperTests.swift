import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// A damaged, incomplete or tampered backup is refused before the target is touched.
@Suite("Restore refuses tampered backups")
struct RestoreTamperTests {
    /// One way to spoil a backup.
    enum Tamper: String, CaseIterable, CustomTestStringConvertible {
        case flipMeta, flipCheckpoint, flipSegment, flipIndex, flipManifest, truncateSegment, deleteSegment, deleteManifest
        case unlistedSegment, dotDotEntry, absoluteEntry, symlinkedSegment
        case truncateManifest, symlinkedManifest, symlinkedSegmentsDirectory, flipLastSegment
        var testDescription: String { rawValue }
    }

    /// The backup's first sealed segment, relative to the backup.
    private static func firstSegment(_ backup: String) throws -> String {
        "segments/" + (try FileManager.default.contentsOfDirectory(atPath: backup + "/segments").filter { $0.hasSuffix(".log.lz4") }.sorted()[0])
    }

    private static func flip(_ path: String, at offset: Int) throws {
        var bytes = try #require(FileManager.default.contents(atPath: path))
        bytes[offset] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: path))
    }

    /// Rewrites the manifest with `entry` added and a matching checksum.
    private static func addEntry(_ entry: String, _ backup: String) throws {
        let path = backup + "/manifest"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var lines = text.split(separator: "\n").map(String.init)
        lines.removeLast()
        let body = (lines + [entry]).joined(separator: "\n") + "\n"
        try (body + "sha256 \(try SHA256Digest.hex(of: Array(body.utf8)))\n").write(toFile: path, atomically: false, encoding: .utf8)
    }

    private static func apply(_ tamper: Tamper, _ backup: String) throws {
        let segment = try firstSegment(backup)
        let digest = String(repeating: "0", count: 64)
        switch tamper {
        case .flipMeta: try flip(backup + "/meta", at: 20)
        case .flipCheckpoint: try flip(backup + "/checkpoint", at: 10)
        case .flipSegment: try flip(backup + "/" + segment, at: 200)
        case .flipIndex: try flip(backup + "/" + segment.replacingOccurrences(of: ".log.lz4", with: ".idx"), at: 30)
        case .flipManifest: try flip(backup + "/manifest", at: 70)
        case .truncateSegment: try FileHandle(forWritingAtPath: backup + "/" + segment)!.truncate(atOffset: 100)
        case .deleteSegment: try FileManager.default.removeItem(atPath: backup + "/" + segment)
        case .deleteManifest: try FileManager.default.removeItem(atPath: backup + "/manifest")
        case .unlistedSegment:
            try FileManager.default.copyItem(atPath: backup + "/" + segment, toPath: backup + "/segments/00000000000000999999.0000.log.lz4")
        case .dotDotEntry: try addEntry("file ../x 1 \(digest)", backup)
        case .absoluteEntry: try addEntry("file /etc/passwd 1 \(digest)", backup)
        case .truncateManifest: try FileHandle(forWritingAtPath: backup + "/manifest")!.truncate(atOffset: 200)
        case .symlinkedManifest:
            try FileManager.default.moveItem(atPath: backup + "/manifest", toPath: backup + "/../manifest-elsewhere")
            try FileManager.default.createSymbolicLink(atPath: backup + "/manifest", withDestinationPath: backup + "/../manifest-elsewhere")
        case .symlinkedSegmentsDirectory:
            try FileManager.default.moveItem(atPath: backup + "/segments", toPath: backup + "/../segments-elsewhere")
            try FileManager.default.createSymbolicLink(atPath: backup + "/segments", withDestinationPath: backup + "/../segments-elsewhere")
        case .flipLastSegment:
            let last = try FileManager.default.contentsOfDirectory(atPath: backup + "/segments").filter { $0.hasSuffix(".log.lz4") }.sorted().last!
            try flip(backup + "/segments/" + last, at: 200)
        case .symlinkedSegment:
            try FileManager.default.moveItem(atPath: backup + "/" + segment, toPath: backup + "/elsewhere")
            try FileManager.default.createSymbolicLink(atPath: backup + "/" + segment, withDestinationPath: backup + "/elsewhere")
        }
    }

    @Test("Each tampering is refused as a store failure (exit 1); a store target and a missing one are left exactly as they were", arguments: Tamper.allCases)
    func refused(_ tamper: Tamper) throws {
        let fixture = try RestoreFixture()
        defer { fixture.dir.remove() }
        try Self.apply(tamper, fixture.backup)
        let before = try RestoreFixture.tree(fixture.dir.file("store"))
        for (target, force) in [("store", true), ("missing", false)] {
            let error = #expect(throws: HealthLogError.self) { try HealthStore(directory: fixture.dir.file(target)).restore(from: fixture.backup, force: force) }
            #expect(error?.code.category == .store, "\(tamper): \(String(describing: error))")
        }
        // A point-in-time restore checks the whole backup too, also what it will discard.
        let cut = #expect(throws: HealthLogError.self) { try fixture.store.restore(from: fixture.backup, force: true, to: .anchor(QueryAnchor(fromValue: 1))) }
        #expect(cut?.code.category == .store, "\(tamper) with --to: \(String(describing: cut))")
        #expect(try RestoreFixture.tree(fixture.dir.file("store")) == before)
        let left = try FileManager.default.contentsOfDirectory(atPath: fixture.dir.path)
        #expect(!left.contains("missing") && !left.contains { $0.contains(".restore-") }, "\(left)")
    }

    @Test("The manifest names every file with its size and SHA-256, the store, timeline and head; a backup of a restored store names its timelines")
    func manifestContents() throws {
        let fixture = try RestoreFixture()
        defer { fixture.dir.remove() }
        let text = try String(contentsOfFile: fixture.backup + "/manifest", encoding: .utf8)
        let manifest = try BackupManifest.parse(text, at: "manifest")
        let meta = try StoreMeta.read(StoreLayout(directory: fixture.backup))
        #expect(manifest.storeID == meta.storeID && manifest.timelineID == meta.storeID && manifest.headSeq == 100)
        let files = try FileManager.default.subpathsOfDirectory(atPath: fixture.backup).filter { !$0.hasPrefix("manifest") && $0 != "segments" }
        #expect(Set(manifest.entries.map(\.path)) == Set(files))
        for entry in manifest.entries {
            let data = try #require(FileManager.default.contents(atPath: fixture.backup + "/" + entry.path))
            let digest = try SHA256Digest.hex(of: Array(data))
            #expect(entry.size == data.count && entry.sha256 == digest, "\(entry.path)")
        }
        #expect(try SHA256Digest.hex(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        _ = try fixture.store.restore(from: fixture.backup, force: true)
        _ = try fixture.store.backup(to: fixture.dir.file("again"))
        let again = try BackupManifest.parse(try String(contentsOfFile: fixture.dir.file("again/manifest"), encoding: .utf8), at: "manifest")
        #expect(again.entries.contains { $0.path == "timelines" } && again.timelineID != meta.storeID)
    }

    @Test("A damaged file in the backup is replaced by the next backup, and the manifest matches again")
    func damagedBackupRepaired() throws {
        let fixture = try RestoreFixture()
        defer { fixture.dir.remove() }
        let segment = try Self.firstSegment(fixture.backup)
        try Self.flip(fixture.backup + "/" + segment, at: 200)
        _ = try fixture.store.backup(to: fixture.backup)
        let copy = HealthStore(directory: fixture.dir.file("copy"))
        #expect(try copy.restore(from: fixture.backup).keptSeq == 150)
    }
}

import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// Backups of an encrypted store: taken without the key (ciphertext and key slots copied
/// byte for byte, checked by their checksums), restored only with it.
@Suite("Encrypted backups")
struct EncryptedBackupTests {
    /// An encrypted store at `path` with appends in it and two key slot files (stand-ins:
    /// a backup copies slots without reading them); returns its keyed handle.
    private static func filledStore(_ path: String) throws -> HealthStore {
        let store = try EncryptedSegmentTests.makeStore(path, options: EncryptedSegmentTests.smallSegments)
        _ = try store.append(ndjson: CompactionTests.lines(1...600))
        _ = try store.append(ndjson: CompactionTests.lines(601...650, deleting: [3, 8]))
        #expect(mkdir(path + "/keys", 0o700) == 0)
        for id in 1...2 { try writeSlot(path, id) }
        return store
    }

    /// Writes a stand-in slot file `id` of random bytes into the store at `path`.
    private static func writeSlot(_ path: String, _ id: Int) throws {
        try ByteSurgery.write((0..<180).map { _ in UInt8.random(in: 0...255) }, to: path + "/keys/000\(id).slot")
        chmod(path + "/keys/000\(id).slot", 0o600)
    }

    /// The bytes a file holding sample content would show: type names, a unit, a UUID as
    /// text and as raw bytes in either order, an LZ4 frame's magic.
    private static var needles: [[UInt8]] {
        let uuid = CompactionTests.uuid(123)
        let sample = SampleUUID(uuid)!
        return [
            Array("HeartRate".utf8), Array("StepCount".utf8), Array("count/min".utf8), Array(uuid.utf8),
            withUnsafeBytes(of: sample.high.bigEndian, Array.init) + withUnsafeBytes(of: sample.low.bigEndian, Array.init),
            withUnsafeBytes(of: sample.high.littleEndian, Array.init) + withUnsafeBytes(of: sample.low.littleEndian, Array.init),
            [0x04, 0x22, 0x4D, 0x18],
        ]
    }

    @Test("A backup of an encrypted store taken with no key at all holds its segments, indexes and key slots byte for byte, and no file of it (the manifest included) holds a sample's type, unit, UUID or an LZ4 frame")
    func keylessBackupIsTheCiphertext() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try Self.filledStore(dir.file("store"))
        let keyless = HealthStore(directory: dir.file("store"))
        #expect(throws: HealthLogError.self) { try CompactionTests.raw(keyless) }
        let report = try keyless.backup(to: dir.file("backup"))
        #expect(report.headSeq == 652)
        #expect(report.headAnchor == (try store.headAnchor()))
        let source = Dictionary(uniqueKeysWithValues: try DirectoryFiles.contents(dir.file("store")))
        let backup = try DirectoryFiles.contents(dir.file("backup"))
        let copied = backup.filter { $0.0.hasPrefix("segments/") || $0.0.hasPrefix("keys/") }
        #expect(copied.filter { $0.0.hasSuffix(".log.lz4") }.count > 2, "many segments")
        #expect(copied.filter { $0.0.hasPrefix("keys/") }.map(\.0).sorted() == ["keys/0001.slot", "keys/0002.slot"])
        for (name, bytes) in copied {
            #expect(source[name] == bytes, "\(name) differs from the store's")
        }
        let manifest = String(decoding: try ByteSurgery.read(dir.file("backup/manifest")), as: UTF8.self)
        #expect(manifest.contains("file keys/0001.slot 180 "))
        for (name, file) in backup {
            let bytes = Array(file.dropFirst(name.hasSuffix(".log.lz4") ? LZ4Frame.emptyFrame.count : 0))
            for needle in Self.needles {
                #expect(EncryptedSegmentTests.find(needle, in: bytes) == nil, "\(name) holds \(needle)")
            }
        }
        // A slot removed from the store leaves the backup; a new one joins it.
        unlink(dir.file("store/keys/0001.slot"))
        try Self.writeSlot(dir.file("store"), 3)
        let next = try keyless.backup(to: dir.file("backup"))
        #expect(next.filesRemoved == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("backup/keys")).sorted() == ["0002.slot", "0003.slot"])
        #expect(try ByteSurgery.read(dir.file("backup/keys/0003.slot")) == ByteSurgery.read(dir.file("store/keys/0003.slot")))
    }

    @Test("A keyless snapshot of an encrypted store walks the log as shells for those who ask for them and refuses every read of batches that needs their content")
    func keylessSnapshotRefusesQueries() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        _ = try Self.filledStore(dir.file("store"))
        let layout = StoreLayout(directory: dir.file("store"))
        #expect(throws: HealthLogError.self) { try LogSnapshot(layout) }
        let snapshot = try LogSnapshot(layout, keyless: true)
        #expect(snapshot.readsShells && snapshot.headSeq == 652)
        let shells = try snapshot.allBatches(allowingShells: true)
        #expect(!shells.isEmpty && shells.allSatisfy { $0.header.shell != nil && $0.header.groups.isEmpty })
        #expect(shells.last?.header.lastSeq == 652)
        for read: () throws -> Void in [
            { _ = try snapshot.allBatches() }, { _ = try snapshot.batches(after: 0) }, { _ = try snapshot.batch(containing: 5) },
            { _ = try snapshot.batches(inSegment: 0) }, { _ = try snapshot.batches(after: 0, upTo: 10) { _ in 1 } },
        ] {
            let error = try #require(throws: HealthLogError.self) { try read() }
            #expect(error.code == .keyRequired)
        }
        let plain = HealthStore(directory: dir.file("plain"))
        _ = try plain.append(ndjson: CompactionTests.lines(1...10))
        let plainSnapshot = try LogSnapshot(StoreLayout(directory: dir.file("plain")), keyless: true)
        #expect(!plainSnapshot.readsShells)
        #expect(try plainSnapshot.allBatches().allSatisfy { $0.header.shell == nil && !$0.header.groups.isEmpty })
    }

    @Test("A changed byte in a sealed frame of the store makes the keyless backup fail naming the segment and the frames' offset")
    func damagedFrameFailsTheBackup() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        _ = try Self.filledStore(dir.file("store"))
        let snapshot = try LogSnapshot(StoreLayout(directory: dir.file("store")), keyless: true)
        let batch = try #require(try snapshot.allBatches(allowingShells: true).first)
        let frames = batch.end - (batch.header.shell?.framesLength ?? 0)
        let segment = snapshot.segments[batch.segment].displayPath
        try ByteSurgery.flip(dir.file("store/" + segment), at: frames + 40, mask: 0x04)
        let error = try #require(throws: HealthLogError.self) { try HealthStore(directory: dir.file("store")).backup(to: dir.file("backup")) }
        #expect(error.code == .corrupt)
        #expect(error.message.contains("\(segment) at byte \(frames): frame checksum mismatch"), "\(error.message)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("backup/manifest")))
    }

    @Test("Restoring an encrypted store's backup needs its key: without one it is refused before anything is written; with it the store replays exactly as the source, and keeps the backup's key slots")
    func restoreNeedsTheKey() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try Self.filledStore(dir.file("store"))
        _ = try HealthStore(directory: dir.file("store")).backup(to: dir.file("backup"))
        let keyless = HealthStore(directory: dir.file("restored"))
        for attempt: () throws -> Void in [
            { _ = try keyless.restore(from: dir.file("backup")) }, { _ = try keyless.previewRestore(from: dir.file("backup")) },
        ] {
            let error = try #require(throws: HealthLogError.self) { try attempt() }
            #expect(error.code == .keyRequired)
        }
        #expect(!FileManager.default.fileExists(atPath: dir.file("restored")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["backup", "store"])
        let keyed = HealthStore(directory: dir.file("restored"), options: StoreOptions(), keys: store.layout.keys)
        #expect(try keyed.previewRestore(from: dir.file("backup")).kept.count == 2)
        let report = try keyed.restore(from: dir.file("backup"))
        #expect(report.keptSeq == 652)
        #expect(try CompactionTests.raw(keyed) == CompactionTests.raw(store))
        #expect(try keyed.verify().isSound)
        for id in 1...2 {
            #expect(try ByteSurgery.read(dir.file("restored/keys/000\(id).slot")) == ByteSurgery.read(dir.file("store/keys/000\(id).slot")))
        }
        let modes = try FileManager.default.attributesOfItem(atPath: dir.file("restored/keys"))[.posixPermissions] as? Int
        #expect(modes == 0o700)
        #expect(try StoreMeta.read(keyed.layout).isEncrypted)
    }

    @Test("A continuous backup of an encrypted store runs without the key, each round after an append checking only the new ciphertext, and every round restores with the key")
    func continuousRounds() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try Self.filledStore(dir.file("store"))
        let stop = try StopSignal()
        var rounds: [BackupReport] = []
        var next = 653
        _ = try HealthStore(directory: dir.file("store")).backup(to: dir.file("backup"), until: stop) { report in
            rounds.append(report)
            #expect(try BackupSource(dir.file("backup")).manifest.headSeq == report.headSeq)
            guard rounds.count < 4 else { return stop.stop() }
            _ = try store.append(ndjson: CompactionTests.lines(next...next + 4))
            next += 5
        }
        #expect(rounds.map(\.headSeq) == [652, 657, 662, 667])
        #expect(rounds.dropFirst().allSatisfy { $0.filesWritten <= 3 })
        let restored = HealthStore(directory: dir.file("restored"), options: StoreOptions(), keys: store.layout.keys)
        _ = try restored.restore(from: dir.file("backup"))
        #expect(try CompactionTests.raw(restored) == CompactionTests.raw(store))
    }

    @Test("The check of a continuous round's new bytes reads an encrypted store's batches as shells and refuses a changed sealed frame")
    func tailCheckOfSealedBatches() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try Self.filledStore(dir.file("store"))
        let layout = store.layout
        let path = layout.segment(baseSeq: 1)
        let size = try ByteSurgery.read(path).count
        let last = try #require(try LogSnapshot(layout).batches(inSegment: 0).last)
        func check(isEncrypted: Bool) throws {
            let tag = try StoreMeta.read(layout).storeID.tag
            try BackupTailCheck(destination: layout, timelines: Timelines(), storeTag: tag, isEncrypted: isEncrypted)
                .check([(path: path, from: SegmentLayout.prologueLength, to: size)], after: 0, head: last.header.lastSeq)
        }
        try check(isEncrypted: true)
        #expect(throws: HealthLogError.self) { try check(isEncrypted: false) }
        try ByteSurgery.flip(path, at: last.groupOffsets[0] + 30, mask: 0x01)
        let error = try #require(throws: HealthLogError.self) { try check(isEncrypted: true) }
        #expect(error.message.contains("frame checksum mismatch"), "\(error.message)")
    }

    @Test("A backup of an encrypted store restored with decrypting is a plaintext store of the same identity: every batch in the clear, the same head anchor and the same replay from every anchor as a restore that keeps it encrypted, and no key slots; a plaintext backup is refused")
    func restoreDecrypting() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try Self.filledStore(dir.file("store"))
        _ = try store.compact(horizon: .anchor(try store.headAnchor()))
        _ = try store.append(ndjson: CompactionTests.lines(651...700))
        _ = try HealthStore(directory: dir.file("store")).backup(to: dir.file("backup"))
        let plain = HealthStore(directory: dir.file("plain"), options: StoreOptions(), keys: store.layout.keys)
        _ = try plain.restore(from: dir.file("backup"), decrypting: true)
        let sealed = HealthStore(directory: dir.file("sealed"), options: StoreOptions(), keys: store.layout.keys)
        _ = try sealed.restore(from: dir.file("backup"))
        let meta = try StoreMeta.read(plain.layout)
        let sourceID = try StoreMeta.read(store.layout).storeID
        #expect(!meta.isEncrypted && meta.storeID == sourceID)
        let reader = HealthStore(directory: dir.file("plain"))
        #expect(try reader.verify().isSound)
        let head = try store.headAnchor()
        #expect(try reader.headAnchor().token == sealed.headAnchor().token)
        for seq: UInt64 in [0, 652, 660, 699] {
            let anchor = QueryAnchor(seq: seq, storeTag: head.storeTag, generation: head.generation)
            let expected = try CompactionTests.raw(store, from: anchor)
            #expect(try CompactionTests.raw(reader, from: anchor) == expected, "from \(seq)")
            #expect(try CompactionTests.raw(sealed, from: anchor) == expected, "from \(seq)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.file("plain/keys")))
        let segments = try DirectoryFiles.contents(dir.file("plain")).filter { $0.0.hasSuffix(".log.lz4") }
        #expect(segments.count > 2)
        #expect(segments.allSatisfy { EncryptedSegmentTests.find(Array("HeartRate".utf8), in: $0.1) != nil })
        #expect(try LogSnapshot(plain.layout).allBatches().allSatisfy { !$0.header.isSealed })
        _ = try reader.append(ndjson: CompactionTests.lines(701...702))
        #expect(try reader.verify().isSound)
        _ = try reader.backup(to: dir.file("plain-backup"))
        let refused = try #require(throws: HealthLogError.self) {
            _ = try HealthStore(directory: dir.file("again")).restore(from: dir.file("plain-backup"), decrypting: true)
        }
        #expect(refused.code == .badUsage)
    }
}

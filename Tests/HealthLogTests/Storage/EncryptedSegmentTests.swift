import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// An encrypted store's segments: every batch's table and group frames are sealed units
/// bound to their place, the log answers exactly what a plaintext log of the same appends
/// answers, and a unit changed or moved is damage naming the file and offset.
@Suite("Encrypted segments")
struct EncryptedSegmentTests {
    /// A new, empty encrypted store at `path` with one random data key, and a handle on it.
    static func makeStore(_ path: String, options: StoreOptions = StoreOptions(), keys: [UInt32: SecretBytes]? = nil) throws -> HealthStore {
        let id = StoreID.random()
        #expect(mkdir(path, 0o700) == 0)
        let meta = StoreMeta.new(id, encrypted: true)
        try Array(meta.text.utf8).withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: path + "/meta")) }
        chmod(path + "/meta", 0o600)
        let keys = try keys ?? [0: SecretBytes.random(count: 32)]
        let cipher = StoreCipher(storeID: id, keys: keys, ciphers: keys.mapValues { _ in .preferred }, current: keys.keys.min()!)
        return HealthStore(directory: path, options: options, keys: StoreKeys(cipher: cipher))
    }

    /// Another handle on `store` that holds `keys` and seals under `current`.
    static func handle(_ store: HealthStore, keys: [UInt32: SecretBytes], current: UInt32) throws -> HealthStore {
        let cipher = StoreCipher(storeID: try StoreMeta.read(store.layout).storeID, keys: keys, ciphers: keys.mapValues { _ in .preferred }, current: current)
        return HealthStore(directory: store.directory, options: store.options, keys: StoreKeys(cipher: cipher))
    }

    /// Options that make many small segments and batches.
    static var smallSegments: StoreOptions {
        var options = StoreOptions()
        options.segmentBytes = 16384
        options.batchBytes = 4096
        return options
    }

    @Test("An encrypted store answers every anchor exactly as a plaintext store of the same appends")
    func sameAnswers() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let options = Self.smallSegments
        let sealed = try Self.makeStore(dir.path + "/sealed", options: options)
        let plain = HealthStore(directory: dir.path + "/plain", options: options)
        for store in [sealed, plain] {
            _ = try store.append(ndjson: CompactionTests.lines(1...1500))
            _ = try store.append(ndjson: CompactionTests.lines(1501...1600, deleting: [3, 8, 1550]))
        }
        #expect(try CompactionTests.raw(sealed) == CompactionTests.raw(plain))
        for seq: UInt64 in [0, 1, 700, 1599, 1603] {
            let anchor = QueryAnchor(seq: seq, storeTag: try sealed.headAnchor().storeTag, generation: 0)
            let plainAnchor = QueryAnchor(seq: seq, storeTag: try plain.headAnchor().storeTag, generation: 0)
            #expect(try CompactionTests.raw(sealed, from: anchor) == CompactionTests.raw(plain, from: plainAnchor), "from \(seq)")
        }
        #expect(try sealed.verify().isSound)
        #expect(try DirectoryFiles.contents(dir.path + "/sealed").filter { $0.0.hasSuffix(".log.lz4") }.count > 2, "many segments")
    }

    @Test("No segment or segment index of an encrypted store (its sealed copy of the tables included) holds a sample's type, value, UUID (as text or raw bytes) or an LZ4 frame of its lines")
    func segmentsRevealNoContent() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try Self.makeStore(dir.path + "/s", options: Self.smallSegments)
        _ = try store.append(ndjson: CompactionTests.lines(1...400, deleting: [5]))
        let indexes = try SealedTableCopyTests.indexes(store)
        #expect(indexes.count > 1 && indexes.allSatisfy { !$0.1.sealedCopy.isEmpty }, "every segment index holds a sealed copy")
        let uuid = CompactionTests.uuid(123)
        let sample = try #require(SampleUUID(uuid))
        let raw = withUnsafeBytes(of: sample.high.bigEndian, Array.init) + withUnsafeBytes(of: sample.low.bigEndian, Array.init)
        let rawLittle = withUnsafeBytes(of: sample.high.littleEndian, Array.init) + withUnsafeBytes(of: sample.low.littleEndian, Array.init)
        let needles: [[UInt8]] = [
            Array("HeartRate".utf8), Array("StepCount".utf8), Array(uuid.utf8), raw, rawLittle, [0x04, 0x22, 0x4D, 0x18], Array("count/min".utf8),
        ]
        for (name, file) in try DirectoryFiles.contents(dir.path + "/s") where name.hasPrefix("segments/") {
            // Past the empty LZ4 frame every segment opens with.
            let bytes = Array(file.dropFirst(name.hasSuffix(".log.lz4") ? LZ4Frame.emptyFrame.count : 0))
            for needle in needles {
                #expect(Self.find(needle, in: bytes) == nil, "\(name) holds \(needle)")
            }
        }
    }

    @Test("A changed bit in a sealed table, a changed fixed field, or a changed frame is damage naming the segment and offset, even with the header's checksum made good")
    func tamperedUnitsAreDamage() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/s"
        let store = try Self.makeStore(path)
        _ = try store.append(ndjson: CompactionTests.lines(1...40))
        _ = try store.append(ndjson: CompactionTests.lines(41...80))
        let snapshot = try LogSnapshot(store.layout)
        let batch = try #require(snapshot.allBatches().first)
        let segment = path + "/" + snapshot.segments[0].displayPath
        let original = try ByteSurgery.read(segment)
        let payload = batch.offset + 8
        let payloadEnd = batch.groupOffsets[0]
        // A bit of the sealed table; the append time in the fixed fields; a bit of a frame.
        for offset in [payload + 48 + 40, payload + 32, batch.groupOffsets[0] + 60] {
            try ByteSurgery.write(original, to: segment)
            try ByteSurgery.flip(segment, at: offset, mask: 0x10)
            try ByteSurgery.rechecksum(segment, range: payload..<payloadEnd - 4, storedAt: payloadEnd - 4)
            let error = try #require(throws: HealthLogError.self) { try CompactionTests.raw(store) }
            #expect(error.code == .corrupt && error.message.contains(snapshot.segments[0].displayPath), "\(offset): \(error)")
        }
        try ByteSurgery.write(original, to: segment)
        #expect(try CompactionTests.raw(store).count == 80)
    }

    @Test("A changed byte in a sealed frame is named a frame checksum mismatch at the frame's offset by a replay of every type and of the frame's type, though a replay checks a sealed frame by its tag alone until it does not open")
    func changedFrameIsChecksumMismatch() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/s"
        let store = try Self.makeStore(path)
        _ = try store.append(ndjson: CompactionTests.lines(1...40))
        let snapshot = try LogSnapshot(store.layout)
        let batch = try #require(snapshot.allBatches().first)
        let frame = batch.groupOffsets[0]
        try ByteSurgery.flip(path + "/" + snapshot.segments[0].displayPath, at: frame + 60, mask: 0x10)
        let expected = "\(snapshot.segments[0].displayPath) at byte \(frame): frame checksum mismatch"
        let all = try #require(throws: HealthLogError.self) { try CompactionTests.raw(store) }
        #expect(all.code == .corrupt && all.message.contains(expected), "\(all)")
        let typed = try #require(throws: HealthLogError.self) { try SealedTableCopyTests.replay(store, type: batch.header.groups[0].type) }
        #expect(typed.code == .corrupt && typed.message.contains(expected), "\(typed)")
    }

    @Test("A segment renamed to another base (its header's base and checksum made to match) opens none of its units")
    func movedSegmentDoesNotOpen() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/s"
        let store = try Self.makeStore(path)
        _ = try store.append(ndjson: CompactionTests.lines(1...40))
        let layout = store.layout
        let from = layout.segment(baseSeq: 1)
        let bytes = try ByteSurgery.read(from)
        let header = try SegmentHeader.decode(Array(bytes[LZ4Frame.emptyFrame.count..<SegmentLayout.prologueLength]))
        #expect(header.baseSeq == 1)
        let place = BatchPlace(cipher: try #require(try layout.cipher(try StoreMeta.read(layout))), segmentBase: 2, generation: 0, offset: SegmentLayout.prologueLength)
        let payloadLength = Int(ByteReaderValue.u32(bytes, SegmentLayout.prologueLength + 4))
        let payload = Array(bytes[(SegmentLayout.prologueLength + 8)..<(SegmentLayout.prologueLength + 8 + payloadLength)])
        #expect(throws: FormatViolation.self) { try BatchHeader.decode(payload: payload, place: place) }
        _ = try BatchHeader.decode(payload: payload, place: BatchPlace(cipher: place.cipher, segmentBase: 1, generation: 0, offset: SegmentLayout.prologueLength))
    }

    @Test("Compaction of an encrypted store seals every rewritten batch for its new place and answers as a compacted plaintext store")
    func compactionReseals() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let sealed = try Self.makeStore(dir.path + "/sealed", options: Self.smallSegments)
        let plain = HealthStore(directory: dir.path + "/plain", options: Self.smallSegments)
        for store in [sealed, plain] {
            _ = try store.append(ndjson: CompactionTests.lines(1...600))
            _ = try store.append(ndjson: CompactionTests.lines(601...700, deleting: [3, 250, 640]))
            let report = try store.compact(horizon: .anchor(try store.headAnchor()))
            #expect(report.eventsDropped == 6)
            _ = try store.append(ndjson: CompactionTests.lines(701...720))
        }
        #expect(try CompactionTests.raw(sealed) == CompactionTests.raw(plain))
        #expect(try sealed.verify().isSound)
        for (name, file) in try DirectoryFiles.contents(dir.path + "/sealed") where name.hasPrefix("segments/") {
            #expect(Self.find(Array("HeartRate".utf8), in: file) == nil, "\(name)")
        }
    }

    @Test("After a key rotation a rekey rewrites every segment sealed under the older epoch; then the newest key alone reads the whole log")
    func rekeyLeavesOnlyTheNewestEpoch() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let old = try SecretBytes.random(count: 32)
        let new = try SecretBytes.random(count: 32)
        let first = try Self.makeStore(dir.path + "/s", options: Self.smallSegments, keys: [0: old])
        _ = try first.append(ndjson: CompactionTests.lines(1...300))
        let rotated = try Self.handle(first, keys: [0: old, 1: new], current: 1)
        _ = try rotated.append(ndjson: CompactionTests.lines(301...400, deleting: [7]))
        let expected = try CompactionTests.raw(rotated)
        let onlyNew = try Self.handle(first, keys: [1: new], current: 1)
        #expect(throws: HealthLogError.self) { try CompactionTests.raw(onlyNew) }
        let report = try rotated.rekey()
        #expect(report.generation == 1 && report.eventsDropped == 0 && report.segmentsRewritten >= 1)
        #expect(try CompactionTests.raw(onlyNew) == expected)
        #expect(try onlyNew.verify().isSound)
        let again = try onlyNew.rekey()
        #expect(again.generation == 0, "nothing left under an older epoch")
        #expect(throws: HealthLogError.self) { try HealthStore(directory: dir.path + "/p").rekey() }
    }

    @Test("A unit sealed in place, its plaintext where an opening in place leaves it, opens to that plaintext under either cipher, small and past the bulk switch; changed, it does not", arguments: [UnitCipher.xchacha20Poly1305, .aes256GCM])
    func sealsInPlace(_ unitCipher: UnitCipher) throws {
        let cipher = StoreCipher(storeID: .random(), keys: [0: try SecretBytes.random(count: 32)], ciphers: [0: unitCipher], current: 0)
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 1_000, 300 << 10, 1 << 20] {
            let plaintext = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let start = 4 + StoreCipher.overhead - UnitCipher.tagLength - 4
            var unit = [UInt8](repeating: 0, count: start) + plaintext + [UInt8](repeating: 0, count: UnitCipher.tagLength)
            unit.withUnsafeMutableBytes { cipher.sealInPlace($0, .derivedFile, place: [7, 7]) }
            #expect(length == 0 || unit[start..<start + length].elementsEqual(plaintext) == false, "\(length) bytes: encrypted")
            #expect(cipher.open(unit, .derivedFile, place: [7, 7]) == plaintext, "\(length) bytes")
            #expect(cipher.open(unit, .derivedFile, place: [7, 8]) == nil)
            unit[unit.count / 2] ^= 1
            #expect(cipher.open(unit, .derivedFile, place: [7, 7]) == nil, "\(length) bytes changed")
        }
    }

    @Test("A unit shorter than a unit's overhead, or forged, does not open, in place or not (found by the sealed fuzz target)")
    func shortUnitsDoNotOpen() throws {
        let cipher = StoreCipher(storeID: .random(), keys: [0: try SecretBytes.random(count: 32)], ciphers: [0: .preferred], current: 0)
        for length in [0, 1, 8, StoreCipher.overhead - 1, StoreCipher.overhead, 100] {
            var unit = [UInt8](repeating: 0x48, count: length)
            #expect(unit.withUnsafeMutableBytes { cipher.openInPlace($0, .batchTable, place: []) } == nil, "\(length) bytes")
            #expect(cipher.open(unit, .groupFrame, place: []) == nil)
        }
        let sealed = cipher.seal([1, 2, 3], .groupFrame, place: [9])
        #expect(cipher.open(sealed, .groupFrame, place: [9]) == [1, 2, 3])
        #expect(cipher.open(sealed, .groupFrame, place: [8]) == nil)
        #expect(cipher.open(sealed, .batchTable, place: [9]) == nil)
    }

    @Test("A writer whose keys lack the epoch of batches past the checkpoint refuses (exit 4) and cuts nothing: a sealed table with a sound checksum is never a torn tail")
    func missingEpochIsNotATornTail() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let old = try SecretBytes.random(count: 32)
        let new = try SecretBytes.random(count: 32)
        let first = try Self.makeStore(dir.path + "/s", keys: [0: old])
        _ = try first.append(ndjson: CompactionTests.lines(1...50))
        var unsynced = StoreOptions()
        unsynced.sync = false
        let rotated = try Self.handle(HealthStore(directory: first.directory, options: unsynced, keys: first.layout.keys), keys: [0: old, 1: new], current: 1)
        _ = try rotated.append(ndjson: CompactionTests.lines(51...80))
        let expected = try CompactionTests.raw(rotated)
        let stale = try Self.handle(first, keys: [0: old], current: 0)
        let error = try #require(throws: HealthLogError.self) { try stale.append(ndjson: CompactionTests.lines(81...90)) }
        #expect(error.code == .keyRequired || error.code == .corrupt, "\(error)")
        #expect(try CompactionTests.raw(rotated) == expected, "nothing was cut")
    }

    /// Where `needle` first occurs in `haystack`, if anywhere.
    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        haystack.firstRange(of: needle)?.lowerBound
    }
}

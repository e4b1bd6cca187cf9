import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// The run of the fingerprint index encoded from its events (``UUIDFingerprintRun/Events``,
/// their keys sorted a stretch at a time into a ``FingerprintKeySpill`` and merged back,
/// ``AppendedUUIDs/finish(through:into:)``): the same file, byte for byte, as the run
/// written from all of the events' keys sorted in memory.
@Suite("UUID fingerprint run of an append")
struct UUIDFingerprintAppendRunTests {
    /// `count` events from `from` on, each of a fresh random UUID, the sequence numbers
    /// rising by 1 or, one time in `jumpEvery`, by more.
    private static func events(_ count: Int, from: UInt64, jumpEvery: Int, seed: UInt64) -> [(uuid: SampleUUID, seq: UInt64)] {
        var random = SeededRandom(state: seed)
        var seq = from
        return (0..<count).map { _ in
            defer { seq += random.chance(jumpEvery) ? UInt64(random.int(2...40)) : 1 }
            return (SampleUUID(high: random.next(), low: random.next()), seq)
        }
    }

    /// The bytes of the run of `events` covering `from...to`, written from their keys.
    private static func reference(
        _ events: [(uuid: SampleUUID, seq: UInt64)], from: UInt64, to: UInt64, binding: LogBinding = .unbound, in directory: String
    ) throws -> [UInt8] {
        try OwnedDirectory.prepare(directory)
        let shift = UInt64(UUIDFingerprint.blockShift(from: from, to: to))
        let keys = events.map { UInt64(UUIDFingerprint.of($0.uuid)) << 32 | (($0.seq >> shift) - (from >> shift)) }
        return try ByteSurgery.read(UUIDFingerprintRun.write(keys: keys, from: from, to: to, binding: binding, cipher: nil, directory: directory).path)
    }

    @Test(
        "The run encoded from an append's fingerprints is the run written from its keys, byte for byte, however many stretches they were sorted in",
        arguments: [(0, 1_000_000), (1, 1_000_000), (5, 3), (700, 1_000_000), (9_000, 50), (70_000, 1_000_000), (70_000, 3)], [1, 7, 4_096, 1 << 18])
    func sameBytesAsKeys(_ shape: (count: Int, jumpEvery: Int), _ residentKeys: Int) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let from: UInt64 = 12
        let events = Self.events(shape.count, from: from + 3, jumpEvery: shape.jumpEvery, seed: UInt64(shape.count + shape.jumpEvery))
        let to = (events.last?.seq ?? from) + 2
        var appended = UUIDFingerprintRun.Events(residentKeys: residentKeys)
        for event in events { try appended.add(event.uuid, seq: event.seq) }
        #expect(appended.count == shape.count)
        #expect(try appended.fileBytes(from: from, to: to, binding: .unbound, cipher: nil) == (try Self.reference(events, from: from, to: to, in: dir.path)))
    }

    @Test("Sealed stretches give the same run, their file holds none of the keys, and a flipped byte in it fails the merge")
    func sealedStretches() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let events = Self.events(20_000, from: 1, jumpEvery: 1_000_000, seed: 9)
        let to = events.last!.seq
        let spill = FingerprintKeySpill(sealing: try ScratchCipher.forProcess())
        var keys = events.enumerated().map { UInt64(UUIDFingerprint.of($1.uuid)) << 32 | UInt64($0) }
        keys.sort()
        try keys[0..<12_000].withUnsafeBufferPointer { try spill.write($0) }
        try keys[12_000...].withUnsafeBufferPointer { try spill.write($0) }
        var merged: [UInt64] = []
        try spill.merge(with: UnsafeBufferPointer(start: nil, count: 0)) { merged.append($0) }
        #expect(merged == keys.sorted())
        let file = try #require(spill.file)
        let bytes = try file.read(at: 0, count: try file.size())
        for key in [keys[0], keys[5_000], keys[12_000], keys[19_999]] {
            #expect(!KnownPlaintext.contains(withUnsafeBytes(of: key.littleEndian, Array.init), in: bytes), "key \(key)")
        }
        var byte = try file.read(at: 40_000, count: 1)
        byte[0] ^= 0x10
        try file.write(byte, at: 40_000)
        let error = #expect(throws: HealthLogError.self) { try spill.merge(with: UnsafeBufferPointer(start: nil, count: 0)) { _ in } }
        #expect(error?.code == .corrupt)

        var sealed = UUIDFingerprintRun.Events(sealing: try ScratchCipher.forProcess(), residentKeys: 3_000)
        for event in events { try sealed.add(event.uuid, seq: event.seq) }
        #expect(try sealed.fileBytes(from: 1, to: to, binding: .unbound, cipher: nil) == (try Self.reference(events, from: 1, to: to, in: dir.path)))
    }

    @Test("An append's finished run holds a key for each add and delete, as the run of its events written from their keys", arguments: [1, 7, 100, 5_000])
    func appendedUUIDsFinish(_ chunk: Int) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var random = SeededRandom(state: UInt64(chunk))
        let appended = AppendedUUIDs(from: 41, chunkEvents: chunk)
        var live: [SampleUUID] = []
        var events: [(uuid: SampleUUID, seq: UInt64)] = []
        for seq in UInt64(44)...1_500 {
            let uuid: SampleUUID
            let isDelete = !live.isEmpty && random.chance(5)
            if isDelete {
                uuid = live.remove(at: random.int(0...live.count - 1))
            } else {
                uuid = SampleUUID(high: random.next(), low: random.next())
                live.append(uuid)
            }
            try appended.add(uuid, seq: seq, isDelete: isDelete)
            events.append((uuid, seq))
        }
        appended.prepareFinish(through: 1_502, cipher: nil)
        let binding = LogBinding(storeID: StoreID.random(), check: 0x1234_5678)
        let run = try appended.finish(through: 1_502, binding: binding, cipher: nil, into: dir.file("uuids"))
        #expect(run.binding == binding)
        #expect((run.fromSeq, run.toSeq, run.count) == (41, 1_502, events.count))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("uuids")) == [UUIDFingerprintRun.fileName(from: 41, to: 1_502)])
        #expect(try ByteSurgery.read(run.path) == (try Self.reference(events, from: 41, to: 1_502, binding: binding, in: dir.file("reference"))))
    }
}

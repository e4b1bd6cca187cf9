import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// The append's run of the fingerprint index encoded straight from its events
/// (``UUIDFingerprintRun/AppendEvents``, ``AppendedUUIDs/finish(through:into:)``): the
/// same file, byte for byte, as the run written from the events' keys.
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
        var all = UUIDFingerprintRun.Events()
        for event in events { all.add(event.uuid, seq: event.seq) }
        return try ByteSurgery.read(all.write(from: from, to: to, binding: binding, cipher: nil, directory: directory).path)
    }

    @Test(
        "The run encoded from an append's fingerprints is the run written from its keys, byte for byte",
        arguments: [(0, 1_000_000), (1, 1_000_000), (5, 3), (700, 1_000_000), (9_000, 50), (70_000, 1_000_000), (70_000, 3)])
    func sameBytesAsKeys(_ count: Int, _ jumpEvery: Int) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let from: UInt64 = 12
        let events = Self.events(count, from: from + 3, jumpEvery: jumpEvery, seed: UInt64(count + jumpEvery))
        let to = (events.last?.seq ?? from) + 2
        var appended = UUIDFingerprintRun.AppendEvents()
        for event in events { appended.add(event.uuid, seq: event.seq) }
        #expect(appended.count == count)
        #expect(appended.fileBytes(from: from, to: to, binding: .unbound, cipher: nil) == (try Self.reference(events, from: from, to: to, in: dir.path)))
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

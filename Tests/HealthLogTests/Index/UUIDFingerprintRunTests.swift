import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// ``UUIDFingerprintRun``: the Elias–Fano layout written and read back, candidates found
/// for every key, damage refused at open, merges equal to a run written at once.
@Suite("UUID fingerprint runs")
struct UUIDFingerprintRunTests {
    /// `count` events from `from` on, each of a fresh random UUID, with seqs rising by 1 or 2.
    private static func events(_ count: Int, from: UInt64, seed: UInt64) -> [(uuid: SampleUUID, seq: UInt64)] {
        var random = SeededRandom(state: seed)
        var seq = from
        return (0..<count).map { _ in
            defer { seq += random.chance(4) ? 2 : 1 }
            return (SampleUUID(high: random.next(), low: random.next()), seq)
        }
    }

    /// The run of `events` covering `from...to`, written into `directory`.
    private static func run(_ events: [(uuid: SampleUUID, seq: UInt64)], from: UInt64, to: UInt64, in directory: String) throws -> UUIDFingerprintRun {
        try OwnedDirectory.prepare(directory)
        var all = UUIDFingerprintRun.Events()
        for event in events { try all.add(event.uuid, seq: event.seq) }
        return try all.write(from: from, to: to, binding: .unbound, cipher: nil, directory: directory)
    }

    /// The key of the event `seq` of `uuid` in a run from `from` with block shift `shift`,
    /// as ``UUIDFingerprint`` describes it: the fingerprint, then the block less the run's first.
    private static func key(_ uuid: SampleUUID, seq: UInt64, from: UInt64, shift: Int) -> UInt64 {
        UInt64(UUIDFingerprint.of(uuid)) << 32 | ((seq >> UInt64(shift)) - (from >> UInt64(shift)))
    }

    @Test("Keys read back in order, and every event's UUID names its block", arguments: [0, 1, 2, 3, 7, 63, 64, 65, 100, 1_000, 9_000])
    func roundTrip(_ count: Int) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let events = Self.events(count, from: 5, seed: UInt64(count) + 1)
        let to = (events.last?.seq ?? 5) + 3
        let run = try Self.run(events, from: 5, to: to, in: dir.path)
        #expect((run.fromSeq, run.toSeq, run.count) == (5, to, count))
        let shift = UUIDFingerprint.blockShift(from: 5, to: to)
        #expect(run.keys() == events.map { Self.key($0.uuid, seq: $0.seq, from: 5, shift: shift) }.sorted())
        for event in events {
            let blocks = run.candidateBlocks(event.uuid)
            #expect(blocks.contains { run.seqs(ofBlock: $0).contains(event.seq) })
        }
        // A UUID of no event has candidates only where a key shares its fingerprint.
        var random = SeededRandom(state: 99)
        let fingerprints = Set(events.map { UUIDFingerprint.of($0.uuid) })
        for _ in 0..<500 {
            let absent = SampleUUID(high: random.next(), low: random.next())
            #expect(run.candidateBlocks(absent).isEmpty || fingerprints.contains(UUIDFingerprint.of(absent)))
        }
        #expect(try FileManager.default.attributesOfItem(atPath: run.path)[.posixPermissions] as? Int == 0o600)
    }

    @Test("At 100,000 events a key takes 16 fingerprint bits, 9 block bits and under 2 bucket bits")
    func size() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let events = (1...100_000).map { (SampleUUID(high: UInt64($0), low: 7), UInt64($0)) }
        let run = try Self.run(events, from: 1, to: 100_000, in: dir.path)
        let bytes = try #require(try FileManager.default.attributesOfItem(atPath: run.path)[.size] as? Int)
        #expect(bytes == run.byteCount)
        #expect((run.lowBits, run.blockBits) == (16, 9))
        #expect(bytes < 100_000 * 27 / 8 + 100)
    }

    @Test("The bucket directory gives every bucket its keys, also buckets too full for an entry's 64 bits", arguments: [200, 3_000])
    func bucketDirectory(_ count: Int) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let highBits = UUIDFingerprintRun.highBits(count: count)
        var random = SeededRandom(state: UInt64(count))
        func uuid(inBucket bucket: UInt64?) -> SampleUUID {
            while true {
                let uuid = SampleUUID(high: random.next(), low: random.next())
                if bucket.map({ UInt64(UUIDFingerprint.of(uuid)) >> UInt64(32 - highBits) == $0 }) ?? true { return uuid }
            }
        }
        // 90 keys in bucket 0 and 70 in bucket 17: their entries' 64 bits end inside them.
        let chosen = (0..<90).map { _ in uuid(inBucket: 0) } + (0..<70).map { _ in uuid(inBucket: 17) }
        let uuids = chosen + (chosen.count..<count).map { _ in uuid(inBucket: nil) }
        let events = uuids.enumerated().map { (uuid: $0.element, seq: UInt64($0.offset) * 3 + 1) }
        let run = try Self.run(events, from: 1, to: events.last!.seq, in: dir.path)
        #expect(32 - run.lowBits == highBits)
        let keys = run.keys()
        let buckets = keys.map { Int($0 >> UInt64(32 + run.lowBits)) }
        for bucket in 0..<(1 << highBits) {
            let first = buckets.firstIndex { $0 >= bucket } ?? keys.count
            let end = buckets.firstIndex { $0 > bucket } ?? keys.count
            #expect(run.keys(ofBucket: bucket) == first..<end, "bucket \(bucket)")
        }
        #expect(run.keys(ofBucket: 0).count >= 90)
        #expect(run.keys(ofBucket: 17).count >= 70)
        for event in events + (0..<200).map({ _ in (uuid: uuid(inBucket: 17), seq: UInt64(0)) }) {
            let fingerprint = UInt64(UUIDFingerprint.of(event.uuid))
            #expect(run.candidateBlocks(event.uuid) == keys.filter { $0 >> 32 == fingerprint }.map { $0 & 0xFFFF_FFFF })
        }
    }

    @Test("UUIDs sharing a fingerprint are both candidates, each in its own block")
    func collisions() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let pairs = FingerprintCollisions.shared
        #expect(pairs.count >= 3)
        var events: [(uuid: SampleUUID, seq: UInt64)] = []
        for (k, pair) in pairs.enumerated() {
            events.append((pair.0, UInt64(k * 10_000 + 1)))
            events.append((pair.1, UInt64(k * 10_000 + 9_000)))
        }
        let run = try Self.run(events, from: 1, to: UInt64(pairs.count * 10_000), in: dir.path)
        for (k, pair) in pairs.enumerated() {
            let blocks = run.candidateBlocks(pair.0)
            #expect(blocks == run.candidateBlocks(pair.1))
            #expect(blocks.contains { run.seqs(ofBlock: $0).contains(UInt64(k * 10_000 + 1)) })
            #expect(blocks.contains { run.seqs(ofBlock: $0).contains(UInt64(k * 10_000 + 9_000)) })
        }
    }

    @Test("A flipped byte anywhere in the file, or a cut one, does not open")
    func damage() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let run = try Self.run(Self.events(3_000, from: 1, seed: 4), from: 1, to: 6_000, in: dir.path)
        let pristine = try ByteSurgery.read(run.path)
        var random = SeededRandom(state: 5)
        for at in [0, 4, 9, 24, 32, 33, 34, 36, 40, 48, 60, pristine.count / 2, pristine.count - 9] + (0..<20).map({ _ in random.int(0...pristine.count - 1) }) {
            var damaged = pristine
            damaged[at] ^= 0x10
            try Data(damaged).write(to: URL(fileURLWithPath: run.path))
            #expect(UUIDFingerprintRun(path: run.path, cipher: nil) == nil, "flipped byte \(at)")
        }
        try Data(pristine.dropLast(8)).write(to: URL(fileURLWithPath: run.path))
        #expect(UUIDFingerprintRun(path: run.path, cipher: nil) == nil)
        try Data(pristine).write(to: URL(fileURLWithPath: run.path))
        #expect(UUIDFingerprintRun(path: run.path, cipher: nil) != nil)
    }

    @Test("A 32-byte run of older builds under the same name does not open as a fingerprint run")
    func olderLayout() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let entries = [UUIDRun.Entry(uuid: SampleUUID(high: 1, low: 2), addSeq: 1, deleteSeq: 0)]
        let path = try UUIDRun.writeAsOlderBuild(entries, from: 1, to: 1, directory: dir.path)
        #expect(UUIDFingerprintRun(path: path, cipher: nil) == nil)
        #expect(IndexVersion(path: path, of: UUIDFingerprintRun.file) == .other(1))
    }

    @Test("Merged runs hold the keys of one run written for their whole range", arguments: [[1, 1], [500, 2_000], [4_000, 10, 3_000], [0, 700]])
    func merge(_ counts: [Int]) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var from: UInt64 = 3
        var runs: [UUIDFingerprintRun] = []
        var all: [(uuid: SampleUUID, seq: UInt64)] = []
        for (k, count) in counts.enumerated() {
            let events = Self.events(count, from: from, seed: UInt64(k) + 20)
            let to = (events.last?.seq ?? from) + 1
            runs.append(try Self.run(events, from: from, to: to, in: dir.file("part\(k)")))
            all += events
            from = to + 1
        }
        let merged = try UUIDFingerprintRun.writeMerged(runs, cipher: nil, directory: dir.path)
        let whole = try Self.run(all, from: 3, to: from - 1, in: dir.file("whole"))
        #expect((merged.fromSeq, merged.toSeq) == (3, from - 1))
        #expect(merged.keys() == whole.keys())
        #expect(try ByteSurgery.read(merged.path) == ByteSurgery.read(whole.path))
    }
}

/// ``UUIDFingerprintRun/sorted(_:)``, the linear sort of a run's keys.
@Suite("UUID fingerprint keys sorted")
struct UUIDFingerprintSortTests {
    @Test("Keys sort as a comparison sort does, many sharing a fingerprint among them", arguments: [10, 5_000, 70_000])
    func sortsLikeComparison(_ count: Int) {
        var random = SeededRandom(state: UInt64(count))
        let keys = (0..<count).map { k -> UInt64 in
            let fingerprint = k % 4 == 0 ? UInt64(0xABCD_0123) : random.next() >> 32
            return fingerprint << 32 | UInt64(random.int(0...999))
        }
        #expect(UUIDFingerprintRun.sorted(keys) == keys.sorted())
    }
}

import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// A run of the fingerprint UUID index streamed to its file as it is encoded
/// (``UUIDFingerprintRun/writeStreamed(count:from:to:binding:cipher:into:keys:)``): the
/// file the in-memory ``UUIDFingerprintRun/Encoder`` gives, byte for byte in the clear, and
/// for a sealed body the same header and the same plaintext in its sealed pages; a streamed
/// run changed or cut short does not open.
@Suite("UUID fingerprint run streamed to its file")
struct UUIDFingerprintRunStreamTests {
    /// `count` keys, ascending, of events `from...` one after another (random fingerprints),
    /// for a run covering `from...to`; `to`: the last event's number and 3 more.
    static func keys(_ count: Int, from: UInt64, seed: UInt64) -> (keys: [UInt64], to: UInt64) {
        var random = SeededRandom(state: seed)
        let to = from + UInt64(count) + 2
        let shift = UInt64(UUIDFingerprint.blockShift(from: from, to: to))
        let keys = (0..<UInt64(count)).map { i in random.next() & 0xFFFF_FFFF_0000_0000 | (((from + i) >> shift) - (from >> shift)) }
        return (keys.sorted(), to)
    }

    /// The file of the run of `keys` encoded in memory.
    static func encoded(_ keys: [UInt64], from: UInt64, to: UInt64, binding: LogBinding, cipher: StoreCipher?) -> [UInt8] {
        var encoder = UUIDFingerprintRun.Encoder(count: keys.count, from: from, to: to)
        for key in keys { encoder.append(key) }
        return encoder.takeFileBytes(binding: binding, cipher: cipher)
    }

    /// Streams the run of `keys` into a new file at `path`; its bytes.
    static func streamed(
        _ keys: [UInt64], from: UInt64, to: UInt64, binding: LogBinding, cipher: StoreCipher?, path: String
    ) throws -> [UInt8] {
        let fd = try FileDescriptor.createExclusive(path)
        defer { fd.close() }
        try UUIDFingerprintRun.writeStreamed(count: keys.count, from: from, to: to, binding: binding, cipher: cipher, into: fd) { key in
            for k in keys { key(k) }
        }
        return try ByteSurgery.read(path)
    }

    /// The plaintext body of the sealed run file `bytes`, each page opened with `cipher`;
    /// `nil` when one does not open.
    static func openedBody(_ bytes: [UInt8], cipher: StoreCipher) -> [UInt8]? {
        var body: [UInt8] = []
        var at = UUIDFingerprintRun.headerLength
        var page: UInt32 = 0
        while at < bytes.count {
            let end = min(bytes.count, at + UUIDFingerprintRun.sealedPageBytes)
            let place = SmallFile.place(bytes[0..<UUIDFingerprintRun.placeLength], unit: page)
            guard let plain = cipher.open(Array(bytes[at..<end]), .derivedFile, place: place) else { return nil }
            body += plain
            at = end
            page += 1
        }
        return body
    }

    /// A store's cipher with one fresh key, sealing with `unit`.
    static func cipher(_ unit: UnitCipher) throws -> StoreCipher {
        try Sodium.ready()
        return StoreCipher(storeID: .random(), keys: [1: try SecretBytes.random(count: 32)], ciphers: [1: unit], current: 1)
    }

    @Test("A plaintext run streamed to its file is the run encoded in memory, byte for byte", arguments: [0, 1, 2, 700, 70_000, 300_000])
    func plaintextSameBytes(_ count: Int) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (keys, to) = Self.keys(count, from: 40, seed: UInt64(count))
        let binding = LogBinding(storeID: .random(), check: 0xABCD)
        let reference = Self.encoded(keys, from: 40, to: to, binding: binding, cipher: nil)
        #expect(try Self.streamed(keys, from: 40, to: to, binding: binding, cipher: nil, path: dir.path + "/run") == reference)
        let run = try #require(UUIDFingerprintRun(path: dir.path + "/run", cipher: nil))
        #expect(run.keys() == keys)
    }

    @Test("A sealed run streamed to its file has the header and, opened page by page, the body of the run encoded in memory", arguments: [UnitCipher.aes256GCM, .xchacha20Poly1305])
    func sealedSameBody(_ unit: UnitCipher) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let cipher = try Self.cipher(unit)
        let binding = LogBinding(storeID: cipher.storeID, check: 7)
        for count in [0, 1, 300_000] {
            let (keys, to) = Self.keys(count, from: 3, seed: UInt64(count) + 5)
            let reference = Self.encoded(keys, from: 3, to: to, binding: binding, cipher: cipher)
            let path = dir.path + "/run-\(count)"
            let streamed = try Self.streamed(keys, from: 3, to: to, binding: binding, cipher: cipher, path: path)
            #expect(streamed.count == reference.count)
            // The naming fields, and the binding; the body's checksum covers its random nonces.
            #expect(streamed[0..<UUIDFingerprintRun.placeLength] == reference[0..<UUIDFingerprintRun.placeLength])
            #expect(streamed[40..<60] == reference[40..<60])
            let body = try #require(Self.openedBody(streamed, cipher: cipher))
            #expect(body == (try #require(Self.openedBody(reference, cipher: cipher))))
            #expect(body.count == (count == 0 ? 0 : 8 * UUIDFingerprintRun.words(count: count, lowBits: 32 - UUIDFingerprintRun.highBits(count: count), blockBits: Int(streamed[33])).total))
            let run = try #require(UUIDFingerprintRun(path: path, cipher: cipher), "count \(count)")
            #expect(run.keys() == keys)
        }
    }

    @Test("A streamed run with a changed byte or cut short does not open, in the clear or sealed in pieces", arguments: [false, true])
    func damagedRefused(_ sealed: Bool) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let cipher = sealed ? try Self.cipher(.aes256GCM) : nil
        let (keys, to) = Self.keys(300_000, from: 1, seed: 3)
        let binding = LogBinding(storeID: .random(), check: 1)
        let pristine = try Self.streamed(keys, from: 1, to: to, binding: binding, cipher: cipher, path: dir.path + "/pristine")
        #expect(UUIDFingerprintRun(path: dir.path + "/pristine", cipher: cipher) != nil)
        for offset in [30, 64, 100, pristine.count / 2, pristine.count - 1] {
            var bytes = pristine
            bytes[offset] ^= 0x04
            try ByteSurgery.write(bytes, to: dir.path + "/changed")
            #expect(UUIDFingerprintRun(path: dir.path + "/changed", cipher: cipher) == nil, "byte \(offset) changed")
        }
        try ByteSurgery.write(Array(pristine.dropLast(8)), to: dir.path + "/cut")
        #expect(UUIDFingerprintRun(path: dir.path + "/cut", cipher: cipher) == nil)
    }

    @Test(
        "An append's events streamed to their run's file give the bytes encoded in memory, their keys merged once from stretches, sealed or not, and read again in order",
        arguments: [true, false])
    func eventsStreamed(sealed: Bool) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var random = SeededRandom(state: 11)
        var events = UUIDFingerprintRun.Events(sealing: sealed ? try ScratchCipher.forProcess() : nil, residentKeys: 5_000)
        var seq: UInt64 = 9
        for _ in 0..<40_000 {
            try events.add(SampleUUID(high: random.next(), low: random.next()), seq: seq)
            seq += random.chance(2) ? 30 : 1
        }
        let binding = LogBinding(storeID: .random(), check: 3)
        let fd = try FileDescriptor.createExclusive(dir.path + "/run")
        defer { fd.close() }
        try events.write(from: 5, to: seq, binding: binding, cipher: nil, into: fd)
        #expect(try ByteSurgery.read(dir.path + "/run") == (try events.fileBytes(from: 5, to: seq, binding: binding, cipher: nil)))
    }
}

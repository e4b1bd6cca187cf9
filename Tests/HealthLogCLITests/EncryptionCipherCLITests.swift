#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HealthLogTestSupport
import Testing

/// The cipher of each key epoch from the outside: `--cipher` on `init --encrypt` and `key
/// rotate`, stores of either cipher and of both, `key list` and `stats` naming it, and
/// damage under AES-256-GCM.
@Suite("Encryption ciphers")
struct EncryptionCipherCLITests {
    /// A store of `cipher` (`nil`: the default) in a fixture (passphrase `p1`, key file
    /// `k1`), opened with `k1` from here on (added as a second slot).
    static func fixture(_ cipher: String?) throws -> KeySlotsCLITests.Fixture {
        let f = try KeySlotsCLITests.Fixture(creatingStore: false)
        let made = try f.run(["--passphrase-file", f.file("p1"), "init", "--encrypt"] + (cipher.map { ["--cipher", $0] } ?? []), tool: HealthLogBinary.faultTool)
        try #require(made.status == 0, "\(made.stderr)")
        try #require(try f.run(["--passphrase-file", f.file("p1"), "key", "add", "--new-key-file", f.file("k1")], tool: HealthLogBinary.faultTool).status == 0)
        return f
    }

    /// The key file's option.
    static func key(_ f: KeySlotsCLITests.Fixture) -> [String] { ["--key-file", f.file("k1")] }

    /// Appends events `range`; fails the test unless it exits 0.
    static func append(_ f: KeySlotsCLITests.Fixture, _ range: ClosedRange<Int>) throws {
        let appended = try f.run(key(f) + ["append"], stdin: Events.lines(range))
        try #require(appended.status == 0, "\(appended.stderr)")
    }

    /// The UUIDs `replay --raw` returns, in order.
    static func replayed(_ f: KeySlotsCLITests.Fixture) throws -> [String] {
        let replay = try f.run(key(f) + ["replay", "--raw"])
        try #require(replay.status == 0, "\(replay.stderr)")
        return replay.stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["uuid"] as? String
        }
    }

    @Test("A store of either cipher opens and replays what was appended; key list and stats name its cipher", arguments: ["xchacha20-poly1305", "aes-256-gcm"])
    func eitherCipher(_ cipher: String) throws {
        let f = try Self.fixture(cipher)
        defer { f.dir.remove() }
        try Self.append(f, 1...90)
        #expect(try Self.replayed(f) == (1...90).map(Events.uuid))
        #expect(try f.list().contains("ciphers: epoch 0 \(cipher)\n"))
        let stats = try f.run(Self.key(f) + ["stats"])
        #expect(stats.status == 0 && stats.stdout.contains("encryption         \(cipher) (key epoch 0)\n"), "\(stats.stdout)")
        let verify = try f.run(Self.key(f) + ["verify"])
        #expect(verify.status == 0, "\(verify.stderr)")
    }

    @Test("A new store's slot file is version 4 (its entry wrapped, naming its cipher) whichever the cipher")
    func slotVersion() throws {
        for cipher in ["xchacha20-poly1305", "aes-256-gcm"] {
            let f = try Self.fixture(cipher)
            defer { f.dir.remove() }
            #expect(try ByteSurgery.read(f.store + "/keys/0001.slot")[4] == 4, "\(cipher)")
        }
    }

    @Test("A store with an XChaCha20-Poly1305 epoch and an AES-256-GCM one replays both, and after compact --rekey only the new epoch is left")
    func rotateAcrossCiphers() throws {
        let f = try Self.fixture("xchacha20-poly1305")
        defer { f.dir.remove() }
        try Self.append(f, 1...60)
        let rotated = try f.run(Self.key(f) + ["key", "rotate", "--cipher", "aes-256-gcm"])
        try #require(rotated.status == 0 && rotated.stdout == "1\n", "\(rotated.stderr)")
        try Self.append(f, 61...120)
        #expect(try Self.replayed(f) == (1...120).map(Events.uuid))
        #expect(try f.list().contains("ciphers: epoch 0 xchacha20-poly1305, epoch 1 aes-256-gcm\n"))
        let compacted = try f.run(Self.key(f) + ["compact", "--rekey"])
        try #require(compacted.status == 0, "\(compacted.stderr)")
        #expect(try Self.replayed(f) == (1...120).map(Events.uuid))
        let listed = try f.list()
        #expect(listed.contains("ciphers: epoch 1 aes-256-gcm\n") && listed.contains("segments sealed under: epoch 1 "), "\(listed)")
        #expect(try f.run(Self.key(f) + ["verify"]).status == 0)
    }

    @Test("Under AES-256-GCM a flipped ciphertext bit and a moved frame are damage: exit 1 naming the segment and the byte")
    func damageUnderAESGCM() throws {
        for damage in ["flip", "move"] {
            let f = try Self.fixture("aes-256-gcm")
            defer { f.dir.remove() }
            try Self.append(f, 1...90)
            let segments = f.store + "/segments"
            let name = try #require(try FileManager.default.contentsOfDirectory(atPath: segments).first { $0.hasSuffix(".log.lz4") })
            let segment = segments + "/" + name
            let size = try ByteSurgery.size(segment)
            if damage == "flip" {
                // Inside the last group's frame, short of its tag and the batch's checksums.
                try ByteSurgery.flip(segment, at: size - 40, mask: 0x10)
            } else {
                // Two 8-byte stretches of the frames swapped: the units' bytes moved.
                var bytes = try ByteSurgery.read(segment)
                let a = size - 120, b = size - 60
                let first = Array(bytes[a..<a + 8])
                bytes.replaceSubrange(a..<a + 8, with: bytes[b..<b + 8])
                bytes.replaceSubrange(b..<b + 8, with: first)
                try ByteSurgery.write(bytes, to: segment)
            }
            for command in [["replay", "--raw"], ["verify"]] {
                let result = try f.run(Self.key(f) + command)
                #expect(result.status == 1, "\(damage) \(command): \(result.status) \(result.stderr)")
                let report = result.stdout + result.stderr
                #expect(report.contains(name) && report.contains(" at byte "), "\(damage) \(command): \(report)")
            }
        }
    }

    @Test("--cipher is refused with an unknown name and outside init --encrypt, key rotate and restore --encrypt")
    func cipherUsage() throws {
        let f = try KeySlotsCLITests.Fixture(creatingStore: false)
        defer { f.dir.remove() }
        let unknown = try f.run(["--passphrase-file", f.file("p1"), "init", "--encrypt", "--cipher", "rot13"])
        #expect(unknown.status == 2 && unknown.stderr.contains("xchacha20-poly1305 or aes-256-gcm"), "\(unknown.stderr)")
        let plain = try f.run(["init", "--cipher", "aes-256-gcm"])
        #expect(plain.status == 2, "\(plain.stderr)")
        #expect(!FileManager.default.fileExists(atPath: f.store))
    }
}

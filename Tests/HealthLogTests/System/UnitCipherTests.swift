import Testing

@testable import HealthLog

/// The two AEADs a key epoch may seal with: each opens only what it sealed, under the same
/// key and associated data, with every byte as it was; and a unit of one never opens as the
/// other.
@Suite("Unit ciphers")
struct UnitCipherTests {
    static let plaintext = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    static let associated: [UInt8] = Array("a unit's place".utf8)

    static func seal(_ cipher: UnitCipher, _ key: SecretBytes, _ plaintext: [UInt8] = plaintext) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: plaintext.count + UnitCipher.overhead)
        plaintext.withUnsafeBytes { p in associated.withUnsafeBytes { a in out.withUnsafeMutableBytes { cipher.seal(p, associated: a, key: key, into: $0) } } }
        return out
    }

    static func open(_ cipher: UnitCipher, _ key: SecretBytes, _ sealed: [UInt8], associated: [UInt8] = associated) -> [UInt8]? {
        guard sealed.count >= UnitCipher.overhead else { return nil }
        var out = [UInt8](repeating: 0, count: sealed.count - UnitCipher.overhead)
        let opened = sealed.withUnsafeBytes { s in associated.withUnsafeBytes { a in out.withUnsafeMutableBytes { cipher.open(s, associated: a, key: key, into: $0) } } }
        return opened ? out : nil
    }

    @Test("Each cipher opens what it sealed, and two seals of the same bytes differ (random nonces)", arguments: UnitCipher.allCases)
    func roundTrip(_ cipher: UnitCipher) throws {
        let key = try SecretBytes.random(count: 32)
        let sealed = Self.seal(cipher, key)
        #expect(Self.open(cipher, key, sealed) == Self.plaintext)
        #expect(Self.seal(cipher, key) != sealed)
        #expect(Self.open(cipher, key, Self.seal(cipher, key, [])) == [])
    }

    @Test("A flipped bit anywhere, another key, other associated data or the other cipher: the unit does not open", arguments: UnitCipher.allCases)
    func refuses(_ cipher: UnitCipher) throws {
        let key = try SecretBytes.random(count: 32)
        let sealed = Self.seal(cipher, key)
        for offset in [0, 11, 12, 23, 24, 500, sealed.count - 17, sealed.count - 1] {
            var flipped = sealed
            flipped[offset] ^= 0x20
            #expect(Self.open(cipher, key, flipped) == nil, "bit flipped at \(offset)")
        }
        #expect(Self.open(cipher, try SecretBytes.random(count: 32), sealed) == nil)
        #expect(Self.open(cipher, key, sealed, associated: Array("another place".utf8)) == nil)
        #expect(Self.open(cipher, key, Array(sealed.dropLast())) == nil)
        let other: UnitCipher = cipher == .aes256GCM ? .xchacha20Poly1305 : .aes256GCM
        #expect(Self.open(other, key, sealed) == nil)
    }

    @Test("AES-256-GCM seals each unit under a key of its own: the GCM nonce alone, with the data key, does not open it")
    func unitKey() throws {
        let key = try SecretBytes.random(count: 32)
        var sealed = Self.seal(.aes256GCM, key)
        #expect(Self.open(.aes256GCM, key, sealed) != nil)
        sealed.replaceSubrange(0..<AES256GCM.saltLength, with: repeatElement(0, count: AES256GCM.saltLength))
        #expect(Self.open(.aes256GCM, key, sealed) == nil, "another salt, another unit key")
    }

    @Test("Units of either cipher share one layout: the same overhead, so sizes never depend on an epoch's cipher")
    func layout() {
        #expect(AES256GCM.overhead == UnitCipher.overhead && XChaCha20Poly1305.overhead == UnitCipher.overhead)
        #expect(StoreCipher.overhead == 44)
        #expect(UnitCipher(name: "aes-256-gcm") == .aes256GCM && UnitCipher(name: "xchacha20-poly1305") == .xchacha20Poly1305 && UnitCipher(name: "aes") == nil)
    }
}

/// AES-256-GCM's two implementations are the same cipher: what libsodium seals (on a CPU
/// with AES-NI) OpenSSL's software-capable path opens, and the other way round, so a store
/// written on one machine reads on any.
@Suite("AES-256-GCM implementations")
struct AES256GCMImplementationTests {
    @Test("libsodium's and OpenSSL's AES-256-GCM open each other's units, and refuse a flipped one")
    func crossOpen() throws {
        guard AES256GCM.isFast else { return }
        let key = try SecretBytes.random(count: 32)
        let plaintext = UnitCipherTests.plaintext, associated = UnitCipherTests.associated
        for sealer in [false, true] {
            var sealed = [UInt8](repeating: 0, count: plaintext.count + AES256GCM.overhead)
            plaintext.withUnsafeBytes { p in
                associated.withUnsafeBytes { a in sealed.withUnsafeMutableBytes { AES256GCM.seal(p, associated: a, key: key, into: $0, openSSL: sealer) } }
            }
            for opener in [false, true] {
                var out = [UInt8](repeating: 0, count: plaintext.count)
                let opened = sealed.withUnsafeBytes { s in
                    associated.withUnsafeBytes { a in out.withUnsafeMutableBytes { AES256GCM.open(s, associated: a, key: key, into: $0, openSSL: opener) } }
                }
                #expect(opened && out == plaintext, "sealed by \(sealer ? "OpenSSL" : "libsodium"), opened by \(opener ? "OpenSSL" : "libsodium")")
                var flipped = sealed
                flipped[100] ^= 1
                let refused = flipped.withUnsafeBytes { s in
                    associated.withUnsafeBytes { a in out.withUnsafeMutableBytes { AES256GCM.open(s, associated: a, key: key, into: $0, openSSL: opener) } }
                }
                #expect(!refused)
            }
        }
    }

    @Test("A key prepared once derives the same unit keys: units sealed with it open without it, and the other way round, in both implementations")
    func preparedKey() throws {
        let key = try SecretBytes.random(count: 32)
        let prepared = try #require(AES256GCM.prepare(key))
        let other = try #require(AES256GCM.prepare(try SecretBytes.random(count: 32)))
        let plaintext = UnitCipherTests.plaintext, associated = UnitCipherTests.associated
        let paths = AES256GCM.isFast ? [false, true] : [true]
        for openSSL in paths {
            for (sealWith, openWith) in [(prepared, nil), (nil, prepared)] as [(SecretBytes?, SecretBytes?)] {
                var sealed = [UInt8](repeating: 0, count: plaintext.count + AES256GCM.overhead)
                plaintext.withUnsafeBytes { p in
                    associated.withUnsafeBytes { a in sealed.withUnsafeMutableBytes { AES256GCM.seal(p, associated: a, key: key, prepared: sealWith, into: $0, openSSL: openSSL) } }
                }
                var out = [UInt8](repeating: 0, count: plaintext.count)
                let opened = sealed.withUnsafeBytes { s in
                    associated.withUnsafeBytes { a in out.withUnsafeMutableBytes { AES256GCM.open(s, associated: a, key: key, prepared: openWith, into: $0, openSSL: openSSL) } }
                }
                #expect(opened && out == plaintext, "OpenSSL: \(openSSL), prepared for \(sealWith == nil ? "opening" : "sealing")")
                // Another key's preparation derives other unit keys: the unit does not open.
                let refused = sealed.withUnsafeBytes { s in
                    associated.withUnsafeBytes { a in out.withUnsafeMutableBytes { AES256GCM.open(s, associated: a, key: key, prepared: other, into: $0, openSSL: openSSL) } }
                }
                #expect(!refused)
            }
        }
    }
}

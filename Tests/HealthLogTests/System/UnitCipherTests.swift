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
/// with AES-NI) OpenSSL's opens, and the other way round, so a store written on one machine
/// reads on any, and a process that switches to OpenSSL midway (``AES256GCM/BulkSwitch``)
/// opens what it sealed before.
@Suite("AES-256-GCM implementations")
struct AES256GCMImplementationTests {
    static func seal(_ plaintext: [UInt8], _ key: SecretBytes, by implementation: AES256GCM.Implementation) -> [UInt8] {
        var sealed = [UInt8](repeating: 0, count: plaintext.count + AES256GCM.overhead)
        plaintext.withUnsafeBytes { p in
            UnitCipherTests.associated.withUnsafeBytes { a in
                sealed.withUnsafeMutableBytes { AES256GCM.seal(p, associated: a, key: key, into: $0, implementation: implementation) }
            }
        }
        return sealed
    }

    static func open(_ sealed: [UInt8], _ key: SecretBytes, by implementation: AES256GCM.Implementation) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: sealed.count - AES256GCM.overhead)
        let opened = sealed.withUnsafeBytes { s in
            UnitCipherTests.associated.withUnsafeBytes { a in out.withUnsafeMutableBytes { AES256GCM.open(s, associated: a, key: key, into: $0, implementation: implementation) } }
        }
        return opened ? out : nil
    }

    @Test(
        "libsodium's and OpenSSL's AES-256-GCM open each other's units, small and bulk-sized, and refuse a flipped one",
        arguments: [1000, 40_000])
    func crossOpen(_ length: Int) throws {
        guard AES256GCM.isFast else { return }
        let key = try SecretBytes.random(count: 32)
        let plaintext = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        for sealer in [AES256GCM.Implementation.libsodium, .openSSL] {
            let sealed = Self.seal(plaintext, key, by: sealer)
            for opener in [AES256GCM.Implementation.libsodium, .openSSL] {
                #expect(Self.open(sealed, key, by: opener) == plaintext, "sealed by \(sealer), opened by \(opener)")
                for offset in [5, 30, length / 2, sealed.count - 1] {
                    var flipped = sealed
                    flipped[offset] ^= 1
                    #expect(Self.open(flipped, key, by: opener) == nil, "sealed by \(sealer), opened by \(opener), flipped at \(offset)")
                }
            }
        }
    }

    @Test("A unit that does not open leaves no byte of its unchecked plaintext in the output, in either implementation")
    func failedOpenZeroes() throws {
        let key = try SecretBytes.random(count: 32)
        let implementations: [AES256GCM.Implementation] = AES256GCM.isFast ? [.libsodium, .openSSL] : [.openSSL]
        for opener in implementations {
            var flipped = Self.seal(UnitCipherTests.plaintext, key, by: .openSSL)
            flipped[flipped.count - 1] ^= 1
            var out = [UInt8](repeating: 0xA5, count: flipped.count - AES256GCM.overhead)
            let opened = flipped.withUnsafeBytes { s in
                UnitCipherTests.associated.withUnsafeBytes { a in out.withUnsafeMutableBytes { AES256GCM.open(s, associated: a, key: key, into: $0, implementation: opener) } }
            }
            #expect(!opened)
            #expect(out.allSatisfy { $0 == 0 }, "opened by \(opener)")
        }
    }

    @Test("A key's kept unit keys are the derived ones: units sealed with them (under a shared salt) open without them, and the other way round, in both implementations")
    func preparedKey() throws {
        let key = try SecretBytes.random(count: 32)
        let prepared = AES256GCM.UnitKeys(key)
        let other = AES256GCM.UnitKeys(try SecretBytes.random(count: 32))
        let plaintext = UnitCipherTests.plaintext, associated = UnitCipherTests.associated
        let paths = AES256GCM.isFast ? [false, true] : [true]
        for openSSL in paths {
            for (sealWith, openWith) in [(prepared, nil), (nil, prepared)] as [(AES256GCM.UnitKeys?, AES256GCM.UnitKeys?)] {
                var sealed = [UInt8](repeating: 0, count: plaintext.count + AES256GCM.overhead)
                plaintext.withUnsafeBytes { p in
                    associated.withUnsafeBytes { a in sealed.withUnsafeMutableBytes { AES256GCM.seal(p, associated: a, key: key, keys: sealWith, scope: .derivedFiles, into: $0, implementation: openSSL ? .openSSL : .libsodium) } }
                }
                var out = [UInt8](repeating: 0, count: plaintext.count)
                let opened = sealed.withUnsafeBytes { s in
                    associated.withUnsafeBytes { a in out.withUnsafeMutableBytes { AES256GCM.open(s, associated: a, key: key, keys: openWith, into: $0, implementation: openSSL ? .openSSL : .libsodium) } }
                }
                #expect(opened && out == plaintext, "OpenSSL: \(openSSL), prepared for \(sealWith == nil ? "opening" : "sealing")")
                // Another key's preparation derives other unit keys: the unit does not open.
                let refused = sealed.withUnsafeBytes { s in
                    associated.withUnsafeBytes { a in out.withUnsafeMutableBytes { AES256GCM.open(s, associated: a, key: key, keys: other, into: $0, implementation: openSSL ? .openSSL : .libsodium) } }
                }
                #expect(!refused)
            }
        }
    }

    @Test("OpenSSL's contexts kept per salt follow their salt: units of more salts than are kept, opened in turn, each open; a unit that fails leaves its context fit for the next")
    func keptContexts() throws {
        let key = try SecretBytes.random(count: 32)
        let keys = AES256GCM.UnitKeys(key)
        let associated = UnitCipherTests.associated
        // Six salts (more than the four kept), each sealed alone so each has a salt of its own.
        let units = (0..<6).map { n in (0..<(2000 + n * 300)).map { UInt8(truncatingIfNeeded: $0 &* (n + 3)) } }
        let sealed = units.map { Self.seal($0, key, by: .openSSL) }
        func open(_ unit: [UInt8]) -> [UInt8]? {
            var out = [UInt8](repeating: 0, count: unit.count - AES256GCM.overhead)
            let opened = unit.withUnsafeBytes { s in
                associated.withUnsafeBytes { a in out.withUnsafeMutableBytes { AES256GCM.open(s, associated: a, key: key, keys: keys, into: $0, implementation: .openSSL) } }
            }
            return opened ? out : nil
        }
        for round in 0..<3 {
            for (n, unit) in sealed.enumerated() {
                #expect(open(unit) == units[n], "round \(round), unit \(n)")
                var damaged = unit
                damaged[AES256GCM.overhead + n] ^= 1
                #expect(open(damaged) == nil)
                #expect(open(unit) == units[n], "after a unit of the same salt failed")
            }
        }
    }

    @Test("The switch takes OpenSSL once the threshold's bytes went through, for large units only, and never back")
    func switchOver() throws {
        let bulk = AES256GCM.BulkSwitch(threshold: 10_000, isAvailable: { true })
        #expect(bulk.implementation(for: 4000) == .libsodium)
        #expect(bulk.implementation(for: 4000) == .libsodium)
        #expect(!bulk.isSwitched)
        #expect(bulk.implementation(for: 4000) == .openSSL, "12,000 bytes went through")
        #expect(bulk.isSwitched)
        #expect(bulk.implementation(for: AES256GCM.BulkSwitch.unitBytes - 1) == .libsodium, "a table-sized unit")
        #expect(bulk.implementation(for: 4000) == .openSSL)

        let expecting = AES256GCM.BulkSwitch(threshold: 10_000, isAvailable: { true })
        expecting.expect(9_999)
        #expect(!expecting.isSwitched)
        expecting.expect(10_000)
        #expect(expecting.isSwitched && expecting.implementation(for: 4000) == .openSSL, "a reader about to open the threshold's bytes")

        let missing = AES256GCM.BulkSwitch(threshold: 0, isAvailable: { false })
        missing.expect(1 << 30)
        #expect(missing.implementation(for: 1 << 20) == .libsodium, "no OpenSSL cipher to switch to")
        #expect(!missing.isSwitched)
    }

    @Test("Units sealed and opened as a switching process would: each opens, whichever side of the switch sealed it")
    func acrossTheSwitch() throws {
        guard AES256GCM.isFast else { return }
        let bulk = AES256GCM.BulkSwitch(threshold: 20_000, isAvailable: { true })
        let key = try SecretBytes.random(count: 32)
        let units = (0..<8).map { n in (0..<(3000 + n * 700)).map { UInt8(truncatingIfNeeded: $0 &+ n) } }
        var sealedBy: [AES256GCM.Implementation] = []
        let sealed = units.map { plaintext in
            let implementation = bulk.implementation(for: plaintext.count + AES256GCM.overhead)
            sealedBy.append(implementation)
            return Self.seal(plaintext, key, by: implementation)
        }
        #expect(sealedBy.first == .libsodium && sealedBy.last == .openSSL)
        for (plaintext, unit) in zip(units, sealed) {
            #expect(Self.open(unit, key, by: bulk.implementation(for: unit.count)) == plaintext)
            #expect(Self.open(unit, key, by: .libsodium) == plaintext)
        }
    }
}

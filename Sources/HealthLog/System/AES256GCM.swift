internal import CSodium

/// AES-256-GCM, sealing units under keys derived per salt: the unit's 24 random bytes are a
/// 12-byte *subkey salt* and the 12-byte GCM nonce, and the unit's key is BLAKE2b-256
/// (`crypto_generichash`) keyed with the data key over ``subkeyContext`` ‖ the salt. A
/// writer seals the units it writes into one segment (or into derived files) under one salt
/// of its own, at most ``UnitKeys/unitsPerSalt`` units and ``UnitKeys/bytesPerSalt`` bytes,
/// each under a fresh random nonce: GCM's limit of 2^32 random nonces per key never comes
/// near. A reader keeps the unit keys of the last salts it met (``UnitKeys``), so it derives
/// one per salt, not per unit.
///
/// A sealed unit is laid out as `salt ‖ nonce ‖ ciphertext ‖ tag`, as long as an
/// ``XChaCha20Poly1305`` unit (``overhead`` bytes more than its plaintext). Where the CPU
/// has AES-NI and PCLMULQDQ, libsodium's `crypto_aead_aes256gcm` seals and opens a
/// process's first units and its small ones: no set-up at all. A process that goes on to
/// seal or open more (``bulk``) takes OpenSSL's AES-256-GCM (``OpenSSLGCM``) for its larger
/// units, which runs two to three times as fast. Without AES-NI OpenSSL does it all,
/// through its constant-time software path, so any machine reads these units. Both are the
/// same AES-256-GCM, the same bytes, and check the tag.
enum AES256GCM {
    /// The key length in bytes.
    static let keyLength = 32
    /// The subkey salt's length in bytes.
    static let saltLength = 12
    /// The GCM nonce's length in bytes.
    static let nonceLength = 12
    /// The authentication tag's length in bytes.
    static let tagLength = 16
    /// The bytes a sealed unit adds to its plaintext: salt, nonce and tag.
    static let overhead = saltLength + nonceLength + tagLength
    /// What the unit key's hash covers before the salt.
    static let subkeyContext = Array("healthlog aes-256-gcm unit key v1".utf8)

    /// The process's choice between the two implementations (``Implementation``): OpenSSL
    /// once it has sealed or opened 256 KiB. Starting OpenSSL costs a process about 0.1 ms
    /// on an idle virtual machine (its first calls fault in some 27 pages of its code and
    /// data, and its CPU probes trap to the hypervisor; several times that on a loaded
    /// one), and its bulk saves about 0.4 ns a byte over libsodium's, so it pays from about
    /// 250 KB on.
    static let bulk = BulkSwitch(threshold: 256 << 10, isAvailable: { OpenSSLGCM.functions != nil })

    /// Whether this CPU has AES and carry-less multiply instructions (x86-64 AES-NI and
    /// PCLMULQDQ), so libsodium's AES-256-GCM runs here and outruns XChaCha20-Poly1305.
    static let isFast: Bool = {
        _ = sodium_init()
        return crypto_aead_aes256gcm_is_available() == 1
    }()

    /// Seals `plaintext` under `key`, bound to `associated` (authenticated, not stored),
    /// into `out` (exactly `plaintext.count + overhead` bytes); with `implementation`, by
    /// default the one ``implementation(for:)`` chooses. `keys`, when given, are
    /// ``UnitKeys`` of `key`: the unit key is taken from them, and with `scope` the salt is
    /// the one they keep for it (``UnitKeys/drawSalt(for:sealing:into:)``); the nonce is
    /// always drawn afresh.
    static func seal(
        _ plaintext: UnsafeRawBufferPointer, associated: UnsafeRawBufferPointer, key: SecretBytes, keys: UnitKeys? = nil, scope: SaltScope? = nil,
        into out: UnsafeMutableRawBufferPointer, implementation: Implementation? = nil
    ) {
        precondition(out.count == plaintext.count + overhead && key.count == keyLength, "a sealed unit's room")
        let prefix = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
        if let keys, let scope {
            keys.drawSalt(for: scope, sealing: plaintext.count, into: out.baseAddress!)
            randombytes_buf(prefix + saltLength, nonceLength)
        } else {
            randombytes_buf(prefix, saltLength + nonceLength)
        }
        let libsodium = (implementation ?? Self.implementation(for: out.count)) == .libsodium
        let sealed = withUnitKey(key, keys: keys, salt: UnsafeRawBufferPointer(rebasing: out[..<saltLength]), openSSL: libsodium ? nil : true) { unitKey, state, pool -> Bool in
            if libsodium {
                let m = plaintext.baseAddress?.assumingMemoryBound(to: UInt8.self)
                let ad = associated.baseAddress?.assumingMemoryBound(to: UInt8.self)
                let c = prefix + saltLength + nonceLength
                let nonce = prefix + saltLength
                if let state {
                    _ = crypto_aead_aes256gcm_encrypt_afternm(c, nil, m, UInt64(plaintext.count), ad, UInt64(associated.count), nil, nonce, state)
                } else {
                    _ = crypto_aead_aes256gcm_encrypt(c, nil, m, UInt64(plaintext.count), ad, UInt64(associated.count), nil, nonce, unitKey)
                }
                return true
            }
            return run(encrypt: true, nonce: UnsafeRawPointer(prefix + saltLength), unitKey: unitKey, pool: pool, associated: associated) { context in
                context.seal(plaintext, into: out.baseAddress! + saltLength + nonceLength, tag: out.baseAddress! + out.count - tagLength)
            }
        }
        precondition(sealed, "OpenSSL's AES-256-GCM seals")
    }

    /// Opens `sealed` (``seal(_:associated:key:keys:scope:into:implementation:)``'s output)
    /// into `out` (exactly `sealed.count - overhead` bytes); `false` when the tag does not verify: another key,
    /// other associated data, or any changed byte; `out` is then zeroed. With
    /// `implementation` and `keys`, as ``seal(_:associated:key:keys:scope:into:implementation:)``.
    static func open(
        _ sealed: UnsafeRawBufferPointer, associated: UnsafeRawBufferPointer, key: SecretBytes, keys: UnitKeys? = nil, into out: UnsafeMutableRawBufferPointer,
        implementation: Implementation? = nil
    ) -> Bool {
        guard sealed.count >= overhead, out.count == sealed.count - overhead, key.count == keyLength, sealed.count - overhead < Int(Int32.max) else { return false }
        let libsodium = (implementation ?? Self.implementation(for: sealed.count)) == .libsodium
        let prefix = sealed.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let opened = withUnitKey(key, keys: keys, salt: UnsafeRawBufferPointer(rebasing: sealed[..<saltLength]), openSSL: libsodium ? nil : false) { unitKey, state, pool -> Bool in
            if libsodium {
                let m = out.baseAddress?.assumingMemoryBound(to: UInt8.self)
                let ad = associated.baseAddress?.assumingMemoryBound(to: UInt8.self)
                let c = prefix + saltLength + nonceLength
                let clen = UInt64(sealed.count - saltLength - nonceLength)
                let nonce = prefix + saltLength
                if let state { return crypto_aead_aes256gcm_decrypt_afternm(m, nil, nil, c, clen, ad, UInt64(associated.count), nonce, state) == 0 }
                return crypto_aead_aes256gcm_decrypt(m, nil, nil, c, clen, ad, UInt64(associated.count), nonce, unitKey) == 0
            }
            let body = UnsafeRawBufferPointer(rebasing: sealed[saltLength + nonceLength..<sealed.count - tagLength])
            return run(encrypt: false, nonce: UnsafeRawPointer(prefix + saltLength), unitKey: unitKey, pool: pool, associated: associated) { context in
                context.open(body, tag: sealed.baseAddress! + sealed.count - tagLength, into: out)
            }
        }
        if !opened, let base = out.baseAddress { sodium_memzero(base, out.count) }
        return opened
    }

    /// The implementation for a unit of `count` bytes: OpenSSL where libsodium's cannot
    /// run, else as ``bulk`` chooses.
    static func implementation(for count: Int) -> Implementation {
        isFast ? bulk.implementation(for: count) : .openSSL
    }

    /// Runs `body` on an OpenSSL context keyed with `unitKey` (from `pool` when given),
    /// started with the ``nonceLength``-byte `nonce` (sealing when `encrypt`, else opening)
    /// and fed `associated`; `false` when OpenSSL cannot.
    private static func run(
        encrypt: Bool, nonce: UnsafeRawPointer, unitKey: UnsafePointer<UInt8>, pool: KeyedContexts?, associated: UnsafeRawBufferPointer,
        _ body: (OpenSSLGCM.Context) -> Bool
    ) -> Bool {
        if let pool { return pool.run(nonce: nonce, associated: associated, body) }
        guard let context = OpenSSLGCM.Context(key: unitKey, encrypt: encrypt), context.start(nonce: nonce, associated: associated) else { return false }
        return body(context)
    }

    /// Runs `body` with the unit key for `salt` (its first ``saltLength`` bytes) and, when
    /// `keys` keep it, libsodium's expanded key and (asked for with `openSSL`, as
    /// ``UnitKeys/withUnitKey(salt:openSSL:_:)`` takes it) OpenSSL's keyed contexts; from
    /// `keys` when given (``UnitKeys``), else derived from `key` alone and wiped after.
    private static func withUnitKey<R>(
        _ key: SecretBytes, keys: UnitKeys?, salt: UnsafeRawBufferPointer, openSSL: Bool?,
        _ body: (UnsafePointer<UInt8>, UnsafePointer<crypto_aead_aes256gcm_state>?, KeyedContexts?) -> R
    ) -> R {
        if let keys { return keys.withUnitKey(salt: salt, openSSL: openSSL, body) }
        return withUnitKey(key, prepared: nil, salt: salt) { body($0, nil, nil) }
    }

    /// `key` made ready for deriving unit keys: BLAKE2b-256's state keyed with it and fed
    /// ``subkeyContext``, in guarded memory. A unit key continues from a copy of it with the
    /// salt alone: the same key as hashing the whole message, one compression instead of two
    /// (this runs for every unit). `nil` when guarded memory is not to be had.
    static func prepare(_ key: SecretBytes) -> SecretBytes? {
        let length = crypto_generichash_statebytes()
        return try? SecretBytes(count: length) { out in
            withUnsafeTemporaryAllocation(byteCount: length, alignment: stateAlignment) { state in
                defer { sodium_memzero(state.baseAddress, state.count) }
                let hash = OpaquePointer(state.baseAddress!)
                key.withUnsafeBytes { key in
                    _ = crypto_generichash_init(hash, key.baseAddress!.assumingMemoryBound(to: UInt8.self), key.count, keyLength)
                }
                _ = crypto_generichash_update(hash, subkeyContext, UInt64(subkeyContext.count))
                out.copyMemory(from: UnsafeRawBufferPointer(state))
            }
        }
    }

    /// The alignment libsodium declares for a hash state.
    private static let stateAlignment = 64

    /// Runs `body` with the unit key for `salt` (its first ``saltLength`` bytes): BLAKE2b-256
    /// keyed with `key` over ``subkeyContext`` ‖ the salt, wiped after; continued from
    /// `prepared` (``prepare(_:)`` of `key`) when given.
    static func withUnitKey<R>(_ key: SecretBytes, prepared: SecretBytes?, salt: UnsafeRawBufferPointer, _ body: (UnsafePointer<UInt8>) -> R) -> R {
        var unitKey = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        return withUnsafeMutableBytes(of: &unitKey) { unitKey in
            defer { sodium_memzero(unitKey.baseAddress, unitKey.count) }
            let unitKeyBytes = unitKey.baseAddress!.assumingMemoryBound(to: UInt8.self)
            if let prepared {
                prepared.withUnsafeBytes { prepared in
                    // Aligned by hand within a stack buffer: a temporary allocation aligned
                    // to more than 16 bytes goes to the heap.
                    withUnsafeTemporaryAllocation(byteCount: prepared.count + stateAlignment, alignment: 16) { room in
                        let start = room.baseAddress!.alignedUp(toMultipleOf: stateAlignment)
                        let state = UnsafeMutableRawBufferPointer(start: start, count: prepared.count)
                        defer { sodium_memzero(state.baseAddress, state.count) }
                        state.copyMemory(from: prepared)
                        let hash = OpaquePointer(state.baseAddress!)
                        _ = crypto_generichash_update(hash, salt.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(saltLength))
                        _ = crypto_generichash_final(hash, unitKeyBytes, unitKey.count)
                    }
                }
                return body(UnsafePointer(unitKeyBytes))
            }
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: subkeyContext.count + saltLength) { message in
                _ = UnsafeMutableBufferPointer(rebasing: message[..<subkeyContext.count]).initialize(fromContentsOf: subkeyContext)
                _ = UnsafeMutableBufferPointer(rebasing: message[subkeyContext.count...]).initialize(fromContentsOf: salt[..<saltLength])
                key.withUnsafeBytes { key in
                    _ = crypto_generichash(
                        unitKeyBytes, unitKey.count, message.baseAddress, UInt64(message.count), key.baseAddress!.assumingMemoryBound(to: UInt8.self), key.count)
                }
            }
            return body(UnsafePointer(unitKeyBytes))
        }
    }
}

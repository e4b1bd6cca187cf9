internal import CSodium

/// libsodium's sealed boxes (`crypto_box_seal`: X25519 with an ephemeral key, then
/// XSalsa20-Poly1305): anyone holding a key pair's public key can seal bytes that only its
/// secret key opens. A key slot holds one key pair, so a new data key can be sealed to
/// every slot without any slot's passphrase.
enum SealedBox {
    /// The public key's length in bytes.
    static let publicKeyLength = Int(crypto_box_PUBLICKEYBYTES)
    /// The secret key's length in bytes.
    static let secretKeyLength = Int(crypto_box_SECRETKEYBYTES)
    /// The bytes a sealed box adds to its plaintext.
    static let overhead = Int(crypto_box_sealbytes())

    /// A new key pair (`crypto_box_keypair`); the secret key in guarded memory.
    static func keyPair() throws -> (publicKey: [UInt8], secretKey: SecretBytes) {
        var publicKey = [UInt8](repeating: 0, count: publicKeyLength)
        let secretKey = try SecretBytes(count: secretKeyLength) { out in
            _ = crypto_box_keypair(&publicKey, out.baseAddress!.assumingMemoryBound(to: UInt8.self))
        }
        return (publicKey, secretKey)
    }

    /// `plaintext` sealed to `publicKey`: `plaintext.count + overhead` bytes.
    static func seal(_ plaintext: UnsafeRawBufferPointer, to publicKey: [UInt8]) -> [UInt8] {
        precondition(publicKey.count == publicKeyLength, "an X25519 public key")
        var out = [UInt8](repeating: 0, count: plaintext.count + overhead)
        _ = crypto_box_seal(&out, plaintext.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(plaintext.count), publicKey)
        return out
    }

    /// The plaintext of `sealed` in guarded memory; `nil` when it does not open with this
    /// key pair (sealed to another key, or changed).
    static func open(_ sealed: ArraySlice<UInt8>, publicKey: [UInt8], secretKey: SecretBytes) throws -> SecretBytes? {
        guard sealed.count > overhead, publicKey.count == publicKeyLength, secretKey.count == secretKeyLength else { return nil }
        struct DoesNotOpen: Error {}
        do {
            return try SecretBytes(count: sealed.count - overhead) { out in
                let status = sealed.withUnsafeBytes { sealed in
                    secretKey.withUnsafeBytes { secretKey in
                        crypto_box_seal_open(
                            out.baseAddress!.assumingMemoryBound(to: UInt8.self), sealed.baseAddress!.assumingMemoryBound(to: UInt8.self),
                            UInt64(sealed.count), publicKey, secretKey.baseAddress!.assumingMemoryBound(to: UInt8.self))
                    }
                }
                guard status == 0 else { throw DoesNotOpen() }
            }
        } catch is DoesNotOpen {
            return nil
        }
    }
}

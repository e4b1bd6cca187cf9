internal import CSodium

/// XChaCha20-Poly1305 (libsodium's `crypto_aead_xchacha20poly1305_ietf`): the AEAD that
/// seals every unit of an encrypted store. Its 192-bit nonce is drawn at random for each
/// seal, so no two seals under one key share a nonce, even when a torn tail is rewritten at
/// the same place with other bytes.
///
/// A sealed unit is laid out as `nonce ‖ ciphertext ‖ tag`: ``overhead`` bytes more than
/// its plaintext.
enum XChaCha20Poly1305 {
    /// The key length in bytes.
    static let keyLength = Int(crypto_aead_xchacha20poly1305_ietf_KEYBYTES)
    /// The nonce length in bytes.
    static let nonceLength = Int(crypto_aead_xchacha20poly1305_ietf_NPUBBYTES)
    /// The authentication tag's length in bytes.
    static let tagLength = Int(crypto_aead_xchacha20poly1305_ietf_ABYTES)
    /// The bytes a sealed unit adds to its plaintext: nonce and tag.
    static let overhead = nonceLength + tagLength

    /// Seals `plaintext` under `key`, bound to `associated` (authenticated, not stored),
    /// into `out` (exactly `plaintext.count + overhead` bytes).
    static func seal(_ plaintext: UnsafeRawBufferPointer, associated: UnsafeRawBufferPointer, key: SecretBytes, into out: UnsafeMutableRawBufferPointer) {
        precondition(out.count == plaintext.count + overhead && key.count == keyLength, "a sealed unit's room")
        let nonce = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
        randombytes_buf(nonce, nonceLength)
        key.withUnsafeBytes { key in
            _ = crypto_aead_xchacha20poly1305_ietf_encrypt(
                nonce + nonceLength, nil, plaintext.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(plaintext.count),
                associated.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(associated.count), nil, nonce,
                key.baseAddress!.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// Opens `sealed` (``seal(_:associated:key:into:)``'s output) into `out` (exactly
    /// `sealed.count - overhead` bytes); `false` when the tag does not verify: another key,
    /// other associated data, or any changed byte. `out` then holds nothing of use.
    static func open(_ sealed: UnsafeRawBufferPointer, associated: UnsafeRawBufferPointer, key: SecretBytes, into out: UnsafeMutableRawBufferPointer) -> Bool {
        guard sealed.count >= overhead, out.count == sealed.count - overhead, key.count == keyLength else { return false }
        let nonce = sealed.baseAddress!.assumingMemoryBound(to: UInt8.self)
        return key.withUnsafeBytes { key in
            crypto_aead_xchacha20poly1305_ietf_decrypt(
                out.baseAddress?.assumingMemoryBound(to: UInt8.self), nil, nil, nonce + nonceLength, UInt64(sealed.count - nonceLength),
                associated.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(associated.count), nonce,
                key.baseAddress!.assumingMemoryBound(to: UInt8.self)) == 0
        }
    }
}

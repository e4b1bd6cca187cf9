internal import CSodium

/// BLAKE2b (libsodium's `crypto_generichash`), keyed: how a key file's bytes become the key
/// that wraps its key slot. A key file is random already, so it needs no costly derivation.
enum BLAKE2b {
    /// The 32-byte keyed hash of `message` under `key` (16 to 64 bytes), in guarded memory.
    static func keyedHash(_ message: SecretBytes, key: [UInt8]) throws -> SecretBytes {
        precondition(key.count >= Int(crypto_generichash_KEYBYTES_MIN) && key.count <= Int(crypto_generichash_KEYBYTES_MAX), "a BLAKE2b key")
        return try SecretBytes(count: 32) { out in
            _ = message.withUnsafeBytes { message in
                crypto_generichash(
                    out.baseAddress!.assumingMemoryBound(to: UInt8.self), out.count, message.baseAddress!.assumingMemoryBound(to: UInt8.self),
                    UInt64(message.count), key, key.count)
            }
        }
    }
}

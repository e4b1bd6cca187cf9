internal import CSodium

/// BLAKE2b (libsodium's `crypto_generichash`), keyed: how a key file's bytes become the key
/// that wraps its key slot (a key file is random already, so it needs no costly
/// derivation), how a slot's secret key gives the key its own data-key entries are wrapped
/// under, and the MAC that authenticates a key slot's data-key entries.
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

    /// A 32-byte key derived from the secret `key` (16 to 64 bytes): its keyed hash of the
    /// public `context`, in guarded memory.
    static func derive(_ context: [UInt8], key: SecretBytes) throws -> SecretBytes {
        precondition(key.count >= Int(crypto_generichash_KEYBYTES_MIN) && key.count <= Int(crypto_generichash_KEYBYTES_MAX), "a BLAKE2b key")
        return try SecretBytes(count: 32) { out in
            _ = key.withUnsafeBytes { key in
                crypto_generichash(
                    out.baseAddress!.assumingMemoryBound(to: UInt8.self), out.count, context, UInt64(context.count),
                    key.baseAddress!.assumingMemoryBound(to: UInt8.self), key.count)
            }
        }
    }

    /// The 32-byte keyed hash of the public `message` under the secret `key` (16 to 64 bytes).
    static func mac(_ message: [UInt8], key: SecretBytes) -> [UInt8] {
        precondition(key.count >= Int(crypto_generichash_KEYBYTES_MIN) && key.count <= Int(crypto_generichash_KEYBYTES_MAX), "a BLAKE2b key")
        var out = [UInt8](repeating: 0, count: 32)
        key.withUnsafeBytes { key in
            _ = crypto_generichash(&out, out.count, message, UInt64(message.count), key.baseAddress!.assumingMemoryBound(to: UInt8.self), key.count)
        }
        return out
    }

    /// Whether `tag` is ``mac(_:key:)`` of `message` under `key`, compared in constant time.
    static func verify(_ tag: [UInt8], _ message: [UInt8], key: SecretBytes) -> Bool {
        let expected = mac(message, key: key)
        return tag.count == 32 && crypto_verify_32(tag, expected) == 0
    }
}

internal import CCrypto

/// SHA-256 (FIPS 180-4) from OpenSSL's libcrypto, for the import's content-derived UUIDs:
/// a well-known hash with no collisions ever found, so distinct records never share a UUID
/// by chance. libcrypto computes it with the CPU's SHA extensions where it has them. Not
/// used for secrecy.
///
/// Through libcrypto's SHA-256 calls (`SHA256_Init`, …), not its EVP interface: an EVP
/// digest allocates and frees its context at every init, once per record here (a third
/// of the hash's time for a record's 200 bytes); these keep the state in place.
final class SHA256 {
    /// The hash state.
    private var context = SHA256_CTX()

    /// A hash of nothing yet.
    init() {
        reset()
    }

    /// Starts over: a hash of nothing, reusing the state (no allocation).
    func reset() {
        _ = SHA256_Init(&context)
    }

    /// Feeds `bytes`.
    func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Feeds `bytes`.
    func update(_ bytes: UnsafeRawBufferPointer) {
        _ = SHA256_Update(&context, bytes.baseAddress, bytes.count)
    }

    /// The digest's first 128 bits, big-endian, as two words; the hash must be ``reset()``
    /// before it is fed again.
    func finalizeFirst128Bits() -> (high: UInt64, low: UInt64) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Int(SHA256_DIGEST_LENGTH)) { out in
            _ = SHA256_Final(out.baseAddress, &context)
            var high: UInt64 = 0
            var low: UInt64 = 0
            for i in 0..<8 {
                high = high << 8 | UInt64(out[i])
                low = low << 8 | UInt64(out[8 + i])
            }
            return (high, low)
        }
    }

    /// The 32-byte digest of everything fed.
    func finalize() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        _ = SHA256_Final(&out, &context)
        return out
    }
}

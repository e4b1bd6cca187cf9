internal import CCrypto

/// SHA-256 (FIPS 180-4) from OpenSSL's libcrypto, for the import's content-derived UUIDs:
/// a well-known hash with no collisions ever found, so distinct records never share a UUID
/// by chance. libcrypto computes it with the CPU's SHA extensions where it has them. Not
/// used for secrecy.
final class SHA256 {
    /// libcrypto's SHA-256 implementation, fetched once; an `EVP_MD` is immutable once
    /// fetched and may be shared between threads (OpenSSL's threading rules).
    nonisolated(unsafe) private static let algorithm: OpaquePointer? = EVP_MD_fetch(nil, "SHA256", nil)

    /// The digest context.
    private let context: OpaquePointer

    /// A hash of nothing yet. A libcrypto that offers no SHA-256 is a broken installation,
    /// like a missing shared library, and stops the process with that message.
    init() {
        guard let algorithm = Self.algorithm, let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, algorithm, nil) == 1 else {
            fatalError("libcrypto offers no SHA-256: the OpenSSL installation is broken")
        }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Starts over: a hash of nothing, reusing the context (no allocation).
    func reset() {
        _ = EVP_DigestInit_ex(context, Self.algorithm, nil)
    }

    /// Feeds `bytes`.
    func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Feeds `bytes`.
    func update(_ bytes: UnsafeRawBufferPointer) {
        _ = EVP_DigestUpdate(context, bytes.baseAddress, bytes.count)
    }

    /// The digest's first 128 bits, big-endian, as two words; the hash must be ``reset()``
    /// before it is fed again.
    func finalizeFirst128Bits() -> (high: UInt64, low: UInt64) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Int(EVP_MAX_MD_SIZE)) { out in
            var length: UInt32 = 0
            _ = EVP_DigestFinal_ex(context, out.baseAddress, &length)
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
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        _ = EVP_DigestFinal_ex(context, &out, &length)
        return Array(out[0..<Int(length)])
    }
}

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

    /// Feeds `bytes`.
    func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { _ = EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
    }

    /// The 32-byte digest of everything fed.
    func finalize() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        _ = EVP_DigestFinal_ex(context, &out, &length)
        return Array(out[0..<Int(length)])
    }
}

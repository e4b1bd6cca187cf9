internal import CCrypto

/// SHA-256 from OpenSSL's libcrypto (through EVP), fed in pieces: the digest backup
/// manifests record for every file, so a restore can prove a copy whole.
final class SHA256Digest {
    /// The EVP context; freed on deinit.
    private let context: OpaquePointer

    /// A digest of nothing yet.
    init() throws {
        guard let context = EVP_MD_CTX_new() else { throw HealthLogError(.io, "libcrypto: cannot allocate a digest context") }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            EVP_MD_CTX_free(context)
            throw HealthLogError(.io, "libcrypto: cannot start a SHA-256 digest")
        }
        self.context = context
    }

    /// Frees the context.
    deinit { EVP_MD_CTX_free(context) }

    /// Adds `bytes` to the digest.
    func update(_ bytes: UnsafeRawBufferPointer) throws {
        guard bytes.isEmpty || EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) == 1 else {
            throw HealthLogError(.io, "libcrypto: SHA-256 update failed")
        }
    }

    /// Adds `bytes` to the digest.
    func update(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try update($0) }
    }

    /// The digest of everything added, as 64 lowercase hex digits.
    func finish() throws -> String {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &out, &length) == 1, length == 32 else {
            throw HealthLogError(.io, "libcrypto: SHA-256 finish failed")
        }
        return Self.hex(out[0..<32])
    }

    /// The SHA-256 of `bytes`, in hex.
    static func hex(of bytes: [UInt8]) throws -> String {
        let digest = try SHA256Digest()
        try digest.update(bytes)
        return try digest.finish()
    }

    /// Lowercase hex of `bytes`.
    private static func hex(_ bytes: ArraySlice<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

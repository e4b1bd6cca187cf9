internal import CSodium

/// SHA-256 from libsodium (`crypto_hash_sha256`), fed in pieces: the digest backup
/// manifests record for every file, so a restore can prove a copy whole.
final class SHA256Digest {
    /// The hash state.
    private var state = crypto_hash_sha256_state()

    /// A digest of nothing yet.
    init() throws {
        guard sodium_init() >= 0 else { throw HealthLogError(.io, "libsodium: cannot initialise") }
        guard crypto_hash_sha256_init(&state) == 0 else { throw HealthLogError(.io, "libsodium: cannot start a SHA-256 digest") }
    }

    /// A digest of nothing yet that starts from `state`.
    private init(state: crypto_hash_sha256_state) {
        self.state = state
    }

    /// A second digest of everything added so far, to be finished while this one goes on
    /// (a continuous backup digests a growing file once, a round's new bytes at a time).
    func copy() -> SHA256Digest {
        SHA256Digest(state: state)
    }

    /// Adds `bytes` to the digest.
    func update(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        guard crypto_hash_sha256_update(&state, base, UInt64(bytes.count)) == 0 else {
            throw HealthLogError(.io, "libsodium: SHA-256 update failed")
        }
    }

    /// Adds `bytes` to the digest.
    func update(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try update($0) }
    }

    /// The digest of everything added, as 64 lowercase hex digits.
    func finish() throws -> String {
        var out = [UInt8](repeating: 0, count: 32)
        guard crypto_hash_sha256_final(&state, &out) == 0 else {
            throw HealthLogError(.io, "libsodium: SHA-256 finish failed")
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

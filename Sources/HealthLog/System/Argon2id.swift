internal import CSodium

/// Argon2id (libsodium's `crypto_pwhash` with `crypto_pwhash_ALG_ARGON2ID13`): the key
/// derivation that turns a passphrase into the key that wraps a key slot. Its cost is
/// stored in each slot, so a slot made with one cost opens with it on any machine.
enum Argon2id {
    /// libsodium's number for Argon2id version 1.3, stored in a slot.
    static let algorithm = UInt32(crypto_pwhash_ALG_ARGON2ID13)
    /// The salt length in bytes.
    static let saltLength = Int(crypto_pwhash_SALTBYTES)

    /// What one derivation costs: passes over memory, and memory in bytes.
    struct Cost: Sendable, Equatable {
        /// Passes (`opslimit`).
        var operations: UInt64
        /// Memory in bytes (`memlimit`).
        var memory: UInt64

        /// The cost of a new passphrase slot: 32 MiB (every command stays under 64 MB of
        /// memory) and 16 passes, about a quarter of a second of one core.
        static let standard = Cost(operations: 16, memory: 32 << 20)
        /// libsodium's least cost, for tests only (the fault-injecting test tool's
        /// `HEALTHLOG_TEST_WEAK_KDF=1`): a slot made with it guards nothing.
        static let weakest = Cost(operations: UInt64(crypto_pwhash_OPSLIMIT_MIN), memory: UInt64(crypto_pwhash_MEMLIMIT_MIN))

        /// Whether a slot may ask for this cost: within libsodium's bounds, at most 64 MiB
        /// of memory and 64 passes, so a damaged or hostile slot cannot exhaust memory or
        /// time.
        var isAcceptable: Bool {
            operations >= Self.weakest.operations && operations <= 64 && memory >= Self.weakest.memory && memory <= 64 << 20
        }
    }

    /// The 32-byte key `passphrase` derives with `salt` at `cost`.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when libsodium cannot (out of memory).
    static func deriveKey(passphrase: SecretBytes, salt: [UInt8], cost: Cost) throws -> SecretBytes {
        precondition(salt.count == saltLength && cost.isAcceptable, "an Argon2id salt and cost")
        return try SecretBytes(count: XChaCha20Poly1305.keyLength) { out in
            let status = passphrase.withUnsafeBytes { passphrase in
                crypto_pwhash(
                    out.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(out.count),
                    passphrase.baseAddress!.assumingMemoryBound(to: CChar.self), UInt64(passphrase.count),
                    salt, cost.operations, Int(cost.memory), Int32(algorithm))
            }
            guard status == 0 else {
                throw HealthLogError(.io, "Argon2id: cannot derive a key with \(cost.memory >> 20) MiB of memory")
            }
        }
    }
}

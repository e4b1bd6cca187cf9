/// A passphrase or key file made ready to open key slots: its bytes in guarded memory,
/// and which kind of slot it opens.
struct SecretMaterial: Sendable {
    /// The kind of slot it opens.
    let kind: KeySlot.Kind
    /// The passphrase (less one trailing newline of a passphrase file) or the key file's bytes.
    let bytes: SecretBytes

    /// The fewest bytes a key file holds.
    static let minimumKeyFileLength = 32

    /// The material of `secret`; `nil` for ``StoreSecret/unlocked``, which names keys, not a
    /// secret.
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` for an empty passphrase, a file that
    ///   cannot be read, or a key file shorter than 32 bytes.
    static func of(_ secret: StoreSecret) throws -> SecretMaterial? {
        switch secret {
        case .passphrase(let bytes):
            guard !bytes.isEmpty else { throw HealthLogError(.badUsage, "the passphrase is empty") }
            return SecretMaterial(kind: .passphrase, bytes: try bytes.withUnsafeBytes { try SecretBytes(copying: $0) })
        case .passphraseFile(let path):
            let read = try SecretFile.read(path, what: "passphrase file")
            let length = read.withUnsafeBytes { $0.last == UInt8(ascii: "\n") ? $0.count - 1 : $0.count }
            guard length > 0 else { throw HealthLogError(.badUsage, "the passphrase file \(path) holds an empty passphrase") }
            if length == read.count { return SecretMaterial(kind: .passphrase, bytes: read) }
            return SecretMaterial(kind: .passphrase, bytes: try read.withUnsafeBytes { try SecretBytes(copying: UnsafeRawBufferPointer(rebasing: $0[..<length])) })
        case .keyFile(let path):
            let read = try SecretFile.read(path, what: "key file")
            guard read.count >= minimumKeyFileLength else {
                throw HealthLogError(
                    .badUsage,
                    "the key file \(path) holds \(read.count) bytes; a key file needs at least \(minimumKeyFileLength) random bytes (make one with: head -c 32 /dev/urandom > FILE)")
            }
            return SecretMaterial(kind: .keyFile, bytes: read)
        case .unlocked:
            return nil
        }
    }

    /// The key that wraps the secret key of `slot` (of this material's kind): Argon2id of
    /// a passphrase with the slot's salt and cost, or BLAKE2b of a key file keyed with the
    /// slot's salt.
    func wrappingKey(for slot: KeySlot) throws -> SecretBytes {
        precondition(slot.kind == kind, "material of the slot's kind")
        switch kind {
        case .passphrase: return try Argon2id.deriveKey(passphrase: bytes, salt: slot.salt, cost: slot.cost)
        case .keyFile: return try BLAKE2b.keyedHash(bytes, key: slot.salt)
        }
    }
}

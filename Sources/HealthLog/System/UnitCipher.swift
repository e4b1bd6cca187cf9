/// The AEAD a key epoch of an encrypted store seals its units with, recorded with the
/// epoch's data key in every key slot. Both seal a unit into the same room: 24 random
/// bytes, the ciphertext, a 16-byte tag.
package enum UnitCipher: UInt8, Sendable, CaseIterable {
    /// XChaCha20-Poly1305 (libsodium): fast on any CPU; the cipher of every entry of a
    /// version 2 slot file, which names none.
    case xchacha20Poly1305 = 1
    /// AES-256-GCM with keys derived per salt (``AES256GCM``): about half the work on a CPU with AES
    /// instructions, read by any CPU.
    case aes256GCM = 2

    /// The random bytes a sealed unit opens with, the same for every cipher.
    static let prefixLength = 24
    /// The tag a sealed unit ends with, the same for every cipher.
    static let tagLength = 16
    /// The bytes a sealed unit adds to its plaintext, the same for every cipher.
    static let overhead = prefixLength + tagLength

    /// The cipher a new epoch takes unless told: AES-256-GCM where the CPU has AES and
    /// carry-less multiply instructions, XChaCha20-Poly1305 elsewhere.
    package static var preferred: UnitCipher { AES256GCM.isFast ? .aes256GCM : .xchacha20Poly1305 }

    /// How commands name it: `xchacha20-poly1305`, `aes-256-gcm`.
    package var name: String {
        switch self {
        case .xchacha20Poly1305: "xchacha20-poly1305"
        case .aes256GCM: "aes-256-gcm"
        }
    }

    /// The cipher named `name` (``name``); `nil` for any other text.
    package init?(name: String) {
        guard let cipher = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = cipher
    }

    /// What this cipher keeps of `key` to seal and open units faster (``AES256GCM/UnitKeys``);
    /// `nil` for a cipher that needs nothing.
    func prepare(_ key: SecretBytes) -> AES256GCM.UnitKeys? {
        self == .aes256GCM ? AES256GCM.UnitKeys(key) : nil
    }

    /// Seals `plaintext` under `key` (with `keys`, ``prepare(_:)`` of it, when given),
    /// bound to `associated`, into `out` (exactly `plaintext.count + overhead` bytes). With
    /// `keys`, AES-256-GCM seals the units of one `scope` under one salt
    /// (``AES256GCM/UnitKeys/drawSalt(for:sealing:into:)``).
    func seal(
        _ plaintext: UnsafeRawBufferPointer, associated: UnsafeRawBufferPointer, key: SecretBytes, keys: AES256GCM.UnitKeys? = nil,
        scope: AES256GCM.SaltScope = .derivedFiles, into out: UnsafeMutableRawBufferPointer
    ) {
        switch self {
        case .xchacha20Poly1305: XChaCha20Poly1305.seal(plaintext, associated: associated, key: key, into: out)
        case .aes256GCM: AES256GCM.seal(plaintext, associated: associated, key: key, keys: keys, scope: scope, into: out)
        }
    }

    /// Opens `sealed` into `out` (exactly `sealed.count - overhead` bytes); `false` when its
    /// tag does not verify. `keys` as for ``seal(_:associated:key:keys:scope:into:)``.
    func open(_ sealed: UnsafeRawBufferPointer, associated: UnsafeRawBufferPointer, key: SecretBytes, keys: AES256GCM.UnitKeys? = nil, into out: UnsafeMutableRawBufferPointer) -> Bool {
        switch self {
        case .xchacha20Poly1305: XChaCha20Poly1305.open(sealed, associated: associated, key: key, into: out)
        case .aes256GCM: AES256GCM.open(sealed, associated: associated, key: key, keys: keys, into: out)
        }
    }
}

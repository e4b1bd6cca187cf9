/// The sealing of an encrypted store's scratch files: an append's UUID runs, stub spill and fingerprint keys,
/// an import's event spill, a statistics merge's runs. Each block is sealed with AES-256-GCM
/// through OpenSSL where the CPU has AES-NI (as a store's units are: a random salt and
/// nonce, a key of the block's own), else with XChaCha20-Poly1305 (a random nonce), under a
/// key drawn at random once per process, held only in guarded memory
/// (``SecretBytes``) and never written or passed anywhere, so what a process leaves behind
/// (a killed one included) opens for nobody, ever, and needs no store key. A block's
/// associated data names the file's kind and the block's place in it, so a block changed,
/// moved or swapped does not open; each reader knows how many blocks it wrote, so a file cut
/// short is caught too.
///
/// A sealed block is `24 random bytes ‖ ciphertext ‖ tag`, ``overhead`` bytes more than its
/// plaintext, with either cipher. A process reads only blocks it sealed, so the choice is
/// never written down. OpenSSL's AES-256-GCM runs about three times as fast as this
/// libsodium's XChaCha20-Poly1305 here, and an append to an encrypted store opens its
/// scratch pages again and again.
package final class ScratchCipher: Sendable {
    /// What a sealed block holds; part of its associated data.
    package enum Kind: UInt8, Sendable {
        /// A UUID run's block table.
        case uuidRunTable = 1
        /// A page of a UUID run's entries.
        case uuidRunPage = 2
        /// A page of a stub spill's records.
        case stubs = 3
        /// A chunk of an import's event spill.
        case importSpill = 4
        /// A block of a statistics merge's sorted samples.
        case mergeRun = 5
        /// A page of an append's sorted fingerprint keys.
        case fingerprintKeys = 6
    }

    /// The bytes a sealed block adds to its plaintext.
    package static let overhead = XChaCha20Poly1305.overhead

    /// The process's key: 32 random bytes, made at the first sealed scratch file.
    private let key: SecretBytes
    /// ``key`` made ready for AES-256-GCM's unit keys; `nil` when blocks are sealed with
    /// XChaCha20-Poly1305.
    private let prepared: SecretBytes?

    /// The one cipher of this process (or why libsodium could not make its key).
    private static let process = Result { try ScratchCipher(key: SecretBytes.random(count: XChaCha20Poly1305.keyLength)) }

    private init(key: SecretBytes) {
        precondition(AES256GCM.overhead == XChaCha20Poly1305.overhead, "either cipher's block has the same length")
        self.key = key
        prepared = AES256GCM.isFast && AES256GCM.cipher != nil ? AES256GCM.prepare(key) : nil
    }

    /// This process's cipher, its key made on first use.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when libsodium cannot start or allocate.
    package static func forProcess() throws -> ScratchCipher {
        try process.get()
    }

    /// Seals `plaintext` as a block of `kind` at `place` into `out`, which is exactly
    /// `plaintext.count + overhead` bytes.
    package func seal(_ plaintext: UnsafeRawBufferPointer, _ kind: Kind, place: (UInt64, UInt64, UInt64), into out: UnsafeMutableRawBufferPointer) {
        Self.withAssociatedData(kind, place) { associated in
            if let prepared {
                AES256GCM.seal(plaintext, associated: associated, key: key, prepared: prepared, into: out, implementation: .openSSL)
            } else {
                XChaCha20Poly1305.seal(plaintext, associated: associated, key: key, into: out)
            }
        }
    }

    /// `plaintext` sealed as a block of `kind` at `place`.
    package func seal(_ plaintext: UnsafeRawBufferPointer, _ kind: Kind, place: (UInt64, UInt64, UInt64)) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: plaintext.count + Self.overhead) { out, filled in
            seal(plaintext, kind, place: place, into: UnsafeMutableRawBufferPointer(out))
            filled = plaintext.count + Self.overhead
        }
    }

    /// Opens `sealed`, a block of `kind` at `place`, into `out` (exactly
    /// `sealed.count - overhead` bytes); `false` when it does not open: changed, moved,
    /// cut short, or sealed by another process.
    package func open(_ sealed: UnsafeRawBufferPointer, _ kind: Kind, place: (UInt64, UInt64, UInt64), into out: UnsafeMutableRawBufferPointer) -> Bool {
        Self.withAssociatedData(kind, place) { associated in
            if let prepared {
                AES256GCM.open(sealed, associated: associated, key: key, prepared: prepared, into: out, implementation: .openSSL)
            } else {
                XChaCha20Poly1305.open(sealed, associated: associated, key: key, into: out)
            }
        }
    }

    /// The associated data's fixed start.
    private static let domain = Array("healthlog scratch v1".utf8)

    /// Runs `body` with the associated data of a block of `kind` at `place`: "healthlog
    /// scratch v1", the kind, then the place's three numbers (little-endian). Built on the
    /// stack: an append seals and opens a block per scratch page it writes or looks up.
    private static func withAssociatedData<R>(_ kind: Kind, _ place: (UInt64, UInt64, UInt64), _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let length = domain.count + 1 + 3 * 8
        return withUnsafeTemporaryAllocation(byteCount: length, alignment: 8) { bytes in
            domain.withUnsafeBytes { bytes.copyMemory(from: $0) }
            bytes[domain.count] = kind.rawValue
            bytes.storeBytes(of: place.0.littleEndian, toByteOffset: domain.count + 1, as: UInt64.self)
            bytes.storeBytes(of: place.1.littleEndian, toByteOffset: domain.count + 9, as: UInt64.self)
            bytes.storeBytes(of: place.2.littleEndian, toByteOffset: domain.count + 17, as: UInt64.self)
            return body(UnsafeRawBufferPointer(bytes))
        }
    }
}

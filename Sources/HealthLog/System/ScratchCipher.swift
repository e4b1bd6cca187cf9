internal import CSodium
import Synchronization

/// The sealing of an encrypted store's scratch files: an append's UUID runs, stub spill and fingerprint keys,
/// an import's event spill, a statistics merge's runs. Each block is sealed with AES-256-GCM
/// through OpenSSL where the CPU has AES-NI, else with XChaCha20-Poly1305 (a random nonce),
/// under a key drawn at random once per process, held in guarded memory (``SecretBytes``)
/// and never written or passed anywhere, so what a process leaves behind (a killed one
/// included) opens for nobody, ever, and needs no store key. A block's associated data names
/// the file's kind and the block's place in it, so a block changed, moved or swapped does
/// not open; each reader knows how many blocks it wrote, so a file cut short is caught too.
///
/// A sealed block is `24 bytes ‖ ciphertext ‖ tag`, ``overhead`` bytes more than its
/// plaintext, with either cipher: XChaCha20-Poly1305's random nonce, or, under AES-256-GCM,
/// the block's 96-bit nonce (the count of blocks the process sealed before it, so no nonce
/// repeats under the key) and 12 zero bytes. AES-256-GCM runs through OpenSSL contexts keyed
/// once and reused block after block (one per thread sealing or opening at a time): an
/// append to an encrypted store seals and opens a scratch page for many of its events, and
/// a context keyed for each block cost as much again as the page's bytes. Those contexts
/// hold the key's AES schedule in OpenSSL's memory for the process's life, beside the
/// plaintext the blocks protect. A process reads only blocks it sealed, so the choice is
/// never written down.
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
        /// A page of an append's sorted sequence numbers of the adds it deleted.
        case deletedAdds = 7
        /// A page of a compaction's sorted dropped events.
        case compactionPlan = 8
    }

    /// The bytes a sealed block adds to its plaintext.
    package static let overhead = XChaCha20Poly1305.overhead

    /// The process's key: 32 random bytes, made at the first sealed scratch file.
    private let key: SecretBytes
    /// OpenSSL contexts keyed with ``key`` for sealing and for opening AES-256-GCM blocks;
    /// `nil` when blocks are sealed with XChaCha20-Poly1305.
    private let contexts: (sealing: KeyedContexts, opening: KeyedContexts)?
    /// How many blocks were sealed under AES-256-GCM: the next block's nonce.
    private let sealedBlocks = Atomic<UInt64>(0)

    /// The one cipher of this process (or why libsodium could not make its key).
    private static let process = Result { try ScratchCipher(key: SecretBytes.random(count: XChaCha20Poly1305.keyLength)) }

    private init(key: SecretBytes) {
        precondition(AES256GCM.overhead == XChaCha20Poly1305.overhead, "either cipher's block has the same length")
        self.key = key
        if AES256GCM.isFast, OpenSSLGCM.functions != nil {
            contexts = (KeyedContexts(key: key, encrypt: true), KeyedContexts(key: key, encrypt: false))
        } else {
            contexts = nil
        }
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
            guard let contexts else { return XChaCha20Poly1305.seal(plaintext, associated: associated, key: key, into: out) }
            precondition(out.count == plaintext.count + Self.overhead && plaintext.count < Int(Int32.max), "a sealed block's room")
            let nonce = sealedBlocks.add(1, ordering: .relaxed).oldValue
            let prefix = out.baseAddress!
            prefix.initializeMemory(as: UInt8.self, repeating: 0, count: Self.prefixLength)
            prefix.storeBytes(of: nonce.littleEndian, as: UInt64.self)
            let sealed = contexts.sealing.run(nonce: UnsafeRawPointer(prefix), associated: associated) { context in
                context.seal(plaintext, into: prefix + Self.prefixLength, tag: prefix + out.count - AES256GCM.tagLength)
            }
            precondition(sealed, "OpenSSL's AES-256-GCM seals")
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
            guard let contexts else { return XChaCha20Poly1305.open(sealed, associated: associated, key: key, into: out) }
            guard sealed.count >= Self.overhead, out.count == sealed.count - Self.overhead, sealed.count < Int(Int32.max) else { return false }
            // The bytes after the nonce are zero in every block sealed here.
            let padding = UnsafeRawBufferPointer(rebasing: sealed[AES256GCM.nonceLength..<Self.prefixLength])
            let body = UnsafeRawBufferPointer(rebasing: sealed[Self.prefixLength..<sealed.count - AES256GCM.tagLength])
            let opened =
                !padding.contains { $0 != 0 }
                && contexts.opening.run(nonce: sealed.baseAddress!, associated: associated) { context in
                    context.open(body, tag: sealed.baseAddress! + sealed.count - AES256GCM.tagLength, into: out)
                }
            if !opened, let base = out.baseAddress { sodium_memzero(base, out.count) }
            return opened
        }
    }

    /// The bytes before a block's ciphertext.
    private static let prefixLength = overhead - AES256GCM.tagLength

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

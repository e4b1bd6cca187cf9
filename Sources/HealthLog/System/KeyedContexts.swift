internal import CCrypto
import Synchronization

/// OpenSSL cipher contexts keyed once with one key, for sealing or for opening, lent to one
/// unit at a time: a unit sets only its nonce (`EVP_*Init_ex2` with no cipher and no key
/// keeps the key's schedule and GHASH key) instead of keying a new context. There are as
/// many contexts as units ever in flight at once (one per thread that seals or opens); they
/// are wiped and freed with the pool.
final class KeyedContexts: Sendable {
    /// The contexts not lent out, as addresses (a context is used by one thread at a time).
    private let idle = Mutex<[UInt]>([])
    nonisolated(unsafe) private let cipher: OpaquePointer
    private let key: SecretBytes
    private let encrypt: Bool

    /// A pool of contexts of `cipher` keyed with `key`, sealing when `encrypt`, else opening.
    init(_ cipher: OpaquePointer, key: SecretBytes, encrypt: Bool) {
        self.cipher = cipher
        self.key = key
        self.encrypt = encrypt
    }

    deinit {
        for address in idle.withLock({ $0 }) { EVP_CIPHER_CTX_free(OpaquePointer(bitPattern: address)) }
    }

    /// Runs `body` on a context started with the 12-byte `nonce` and fed `associated`;
    /// `false` when OpenSSL could not start it or `body` says so. The context goes back to
    /// the pool after.
    func run(nonce: UnsafeRawPointer, associated: UnsafeRawBufferPointer, _ body: (OpaquePointer) -> Bool) -> Bool {
        guard let context = idle.withLock({ $0.popLast() }).flatMap({ OpaquePointer(bitPattern: $0) }) ?? keyedContext() else { return false }
        defer { idle.withLock { $0.append(UInt(bitPattern: UnsafeRawPointer(context))) } }
        let iv = nonce.assumingMemoryBound(to: UInt8.self)
        var written: Int32 = 0
        let started =
            encrypt
            ? EVP_EncryptInit_ex2(context, nil, nil, iv, nil) == 1
                && (associated.isEmpty || EVP_EncryptUpdate(context, nil, &written, associated.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(associated.count)) == 1)
            : EVP_DecryptInit_ex2(context, nil, nil, iv, nil) == 1
                && (associated.isEmpty || EVP_DecryptUpdate(context, nil, &written, associated.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(associated.count)) == 1)
        return started && body(context)
    }

    /// A new context keyed with ``key``, or `nil` when OpenSSL cannot make one.
    private func keyedContext() -> OpaquePointer? {
        guard let context = EVP_CIPHER_CTX_new() else { return nil }
        let keyed = key.withUnsafeBytes { key in
            let bytes = key.baseAddress!.assumingMemoryBound(to: UInt8.self)
            return encrypt ? EVP_EncryptInit_ex2(context, cipher, bytes, nil, nil) == 1 : EVP_DecryptInit_ex2(context, cipher, bytes, nil, nil) == 1
        }
        guard keyed else {
            EVP_CIPHER_CTX_free(context)
            return nil
        }
        return context
    }
}

import Synchronization

/// OpenSSL AES-256-GCM contexts (``OpenSSLGCM/Context``) keyed once with one key, for
/// sealing or for opening, lent to one unit at a time: a unit sets only its nonce, keeping
/// the key's schedule and GHASH key, instead of keying a new context. There are as many
/// contexts as units ever in flight at once (one per thread that seals or opens); OpenSSL
/// wipes them when the pool is freed.
final class KeyedContexts: Sendable {
    /// The contexts not lent out (a context is used by one thread at a time).
    private let idle = Mutex<[OpenSSLGCM.Context]>([])
    private let key: SecretBytes
    private let encrypt: Bool

    /// A pool of contexts keyed with `key`, sealing when `encrypt`, else opening.
    init(key: SecretBytes, encrypt: Bool) {
        self.key = key
        self.encrypt = encrypt
    }

    /// Runs `body` on a context started with the 12-byte `nonce` and fed `associated`;
    /// `false` when OpenSSL could not start it or `body` says so. The context goes back to
    /// the pool after.
    func run(nonce: UnsafeRawPointer, associated: UnsafeRawBufferPointer, _ body: (OpenSSLGCM.Context) -> Bool) -> Bool {
        guard let context = idle.withLock({ $0.popLast() }) ?? keyedContext() else { return false }
        defer { idle.withLock { $0.append(context) } }
        return context.start(nonce: nonce, associated: associated) && body(context)
    }

    /// A new context keyed with ``key``, or `nil` when OpenSSL cannot make one.
    private func keyedContext() -> OpenSSLGCM.Context? {
        key.withUnsafeBytes { OpenSSLGCM.Context(key: $0.baseAddress!.assumingMemoryBound(to: UInt8.self), encrypt: encrypt) }
    }
}

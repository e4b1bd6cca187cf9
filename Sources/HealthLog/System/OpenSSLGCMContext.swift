internal import CCrypto

extension OpenSSLGCM {
    /// One of the provider's AES-256-GCM contexts, keyed once, for sealing or for opening
    /// units one after the other (each starts with its own nonce, ``start(nonce:associated:)``);
    /// used by one thread at a time, and handed between threads only through a pool
    /// (``KeyedContexts``). OpenSSL wipes its key schedule when it is freed.
    final class Context: @unchecked Sendable {
        private let functions: Functions
        private let context: UnsafeMutableRawPointer
        /// Whether it seals (else it opens).
        let encrypt: Bool

        /// A context keyed with the ``AES256GCM/keyLength`` bytes at `key`, sealing when
        /// `encrypt`, else opening; `nil` when OpenSSL's cipher is not to be had.
        init?(key: UnsafePointer<UInt8>, encrypt: Bool) {
            guard let functions = OpenSSLGCM.functions, let context = functions.newContext(functions.provider) else { return nil }
            let keyLength = AES256GCM.keyLength
            let keyed = encrypt ? functions.encryptInit(context, key, keyLength, nil, 0, nil) : functions.decryptInit(context, key, keyLength, nil, 0, nil)
            guard keyed == 1 else {
                functions.freeContext(context)
                return nil
            }
            self.functions = functions
            self.context = context
            self.encrypt = encrypt
        }

        deinit { functions.freeContext(context) }

        /// Starts a unit with the ``AES256GCM/nonceLength``-byte `nonce` and feeds it
        /// `associated`; `false` when OpenSSL fails.
        func start(nonce: UnsafeRawPointer, associated: UnsafeRawBufferPointer) -> Bool {
            let iv = nonce.assumingMemoryBound(to: UInt8.self)
            let nonceLength = AES256GCM.nonceLength
            let started = encrypt ? functions.encryptInit(context, nil, 0, iv, nonceLength, nil) : functions.decryptInit(context, nil, 0, iv, nonceLength, nil)
            guard started == 1 else { return false }
            guard let bytes = associated.baseAddress, !associated.isEmpty else { return true }
            var written = 0
            // The provider wants room for as many bytes as it is given, though associated
            // data writes none.
            return functions.update(context, nil, &written, associated.count, bytes.assumingMemoryBound(to: UInt8.self), associated.count) == 1
        }

        /// Seals `plaintext` of a started unit: the ciphertext (as long) at `body`, then the
        /// tag (``AES256GCM/tagLength`` bytes) at `tag`; `false` when OpenSSL fails.
        func seal(_ plaintext: UnsafeRawBufferPointer, into body: UnsafeMutableRawPointer, tag: UnsafeMutableRawPointer) -> Bool {
            let out = body.assumingMemoryBound(to: UInt8.self)
            var written = 0
            guard plaintext.isEmpty || functions.update(context, out, &written, plaintext.count, plaintext.baseAddress!.assumingMemoryBound(to: UInt8.self), plaintext.count) == 1,
                functions.final(context, out, &written, 0) == 1
            else { return false }
            return withTagParameter(tag) { functions.getParameters(context, $0) == 1 }
        }

        /// Opens the ciphertext `body` of a started unit into `out` (as long) and checks the
        /// tag at `tag`; `false` when it does not verify.
        func open(_ body: UnsafeRawBufferPointer, tag: UnsafeRawPointer, into out: UnsafeMutableRawBufferPointer) -> Bool {
            let bytes = out.baseAddress?.assumingMemoryBound(to: UInt8.self)
            var written = 0
            guard body.isEmpty || functions.update(context, bytes, &written, out.count, body.baseAddress!.assumingMemoryBound(to: UInt8.self), body.count) == 1,
                withTagParameter(UnsafeMutableRawPointer(mutating: tag), { functions.setParameters(context, $0) == 1 })
            else { return false }
            return functions.final(context, bytes, &written, 0) == 1
        }

        /// Runs `body` with a parameter list naming the ``AES256GCM/tagLength`` bytes at
        /// `tag` as the AEAD tag.
        private func withTagParameter(_ tag: UnsafeMutableRawPointer, _ body: (UnsafeMutablePointer<OSSL_PARAM>) -> Bool) -> Bool {
            withUnsafeTemporaryAllocation(of: OSSL_PARAM.self, capacity: 2) { parameters in
                parameters[0] = OSSL_PARAM_construct_octet_string(Self.tagKey, tag, AES256GCM.tagLength)
                parameters[1] = OSSL_PARAM_construct_end()
                return body(parameters.baseAddress!)
            }
        }

        /// The tag parameter's name, `OSSL_CIPHER_PARAM_AEAD_TAG`, as a C string that lives
        /// as long as the process.
        nonisolated(unsafe) private static let tagKey = UnsafeRawPointer(("tag" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
    }
}

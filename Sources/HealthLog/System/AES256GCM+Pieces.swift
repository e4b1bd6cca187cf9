internal import CCrypto
internal import CSodium

extension AES256GCM {
    /// One unit sealed a piece at a time, for a plaintext too large to hold whole: the same
    /// bytes as ``seal(_:associated:key:prepared:into:implementation:)`` gives for the pieces joined (GCM
    /// is a stream cipher, so each piece's ciphertext is as long as the piece). Always
    /// OpenSSL's EVP sequence: libsodium seals only whole units.
    final class Pieces {
        /// The EVP context, keyed with the unit key; freed (and wiped) by `deinit`.
        private let context: OpaquePointer
        /// The salt and nonce the unit opens with (``saltLength`` + ``nonceLength`` bytes, random).
        let prefix: [UInt8]

        /// Starts a unit under `key` bound to `associated`; `nil` when OpenSSL cannot start one.
        init?(key: SecretBytes, associated: UnsafeRawBufferPointer) {
            guard key.count == keyLength, AES256GCM.cipher != nil, let context = EVP_CIPHER_CTX_new() else { return nil }
            var prefix = [UInt8](repeating: 0, count: saltLength + nonceLength)
            prefix.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, $0.count) }
            let started = prefix.withUnsafeBytes { AES256GCM.start(context, encrypt: true, salt: $0, key: key, prepared: nil, associated: associated) }
            guard started else {
                EVP_CIPHER_CTX_free(context)
                return nil
            }
            self.context = context
            self.prefix = prefix
        }

        deinit { EVP_CIPHER_CTX_free(context) }

        /// Seals the next piece of plaintext into `out` (exactly as long, at most 2³¹ − 1 bytes).
        func seal(_ piece: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer) {
            precondition(out.count == piece.count && piece.count < Int(Int32.max), "a piece's room")
            guard !piece.isEmpty else { return }
            var written: Int32 = 0
            let sealed = EVP_EncryptUpdate(
                context, out.baseAddress!.assumingMemoryBound(to: UInt8.self), &written, piece.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(piece.count))
            precondition(sealed == 1 && Int(written) == piece.count, "OpenSSL's AES-256-GCM seals a piece")
        }

        /// Ends the unit: its tag (``tagLength`` bytes), which follows the last piece.
        func finish() -> [UInt8] {
            var tag = [UInt8](repeating: 0, count: tagLength)
            var written: Int32 = 0
            let finished = tag.withUnsafeMutableBytes { tag in
                EVP_EncryptFinal_ex(context, tag.baseAddress!.assumingMemoryBound(to: UInt8.self), &written) == 1
                    && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, Int32(tagLength), tag.baseAddress!) == 1
            }
            precondition(finished, "OpenSSL's AES-256-GCM ends a unit")
            return tag
        }
    }
}

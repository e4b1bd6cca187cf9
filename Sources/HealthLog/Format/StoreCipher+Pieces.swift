extension StoreCipher {
    /// One unit sealed a piece at a time (``StoreCipher/pieces(_:place:)``): `prefix`, then
    /// each piece's ciphertext, then `finish()`'s tag are the unit's bytes, the same unit
    /// ``seal(_:_:place:into:)`` makes of the pieces joined.
    final class Pieces {
        /// The unit's first bytes: the epoch, then the cipher's random prefix.
        let prefix: [UInt8]
        /// The cipher's state.
        private let sealing: AES256GCM.Pieces

        fileprivate init(epoch: UInt32, sealing: AES256GCM.Pieces) {
            prefix = withUnsafeBytes(of: epoch.littleEndian, Array.init) + sealing.prefix
            self.sealing = sealing
        }

        /// Seals the next piece into `out` (exactly as long).
        func seal(_ piece: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer) { sealing.seal(piece, into: out) }

        /// The unit's last bytes, its tag; called once, after the last piece.
        func finish() -> [UInt8] { sealing.finish() }
    }

    /// A unit of `purpose` at `place` to be sealed in pieces, under the current epoch;
    /// `nil` when its cipher seals only whole units (XChaCha20-Poly1305) or cannot start one.
    func pieces(_ purpose: Purpose, place: [UInt8]) -> Pieces? {
        guard cipher(of: currentEpoch) == .aes256GCM, let key = keys[currentEpoch] else { return nil }
        let associated = associatedData(currentEpoch, purpose, place)
        guard let sealing = associated.withUnsafeBytes({ AES256GCM.Pieces(key: key, associated: $0) }) else { return nil }
        return Pieces(epoch: currentEpoch, sealing: sealing)
    }
}

/// The digest of a set of deleted adds (``BatchOrigin/DeletedAddWitness``): the wrapping
/// sum of SplitMix64's finalizer applied to each sequence number, so it is computed in any
/// order and grows by the adds each append deletes.
extension BatchOrigin.DeletedAddWitness {
    /// The witness of `seqs` (no repeats).
    init(of seqs: [UInt64]) {
        self = Self.empty.adding(seqs)
    }

    /// The witness of `count` sequence numbers stored as little-endian u64s in `bytes`.
    init(count: Int, littleEndian bytes: UnsafeRawBufferPointer) {
        var digest: UInt64 = 0
        for k in 0..<count { digest &+= SplitMix64.finalize(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: k * 8, as: UInt64.self))) }
        self.init(count: UInt64(count), digest: digest)
    }

    /// This witness with `seqs` (adds it does not count yet) added.
    func adding(_ seqs: [UInt64]) -> Self {
        var digest = digest
        for seq in seqs { digest &+= SplitMix64.finalize(seq) }
        return Self(count: count + UInt64(seqs.count), digest: digest)
    }
}

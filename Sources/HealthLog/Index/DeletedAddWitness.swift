/// The digest of a set of deleted adds (``BatchOrigin/DeletedAddWitness``): the wrapping
/// sum of ``hash(_:)`` over their sequence numbers, so it is computed in any order and grows
/// by the adds each append deletes.
extension BatchOrigin.DeletedAddWitness {
    /// The witness of `seqs` (no repeats).
    init(of seqs: [UInt64]) {
        self = Self.empty.adding(seqs)
    }

    /// The witness of `count` sequence numbers stored as little-endian u64s in `bytes`.
    init(count: Int, littleEndian bytes: UnsafeRawBufferPointer) {
        var digest: UInt64 = 0
        for k in 0..<count { digest &+= Self.hash(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: k * 8, as: UInt64.self))) }
        self.init(count: UInt64(count), digest: digest)
    }

    /// This witness with `seqs` (adds it does not count yet) added.
    func adding(_ seqs: [UInt64]) -> Self {
        var digest = digest
        for seq in seqs { digest &+= Self.hash(seq) }
        return Self(count: count + UInt64(seqs.count), digest: digest)
    }

    /// This witness with `seq` (an add it does not count yet) added.
    func adding(seq: UInt64) -> Self {
        Self(count: count + 1, digest: digest &+ Self.hash(seq))
    }

    /// The witness of the adds this one counts and those `other` counts (none in both).
    func adding(_ other: Self) -> Self {
        Self(count: count + other.count, digest: digest &+ other.digest)
    }

    /// The hash of one sequence number: the number xored with one constant, multiplied by
    /// another into 128 bits, and the two halves xored (wyhash's multiply-fold), so the sum
    /// is no linear function of the numbers. Part of the batch header's layout: it must not
    /// change. One multiplication a number, as a reader hashes every entry of the index.
    @inline(__always)
    static func hash(_ seq: UInt64) -> UInt64 {
        let product = (seq ^ 0xA076_1D64_78BD_642F).multipliedFullWidth(by: 0xE703_7ED1_A0B4_28DB)
        return product.high ^ product.low
    }
}

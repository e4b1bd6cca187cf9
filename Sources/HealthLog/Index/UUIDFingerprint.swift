/// The fixed hash and key packing of the fingerprint UUID index (``UUIDFingerprintRun``).
///
/// A UUID's fingerprint is the top 32 bits of SplitMix64's finalizer applied to
/// `high ^ finalize(low)`: every bit of the UUID moves every bit of the fingerprint, so
/// UUIDs a user picked by hand (counters, a shared prefix) spread as evenly as random ones.
/// The function is part of the index layout (``FormatConstants/uuidIndexVersion``): a
/// build that changed it would have to change the version too.
///
/// A run's key packs a fingerprint (high 32 bits) and a *block*: the event's sequence
/// number shifted right by the run's block shift, less the run's first block
/// (`(seq >> shift) - (fromSeq >> shift)`). Blocks are aligned to absolute sequence
/// numbers and a longer range never has narrower blocks, so runs merge without losing
/// where an event lies.
enum UUIDFingerprint {
    /// The widest block a run is written with unless its range needs wider ones: 512
    /// sequence numbers, a fifth of a bulk append's batch, so a lookup mostly reads one
    /// batch, not the two a block straddling them would need.
    static let defaultBlockShift = 9
    /// A run's blocks are narrowed until it has about 2⁹ of them, so a small run (an
    /// append of a few hundred events) names a stretch of a few events, not a batch.
    static let blockBitsTarget = 9

    /// The fingerprint of `uuid`.
    static func of(_ uuid: SampleUUID) -> UInt32 {
        UInt32(truncatingIfNeeded: SplitMix64.finalize(uuid.high ^ SplitMix64.finalize(uuid.low)) >> 32)
    }

    /// The block shift of a run covering `from...to`: blocks of up to 512 sequence numbers
    /// (narrower for a short range, see ``blockBitsTarget``), or wider so a block number fits
    /// in 32 bits. It never falls as the range grows, so merged runs renumber blocks exactly.
    static func blockShift(from: UInt64, to: UInt64) -> Int {
        let spanBits = UInt64.bitWidth - (to - from).leadingZeroBitCount
        var shift = max(0, min(defaultBlockShift, spanBits - blockBitsTarget))
        while (to >> UInt64(shift)) - (from >> UInt64(shift)) > UInt64(UInt32.max) { shift += 1 }
        return shift
    }

    /// The sequence numbers block `block` of a run starting at `from` with block shift
    /// `shift` spans (a run's own range clips them).
    static func seqs(ofBlock block: UInt64, from: UInt64, shift: Int) -> ClosedRange<UInt64> {
        let first = ((from >> UInt64(shift)) + block) << UInt64(shift)
        return first...(first + (1 << UInt64(shift)) - 1)
    }
}

/// SplitMix64's finalizer (Steele, Lea and Flood 2014), the bit mixer under the UUID
/// hashes of the index: ``UUIDBloom/mix(_:)`` (in memory only) and ``UUIDFingerprint``
/// (part of the fingerprint index's layout, so it must not change).
enum SplitMix64 {
    /// Mixes `value` so that every input bit moves every output bit.
    @inline(__always)
    static func finalize(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

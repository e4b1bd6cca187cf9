/// A blocked Bloom filter of sample UUIDs: a set that answers "maybe" or "certainly not",
/// in about 16 bits per UUID. Each UUID sets 7 bits (``probes``; fewer for a filter made
/// with fewer bits per UUID, see ``probes(bitsPerUUID:)``) of one 64-byte block chosen by a hash
/// of all its 128 bits (so sequential UUIDs spread too), so a test touches one cache line;
/// about 0.1% of absent UUIDs test positive (each positive costs the writer lookups on
/// disk, which is why it spends 16 bits rather than 10 for 1%). Its size is capped at ``maximumBytes``: past
/// the UUIDs that fit there, more absent UUIDs test positive (each costs a lookup on disk),
/// but memory stays bounded whatever the append's size.
struct UUIDBloom {
    /// The most bytes a filter takes (sized for about 4.2 million UUIDs at 0.1%, and about
    /// 6.5 million at 1%), so the writer's two kinds of filter stay within 16 MB together.
    static let maximumBytes = 8 << 20
    /// The bits, eight words (one 64-byte block) per block.
    private var words: [UInt64]
    /// The number of blocks minus one (a power of two minus one).
    private let blockMask: Int
    /// The bits each UUID sets in its block.
    let probes: Int

    /// Whether it has reached ``maximumBytes`` and will not be made larger.
    var isAtMaximum: Bool { words.count * 8 >= Self.maximumBytes }

    /// The bytes its bits take.
    var byteCount: Int { words.count * 8 }

    /// An empty filter for `capacity` UUIDs.
    init(capacity: Int) {
        var blocks = 1
        while blocks * 512 < max(capacity, 1) * 16, blocks * 64 < Self.maximumBytes { blocks <<= 1 }
        words = [UInt64](repeating: 0, count: blocks * 8)
        blockMask = blocks - 1
        probes = 7
    }

    /// An empty filter of `bytes` (rounded up to a power of two of blocks, at most
    /// ``maximumBytes``) for `count` UUIDs, setting as many bits per UUID as suit the bits
    /// each has (``probes(bitsPerUUID:)``).
    init(bytes: Int, for count: Int) {
        var blocks = 1
        while blocks * 64 < bytes, blocks * 128 <= Self.maximumBytes { blocks <<= 1 }
        words = [UInt64](repeating: 0, count: blocks * 8)
        blockMask = blocks - 1
        probes = Self.probes(bitsPerUUID: blocks * 512 / max(count, 1))
    }

    /// The bits per UUID that give the fewest false positives to a filter of
    /// `bitsPerUUID` bits per UUID: about ln 2 of them (3 at 4 bits, 5 at 8), at most 7
    /// (more probes cost a lookup time for little gain).
    static func probes(bitsPerUUID: Int) -> Int {
        min(7, max(1, (bitsPerUUID * 69 + 50) / 100))
    }

    /// The same filter in half the bytes (at least one block), holding the same UUIDs: block
    /// `i` of the half is blocks `i` and `i + blocks / 2` of this one ORed, which is where
    /// a filter of half the blocks built from the same UUIDs has their bits, since a UUID's
    /// block is its hash masked to the block count and its bits in the block do not depend
    /// on that count. More absent UUIDs test positive in it.
    func halved() -> UUIDBloom {
        let blocks = blockMask + 1
        guard blocks > 1 else { return self }
        let half = blocks / 2 * 8
        var folded = [UInt64](repeating: 0, count: half)
        words.withUnsafeBufferPointer { words in
            for k in 0..<half { folded[k] = words[k] | words[k + half] }
        }
        return UUIDBloom(words: folded, probes: probes)
    }

    /// A filter of the given bits (a power of two of blocks), each UUID setting `probes` of them.
    private init(words: [UInt64], probes: Int) {
        self.words = words
        blockMask = words.count / 8 - 1
        self.probes = probes
    }

    /// Adds `uuid`.
    mutating func insert(_ uuid: SampleUUID) { insert(hash: Self.mix(uuid)) }

    /// Adds the UUID whose ``mix(_:)`` is `hash` (for a caller that computed it already).
    mutating func insert(hash: UInt64) {
        var hash = hash
        let base = (Int(truncatingIfNeeded: hash) & blockMask) * 8
        words.withUnsafeMutableBufferPointer { words in
            for _ in 0..<probes {
                hash = hash &* 0x9E37_79B9_7F4A_7C15 &+ 0x632B_E59B_D9B4_E019
                let bit = Int(truncatingIfNeeded: hash >> 55)
                words[base + (bit >> 6)] |= 1 << UInt64(bit & 63)
            }
        }
    }

    /// Loads the first and last words of the block the UUID whose ``mix(_:)`` is `hash`
    /// tests and returns them, so the block (which may straddle two cache lines) is in the
    /// cache when ``mayContain(hash:)`` asks (see ``UUIDPositions``'s `touch`).
    func touch(hash: UInt64) -> UInt64 {
        let base = (Int(truncatingIfNeeded: hash) & blockMask) * 8
        return words.withUnsafeBufferPointer { $0[base] ^ $0[base + 7] }
    }

    /// Whether `uuid` may have been added (`false`: it certainly was not).
    func mayContain(_ uuid: SampleUUID) -> Bool { mayContain(hash: Self.mix(uuid)) }

    /// Whether the UUID whose ``mix(_:)`` is `hash` may have been added: a caller testing
    /// one UUID against several filters hashes it once.
    func mayContain(hash start: UInt64) -> Bool {
        var hash = start
        let base = (Int(truncatingIfNeeded: hash) & blockMask) * 8
        return words.withUnsafeBufferPointer { words in
            for _ in 0..<probes {
                hash = hash &* 0x9E37_79B9_7F4A_7C15 &+ 0x632B_E59B_D9B4_E019
                let bit = Int(truncatingIfNeeded: hash >> 55)
                if words[base + (bit >> 6)] & (1 << UInt64(bit & 63)) == 0 { return false }
            }
            return true
        }
    }

    /// A 64-bit hash of all of the UUID's bits (the finaliser of SplitMix64 over both halves).
    static func mix(_ uuid: SampleUUID) -> UInt64 {
        SplitMix64.finalize(uuid.high ^ (uuid.low &* 0xBF58_476D_1CE4_E5B9) ^ (uuid.low >> 29))
    }
}

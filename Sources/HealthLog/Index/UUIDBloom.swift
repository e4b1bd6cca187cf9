/// A blocked Bloom filter of sample UUIDs: a set that answers "maybe" or "certainly not",
/// in about 16 bits per UUID. Each UUID sets 7 bits (``probes``; fewer for a filter made
/// with fewer bits per UUID, see ``probes(bitsPerUUID:)``) of one 64-byte block chosen by a hash
/// of all its 128 bits (so sequential UUIDs spread too); blocks are aligned to 64 bytes, so
/// a test touches one cache line. About 0.1% of absent UUIDs test positive (each positive
/// costs the writer lookups on disk, which is why it spends 16 bits rather than 10 for 1%).
/// Its size is capped at ``maximumBytes``: past the UUIDs that fit there, more absent UUIDs
/// test positive (each costs a lookup on disk), but memory stays bounded whatever the
/// append's size.
package struct UUIDBloom {
    /// The most bytes a filter takes (sized for about 4.2 million UUIDs at 0.1%, and about
    /// 6.5 million at 1%), so the writer's two kinds of filter stay within 16 MB together.
    static let maximumBytes = 8 << 20
    /// The bits, eight words (one 64-byte block) per block, shared by copies until one of
    /// them changes.
    private var storage: Storage
    /// The number of blocks minus one (a power of two minus one).
    private let blockMask: Int
    /// The bits each UUID sets in its block.
    let probes: Int

    /// The bits of a filter, in memory aligned to 64 bytes (an array's elements start 32
    /// bytes into their allocation, so every block of an array straddled two cache lines).
    private final class Storage {
        /// The words, zeroed when made.
        let words: UnsafeMutablePointer<UInt64>
        /// How many words.
        let count: Int

        /// `count` zeroed words.
        init(count: Int) {
            self.count = count
            words = UnsafeMutableRawPointer.allocate(byteCount: count * 8, alignment: 64).bindMemory(to: UInt64.self, capacity: count)
            words.initialize(repeating: 0, count: count)
        }

        /// A copy of the words.
        func copy() -> Storage {
            let copy = Storage(count: count)
            copy.words.update(from: words, count: count)
            return copy
        }

        deinit { words.deallocate() }
    }

    /// Whether it has reached ``maximumBytes`` and will not be made larger.
    var isAtMaximum: Bool { byteCount >= Self.maximumBytes }

    /// The bytes its bits take.
    package var byteCount: Int { storage.count * 8 }

    /// An empty filter for `capacity` UUIDs.
    package init(capacity: Int) {
        var blocks = 1
        while blocks * 512 < max(capacity, 1) * 16, blocks * 64 < Self.maximumBytes { blocks <<= 1 }
        storage = Storage(count: blocks * 8)
        blockMask = blocks - 1
        probes = 7
    }

    /// An empty filter of `bytes` (rounded up to a power of two of blocks, at most
    /// ``maximumBytes``) for `count` UUIDs, setting as many bits per UUID as suit the bits
    /// each has (``probes(bitsPerUUID:)``).
    package init(bytes: Int, for count: Int) {
        var blocks = 1
        while blocks * 64 < bytes, blocks * 128 <= Self.maximumBytes { blocks <<= 1 }
        storage = Storage(count: blocks * 8)
        blockMask = blocks - 1
        probes = Self.probes(bitsPerUUID: blocks * 512 / max(count, 1))
    }

    /// The probes (bits set per UUID) that give the fewest false positives to a filter of
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
        let folded = Storage(count: half)
        for k in 0..<half { folded.words[k] = storage.words[k] | storage.words[k + half] }
        return UUIDBloom(folded, probes: probes)
    }

    /// A filter of the given bits (a power of two of blocks), each UUID setting `probes` of them.
    private init(_ storage: Storage, probes: Int) {
        self.storage = storage
        blockMask = storage.count / 8 - 1
        self.probes = probes
    }

    /// Adds `uuid`.
    package mutating func insert(_ uuid: SampleUUID) { insert(hash: Self.mix(uuid)) }

    /// Adds the UUID whose ``mix(_:)`` is `hash` (for a caller that computed it already).
    mutating func insert(hash: UInt64) {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        var hash = hash
        let block = storage.words + (Int(truncatingIfNeeded: hash) & blockMask) * 8
        for _ in 0..<probes {
            hash = hash &* 0x9E37_79B9_7F4A_7C15 &+ 0x632B_E59B_D9B4_E019
            let bit = Int(truncatingIfNeeded: hash >> 55)
            block[bit >> 6] |= 1 << UInt64(bit & 63)
        }
    }

    /// Loads the first word of the block the UUID whose ``mix(_:)`` is `hash` tests and
    /// returns it, so the block is in the cache when ``mayContain(hash:)`` asks (see
    /// ``UUIDPositions``'s `touch`).
    func touch(hash: UInt64) -> UInt64 {
        storage.words[(Int(truncatingIfNeeded: hash) & blockMask) * 8]
    }

    /// Whether `uuid` may have been added (`false`: it certainly was not).
    package func mayContain(_ uuid: SampleUUID) -> Bool { mayContain(hash: Self.mix(uuid)) }

    /// Whether the UUID whose ``mix(_:)`` is `hash` may have been added: a caller testing
    /// one UUID against several filters hashes it once.
    func mayContain(hash start: UInt64) -> Bool {
        var hash = start
        let block = storage.words + (Int(truncatingIfNeeded: hash) & blockMask) * 8
        for _ in 0..<probes {
            hash = hash &* 0x9E37_79B9_7F4A_7C15 &+ 0x632B_E59B_D9B4_E019
            let bit = Int(truncatingIfNeeded: hash >> 55)
            if block[bit >> 6] & (1 << UInt64(bit & 63)) == 0 { return false }
        }
        return true
    }

    /// A 64-bit hash of all of the UUID's bits (the finaliser of SplitMix64 over both halves).
    static func mix(_ uuid: SampleUUID) -> UInt64 {
        SplitMix64.finalize(uuid.high ^ (uuid.low &* 0xBF58_476D_1CE4_E5B9) ^ (uuid.low >> 29))
    }
}

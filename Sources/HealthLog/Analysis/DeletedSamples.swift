/// The UUIDs of the deleted samples of a type, as ``StatisticsScan`` tests each add line
/// against them: two bits of one 64-bit word per hash of the UUID's text first (a blocked
/// Bloom filter: a line whose bits are not both set is not deleted, without parsing its
/// UUID), then the UUIDs themselves.
///
/// The hash reads the UUID text's first and last eight characters with every byte's
/// `0x20` bit set, which folds `A`–`F` onto `a`–`f` and leaves digits alone: two texts
/// that parse as the same UUID hash alike, whatever case each was written in. The 16 KiB
/// of words stay in the first-level cache, which measured faster than a larger table:
/// ten thousand deletes leave about one line in twenty-five to look up.
struct DeletedSamples {
    private var uuids = UUIDIndex()
    /// The UUIDs in the order added (for ``formUnion(_:)``).
    private var list: [SampleUUID] = []
    private var words = [UInt64](repeating: 0, count: 1 << 11)

    /// An empty set.
    init() {}

    /// Adds the UUID of the stored delete line `line`, if it has one.
    mutating func insert(_ line: UnsafeRawBufferPointer) {
        guard let at = StoredLinePrefix.uuidOffset(line, isDelete: true), let uuid = StoredLinePrefix.uuid(line, isDelete: true) else { return }
        uuids.set(uuid, 0)
        list.append(uuid)
        let (word, mask) = Self.bits(line.baseAddress! + at)
        words[word] |= mask
    }

    /// Adds the UUIDs of `other`.
    mutating func formUnion(_ other: DeletedSamples) {
        for uuid in other.list {
            uuids.set(uuid, 0)
            list.append(uuid)
        }
        for k in words.indices { words[k] |= other.words[k] }
    }

    /// Whether the stored add line `line`, whose UUID text starts at `at`
    /// (`StoredLinePrefix.uuidOffset`), is of a deleted sample, as
    /// `StoredLinePrefix.uuid(line)` looked up in the set says.
    func contains(_ line: UnsafeRawBufferPointer, uuidAt at: Int) -> Bool {
        guard uuids.count > 0 else { return false }
        let (word, mask) = Self.bits(line.baseAddress! + at)
        guard words[word] & mask == mask, let uuid = SampleUUID(utf8: UnsafeRawBufferPointer(rebasing: line[at..<at + 36])) else { return false }
        return uuids[uuid] != nil
    }

    /// The word and the two bits in it of the 36 bytes of UUID text at `text`.
    private static func bits(_ text: UnsafeRawPointer) -> (word: Int, mask: UInt64) {
        let fold: UInt64 = 0x2020_2020_2020_2020
        let head = text.loadUnaligned(as: UInt64.self) | fold
        let tail = text.loadUnaligned(fromByteOffset: 28, as: UInt64.self) | fold
        let hash = ((head &* 0x9E37_79B9_7F4A_7C15) ^ tail) &* 0xC2B2_AE3D_27D4_EB4F
        return (Int(truncatingIfNeeded: hash >> 53), 1 << (hash >> 20 & 63) | 1 << (hash >> 26 & 63))
    }
}

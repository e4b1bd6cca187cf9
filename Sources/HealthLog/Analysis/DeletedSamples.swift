/// The UUIDs of the deleted samples of a type, as ``StatisticsScan`` tests each add line
/// against them: a bit per hash of the UUID's text first (a line whose bit is clear is not
/// deleted, without parsing its UUID), then the UUIDs themselves.
///
/// The hash reads the UUID text's first and last eight characters with every byte's
/// `0x20` bit set, which folds `A`–`F` onto `a`–`f` and leaves digits alone: two texts
/// that parse as the same UUID hash alike, whatever case each was written in.
struct DeletedSamples {
    private var uuids = UUIDIndex()
    /// The UUIDs in the order added (for ``formUnion(_:)``).
    private var list: [SampleUUID] = []
    private var bits = [UInt64](repeating: 0, count: 1 << 11)

    /// An empty set.
    init() {}

    /// Adds the UUID of the stored delete line `line`, if it has one.
    mutating func insert(_ line: UnsafeRawBufferPointer) {
        guard let at = StoredLinePrefix.uuidOffset(line, isDelete: true), let uuid = StoredLinePrefix.uuid(line, isDelete: true) else { return }
        uuids.set(uuid, 0)
        list.append(uuid)
        let slot = Self.slot(line.baseAddress! + at)
        bits[slot >> 6] |= 1 << UInt64(slot & 63)
    }

    /// Adds the UUIDs of `other`.
    mutating func formUnion(_ other: DeletedSamples) {
        for uuid in other.list {
            uuids.set(uuid, 0)
            list.append(uuid)
        }
        for k in bits.indices { bits[k] |= other.bits[k] }
    }

    /// Whether the stored add line `line`, whose UUID text starts at `at`
    /// (`StoredLinePrefix.uuidOffset`), is of a deleted sample, as
    /// `StoredLinePrefix.uuid(line)` looked up in the set says.
    func contains(_ line: UnsafeRawBufferPointer, uuidAt at: Int) -> Bool {
        guard uuids.count > 0 else { return false }
        let slot = Self.slot(line.baseAddress! + at)
        guard bits[slot >> 6] & (1 << UInt64(slot & 63)) != 0, let uuid = SampleUUID(utf8: UnsafeRawBufferPointer(rebasing: line[at..<at + 36])) else { return false }
        return uuids[uuid] != nil
    }

    /// The bit of the 36 bytes of UUID text at `text`: one of 2^17. The 16 KiB stay in the
    /// first-level cache, which measured faster than a larger table with fewer false hits
    /// (ten thousand deletes leave about one line in thirteen to parse).
    private static func slot(_ text: UnsafeRawPointer) -> Int {
        let fold: UInt64 = 0x2020_2020_2020_2020
        let head = text.loadUnaligned(as: UInt64.self) | fold
        let tail = text.loadUnaligned(fromByteOffset: 28, as: UInt64.self) | fold
        return Int(truncatingIfNeeded: (((head &* 0x9E37_79B9_7F4A_7C15) ^ tail) &* 0xC2B2_AE3D_27D4_EB4F) >> 47)
    }
}

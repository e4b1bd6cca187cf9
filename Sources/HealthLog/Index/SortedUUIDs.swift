/// A set of UUIDs built once and then asked about many times: the UUIDs sorted, with where
/// the UUIDs of each top-16-bit prefix start, so a look-up searches the few of its prefix.
/// It holds 16 bytes a UUID (and 256 KiB for the starts), where a hash table of them holds
/// two to three times that, and more while it grows.
struct SortedUUIDs {
    /// The UUIDs, ascending (a UUID given twice is kept twice).
    private let uuids: [SampleUUID]
    /// For each prefix `p`, the first index of a UUID whose top 16 bits are `p` or more
    /// (one entry past the last prefix: the count).
    private let starts: [Int32]

    /// The set of `uuids` (fewer than 2³¹), taken from the caller (left empty) so they are
    /// sorted where they lie, not copied.
    init(taking uuids: inout [SampleUUID]) {
        precondition(uuids.count < Int(Int32.max), "fewer than 2^31 UUIDs")
        var sorted: [SampleUUID] = []
        swap(&sorted, &uuids)
        sorted.sort()
        var starts = [Int32](repeating: 0, count: (1 << 16) + 1)
        for uuid in sorted { starts[Int(uuid.high >> 48) + 1] += 1 }
        for p in 1..<starts.count { starts[p] += starts[p - 1] }
        self.uuids = sorted
        self.starts = starts
    }

    /// How many UUIDs the set holds.
    var count: Int { uuids.count }

    /// Whether `uuid` is in the set.
    func contains(_ uuid: SampleUUID) -> Bool {
        let prefix = Int(uuid.high >> 48)
        var low = Int(starts[prefix])
        var high = Int(starts[prefix + 1])
        while low < high {
            let middle = (low + high) / 2
            if uuids[middle] < uuid { low = middle + 1 } else { high = middle }
        }
        return low < uuids.count && uuids[low] == uuid
    }
}

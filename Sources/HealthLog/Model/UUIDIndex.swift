/// A hash map from sample UUID to a small integer, built for a hot path (the deleted
/// samples a replay hides, asked about every line): open addressing with linear probing in
/// one flat array, hashing all 128 bits with two multiplications (no hasher to seed), so
/// adding ten million samples costs no per-entry allocation and a lookup usually touches a
/// cache line or two, random UUIDs or not. It grows (doubling) past a load of 0.7, so it
/// holds 34 to 69 bytes per UUID.
struct UUIDIndex {
    private struct Slot {
        var high: UInt64 = 0
        var low: UInt64 = 0
        /// The value + 1; 0 marks an empty slot.
        var value: UInt32 = 0
    }

    private var slots: [Slot]
    private var mask: Int
    /// How many UUIDs are stored.
    private(set) var count = 0

    /// An empty index with room for `capacity` entries before it grows.
    init(capacity: Int = 1024) {
        var size = 16
        while size * 7 < capacity * 10 { size <<= 1 }
        slots = [Slot](repeating: Slot(), count: size)
        mask = size - 1
    }

    /// The slot a lookup of `uuid` starts at: the high half of a multiplicative hash of all
    /// 128 bits, so UUIDs made in sequence, or alike but for a few bits of either half,
    /// spread as random ones do.
    @inline(__always)
    private func slot(_ uuid: SampleUUID) -> Int {
        Int(truncatingIfNeeded: ((uuid.low ^ (uuid.high &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9) >> 32) & mask
    }

    /// The slot holding `uuid`, or the empty slot where it would go, and how many slots the
    /// probe read to find it: the one probe that lookups, stores and ``probes(_:)`` share.
    @inline(__always)
    private func position(of uuid: SampleUUID) -> (slot: Int, read: Int) {
        slots.withUnsafeBufferPointer { slots in
            var i = slot(uuid)
            var read = 1
            while slots[i].value != 0, slots[i].high != uuid.high || slots[i].low != uuid.low {
                i = (i + 1) & mask
                read += 1
            }
            return (i, read)
        }
    }

    /// How many slots a lookup of `uuid` reads before it finds it or an empty slot.
    func probes(_ uuid: SampleUUID) -> Int { position(of: uuid).read }

    /// The value stored for `uuid`.
    subscript(uuid: SampleUUID) -> Int? {
        let value = slots[position(of: uuid).slot].value
        return value == 0 ? nil : Int(value - 1)
    }

    /// Stores `value` (below 2³² − 1) for `uuid`, replacing any earlier value.
    mutating func set(_ uuid: SampleUUID, _ value: Int) {
        if (count + 1) * 10 > slots.count * 7 { grow() }
        let i = position(of: uuid).slot
        if slots[i].value == 0 {
            slots[i] = Slot(high: uuid.high, low: uuid.low, value: UInt32(value + 1))
            count += 1
        } else {
            slots[i].value = UInt32(value + 1)
        }
    }

    private mutating func grow() {
        var bigger = UUIDIndex(capacity: slots.count * 7 / 5)
        for slot in slots where slot.value != 0 {
            bigger.set(SampleUUID(high: slot.high, low: slot.low), Int(slot.value - 1))
        }
        self = bigger
    }
}

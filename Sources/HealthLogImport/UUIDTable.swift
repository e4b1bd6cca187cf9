import HealthLog

/// A set of sample UUIDs that only grows, for the import's writer (the UUIDs its earlier
/// appends were given): open addressing over a power-of-two table, each UUID placed by a
/// multiply of its bits rather than by `Set`'s SipHash, which took a tenth of the appends'
/// time. The import's UUIDs are SHA-256-derived, so their bits are uniform already; the
/// multiply spreads any others.
struct UUIDTable {
    /// The slots, none until the first UUID is inserted; the all-zero UUID marks an empty
    /// one (that UUID itself is ``hasZero``).
    private var slots: [SampleUUID] = []
    /// How many slots the first insert makes: a power of two.
    private let initialSlots: Int
    /// Whether the all-zero UUID is in the set.
    private var hasZero = false
    /// How many UUIDs the set holds.
    private(set) var count = 0

    /// An empty set with room for `capacity` UUIDs before it grows, made at the first
    /// insert (an import that appends nothing never allocates it).
    init(capacity: Int = 0) {
        var size = 16
        while size < capacity * 2 { size *= 2 }
        initialSlots = size
    }

    /// The UUID that marks an empty slot.
    private static let empty = SampleUUID(high: 0, low: 0)

    /// Whether `uuid` is in the set.
    func contains(_ uuid: SampleUUID) -> Bool {
        if uuid == Self.empty { return hasZero }
        guard !slots.isEmpty else { return false }
        let mask = slots.count - 1
        var at = Self.slot(of: uuid, mask: mask)
        while true {
            let held = slots[at]
            if held == uuid { return true }
            if held == Self.empty { return false }
            at = (at + 1) & mask
        }
    }

    /// Adds `uuid` (nothing when it is in the set already).
    mutating func insert(_ uuid: SampleUUID) {
        if uuid == Self.empty {
            if !hasZero { count += 1 }
            hasZero = true
            return
        }
        if slots.isEmpty { slots = Array(repeating: Self.empty, count: initialSlots) }
        if (count + 1) * 2 > slots.count { grow() }
        let mask = slots.count - 1
        var at = Self.slot(of: uuid, mask: mask)
        while true {
            let held = slots[at]
            if held == uuid { return }
            if held == Self.empty {
                slots[at] = uuid
                count += 1
                return
            }
            at = (at + 1) & mask
        }
    }

    /// Doubles the table, placing every UUID again.
    private mutating func grow() {
        let old = slots
        slots = Array(repeating: Self.empty, count: old.count * 2)
        let mask = slots.count - 1
        for uuid in old where uuid != Self.empty {
            var at = Self.slot(of: uuid, mask: mask)
            while slots[at] != Self.empty { at = (at + 1) & mask }
            slots[at] = uuid
        }
    }

    /// The slot `uuid` is looked for from.
    private static func slot(of uuid: SampleUUID, mask: Int) -> Int {
        Int(truncatingIfNeeded: ((uuid.high ^ (uuid.low &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9) >> 32) & mask
    }
}

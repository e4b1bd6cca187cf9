/// Where each UUID of an array the caller keeps lies in it: a hash from UUID to position
/// for the writer's per-chunk bookkeeping (``AppendedUUIDs``) and the import's set of the
/// UUIDs its appends were given, in 8 bytes a slot (a 32-bit
/// tag of the UUID and the position), a third of ``UUIDIndex``'s 24, so the table of a
/// chunk of 2¹⁸ UUIDs takes 4 MB and a lookup of a UUID not in it — the writer's usual
/// question — touches less memory. A tag that matches is confirmed against the array.
package struct UUIDPositions {
    /// Tag in the high 32 bits, position + 1 in the low 32 (0: an empty slot).
    private var slots: [UInt64]
    /// The number of slots minus one (a power of two minus one).
    private var mask: Int
    /// How many UUIDs it holds.
    package private(set) var count = 0
    /// How many times the slots changed (inserts, growth, emptying), which tells a
    /// ``Probe`` made before a change.
    private var changes = 0

    /// An empty table with room for `capacity` UUIDs before it grows.
    package init(capacity: Int) {
        var size = 16
        while size * 7 < capacity * 10 { size <<= 1 }
        slots = [UInt64](repeating: 0, count: size)
        mask = size - 1
    }

    /// The slot a lookup of `uuid` starts at (from the high half of a multiplicative hash of
    /// all 128 bits, so UUIDs that differ only in a few low bits spread too), and its tag
    /// (the low half, in the slot's high 32 bits).
    @inline(__always)
    private func place(_ uuid: SampleUUID) -> (slot: Int, tag: UInt64) {
        let h = (uuid.low ^ (uuid.high &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
        return (Int(truncatingIfNeeded: h >> 32) & mask, h << 32)
    }

    /// Loads the slot a lookup of `uuid` starts at and returns it: a caller that touches
    /// the slots of the next few UUIDs before looking them up has their cache misses
    /// overlap, where lookups one at a time between other work wait for each in turn.
    func touch(_ uuid: SampleUUID) -> UInt64 {
        slots.withUnsafeBufferPointer { $0[place(uuid).slot] }
    }

    /// Empties the table, keeping its slots' memory (refilling fresh memory of this size
    /// costs a page fault per 4 KB).
    mutating func removeAll() {
        slots.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        count = 0
        changes += 1
    }

    /// The position of `uuid` in `uuids`, or `nil`.
    package func position(of uuid: SampleUUID, in uuids: [SampleUUID]) -> Int? {
        let (start, tag) = place(uuid)
        return slots.withUnsafeBufferPointer { slots in
            var i = start
            while slots[i] != 0 {
                if slots[i] & 0xFFFF_FFFF_0000_0000 == tag, uuids[Int(slots[i] & 0xFFFF_FFFF) - 1] == uuid {
                    return Int(slots[i] & 0xFFFF_FFFF) - 1
                }
                i = (i + 1) & mask
            }
            return nil
        }
    }

    /// Where a lookup of a UUID ended: its position in the caller's array, or (`nil`) the
    /// empty slot an insert of it takes, valid until the table next changes.
    package struct Probe {
        /// The UUID's position, or `nil` when it is not in the table.
        package let position: Int?
        /// The empty slot the probe stopped at (when `position` is `nil`).
        fileprivate let slot: Int
        /// The UUID's tag, as stored in a slot.
        fileprivate let tag: UInt64
        /// The table's ``UUIDPositions/changes`` when probed.
        fileprivate let changes: Int
    }

    /// The lookup of `uuid` in `uuids`, with where an insert of it would go: a caller that
    /// looks a UUID up and then adds it (``insert(_:at:)``) probes the table once.
    package func probe(_ uuid: SampleUUID, in uuids: [SampleUUID]) -> Probe {
        let (start, tag) = place(uuid)
        return slots.withUnsafeBufferPointer { slots in
            var i = start
            while slots[i] != 0 {
                if slots[i] & 0xFFFF_FFFF_0000_0000 == tag, uuids[Int(slots[i] & 0xFFFF_FFFF) - 1] == uuid {
                    return Probe(position: Int(slots[i] & 0xFFFF_FFFF) - 1, slot: i, tag: tag, changes: changes)
                }
                i = (i + 1) & mask
            }
            return Probe(position: nil, slot: i, tag: tag, changes: changes)
        }
    }

    /// Records the UUID `probe` did not find at `position` (below 2³² − 1; the caller then
    /// puts it there), in the slot the probe stopped at when the table is unchanged since
    /// and has room; `false` (nothing recorded) otherwise: the caller then uses
    /// ``insertIfAbsent(_:at:in:)``.
    package mutating func insert(_ probe: Probe, at position: Int) -> Bool {
        guard probe.position == nil, probe.changes == changes, (count + 1) * 10 <= slots.count * 7 else { return false }
        slots[probe.slot] = probe.tag | UInt64(position + 1)
        count += 1
        changes += 1
        return true
    }

    /// The position of `uuid` in `uuids`; when it is not there, records it at `position`
    /// (below 2³² − 1; the caller then puts it there) and returns `nil`.
    package mutating func insertIfAbsent(_ uuid: SampleUUID, at position: Int, in uuids: [SampleUUID]) -> Int? {
        if (count + 1) * 10 > slots.count * 7 { grow(uuids) }
        let (start, tag) = place(uuid)
        var i = start
        while slots[i] != 0 {
            if slots[i] & 0xFFFF_FFFF_0000_0000 == tag, uuids[Int(slots[i] & 0xFFFF_FFFF) - 1] == uuid {
                return Int(slots[i] & 0xFFFF_FFFF) - 1
            }
            i = (i + 1) & mask
        }
        slots[i] = tag | UInt64(position + 1)
        count += 1
        changes += 1
        return nil
    }

    /// Doubles the table, placing every UUID again (`uuids` holds them all).
    private mutating func grow(_ uuids: [SampleUUID]) {
        var bigger = UUIDPositions(capacity: slots.count * 7 / 5)
        for slot in slots where slot != 0 {
            let position = Int(slot & 0xFFFF_FFFF) - 1
            _ = bigger.insertIfAbsent(uuids[position], at: position, in: uuids)
        }
        bigger.changes = changes + 1
        self = bigger
    }
}

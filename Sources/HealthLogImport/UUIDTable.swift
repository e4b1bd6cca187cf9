import HealthLog

/// A set of sample UUIDs that only grows, for the import's count of correlation members
/// also found at top level: the UUIDs in insertion order, found through the writer's
/// ``UUIDPositions`` hash rather than `Set`'s SipHash.
struct UUIDTable {
    /// The UUIDs, in the order they were inserted.
    private var uuids: [SampleUUID] = []
    /// Where each of ``uuids`` lies; made at the first insert (an import that appends
    /// nothing never allocates it).
    private var positions: UUIDPositions?
    /// How many UUIDs the first insert makes room for.
    private let initialCapacity: Int

    /// An empty set with room for `capacity` UUIDs before it grows, made at the first insert.
    init(capacity: Int = 0) {
        initialCapacity = capacity
    }

    /// How many UUIDs the set holds.
    var count: Int { uuids.count }

    /// Whether `uuid` is in the set.
    func contains(_ uuid: SampleUUID) -> Bool {
        positions?.position(of: uuid, in: uuids) != nil
    }

    /// Adds `uuid` (nothing when it is in the set already).
    mutating func insert(_ uuid: SampleUUID) {
        if positions == nil {
            positions = UUIDPositions(capacity: initialCapacity)
            uuids.reserveCapacity(initialCapacity)
        }
        if positions!.insertIfAbsent(uuid, at: uuids.count, in: uuids) == nil { uuids.append(uuid) }
    }
}

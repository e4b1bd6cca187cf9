import HealthLog

/// A set of sample UUIDs that only grows, for the import's count of correlation members
/// also found at top level (``CorrelationMembers``) and `--mirror`'s sweep
/// (``MirrorSweep``): the UUIDs in insertion order, found through the writer's
/// ``UUIDPositions`` hash rather than `Set`'s SipHash. Both hold a share of their UUIDs at a
/// time (``share(of:among:)``), so memory stays bounded.
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
        position(of: uuid) != nil
    }

    /// The order in which `uuid` was inserted (from 0), or `nil` when it is not in the set.
    func position(of uuid: SampleUUID) -> Int? {
        positions?.position(of: uuid, in: uuids)
    }

    /// Adds `uuid` (nothing when it is in the set already) and returns its position.
    @discardableResult
    mutating func insert(_ uuid: SampleUUID) -> Int {
        if positions == nil {
            positions = UUIDPositions(capacity: initialCapacity)
            uuids.reserveCapacity(initialCapacity)
        }
        if let earlier = positions!.insertIfAbsent(uuid, at: uuids.count, in: uuids) { return earlier }
        uuids.append(uuid)
        return uuids.count - 1
    }

    /// The share `uuid` falls in when UUIDs are split into `shares` (from 0), by a hash of
    /// its bits: about as many UUIDs in each (all in share 0 when there is one, unhashed).
    static func share(of uuid: SampleUUID, among shares: Int) -> Int {
        guard shares > 1 else { return 0 }
        return Int(truncatingIfNeeded: (uuid.high &* 0x9E37_79B9_7F4A_7C15 ^ uuid.low) % UInt64(shares))
    }

    /// The shares `count` UUIDs are split into for tables of at most `perShare` (at least one).
    static func shares(for count: Int, perShare: Int) -> Int {
        max(1, (count + perShare - 1) / perShare)
    }
}

/// One ``UUIDBloom`` per chunk of events an append wrote out as a partial UUID run, by the
/// chunk's sequence numbers, so a lookup that the append's filter of every written UUID
/// passes reads on disk only the partial runs whose chunks may hold the UUID: a delete
/// probes the run holding its add and, past it, only runs whose chunks test positive,
/// instead of every run newer than the add; a false positive costs one run, not all.
///
/// A run made by merging partial runs is tested through the filters of its chunks (a run
/// covers whole chunks), so a merge builds no filter. The filters together stay within a
/// byte budget: when one more would pass it, every filter is halved
/// (``UUIDBloom/halved()``, the same UUIDs in half the bits) and so is each made after,
/// so memory stays bounded whatever the append's size and only the rate of false
/// positives grows.
struct UUIDChunkFilters {
    /// The budget by default: as much as the append's filter of every written UUID takes
    /// at most (16 bits per UUID up to about 4.2 million UUIDs, fewer past them).
    static let defaultBudget = UUIDBloom.maximumBytes

    /// The first sequence number of each chunk, ascending; chunks are adjacent.
    private var froms: [UInt64] = []
    /// The last sequence number of each chunk.
    private var tos: [UInt64] = []
    /// The UUIDs of each chunk.
    private var filters: [UUIDBloom] = []
    /// The most bytes the filters take together.
    private let budget: Int
    /// How many times each new filter is halved (once more every time the budget is passed).
    private var halvings = 0
    /// The bytes the filters take.
    private(set) var byteCount = 0

    /// No chunks yet; the filters will take at most `budget` bytes (at least a block each).
    init(budget: Int = Self.defaultBudget) {
        self.budget = budget
    }

    /// How many chunks it holds.
    var count: Int { filters.count }

    /// Adds the chunk of the events `from...to` (starting right after the chunk added
    /// before), which name `uuids`.
    mutating func add(_ uuids: [SampleUUID], from: UInt64, through to: UInt64) {
        precondition(from <= to && (tos.last.map { $0 + 1 == from } ?? true), "chunks are adjacent and added in sequence order")
        var filter = UUIDBloom(capacity: uuids.count)
        for _ in 0..<halvings { filter = filter.halved() }
        for uuid in uuids { filter.insert(uuid) }
        while byteCount + filter.byteCount > budget, filter.byteCount > 64 {
            halvings += 1
            filters = filters.map { $0.halved() }
            filter = filter.halved()
            byteCount = filters.reduce(0) { $0 + $1.byteCount }
        }
        froms.append(from)
        tos.append(to)
        filters.append(filter)
        byteCount += filter.byteCount
    }

    /// Loads the block each chunk's filter tests for the UUID whose ``UUIDBloom/mix(_:)``
    /// is `hash` (see ``UUIDBloom/touch(hash:)``): for a UUID whose lookup will test many
    /// chunks (a delete's, newest first back to its add), so their cache misses overlap.
    func touch(hash: UInt64) -> UInt64 {
        var touched: UInt64 = 0
        for filter in filters { touched ^= filter.touch(hash: hash) }
        return touched
    }

    /// Whether a UUID whose ``UUIDBloom/mix(_:)`` is `hash` may be named by the events
    /// `range` (`false`: certainly not). `true` unless chunks added here cover exactly
    /// `range` and none of them tests positive.
    func mayContain(hash: UInt64, within range: ClosedRange<UInt64>) -> Bool {
        var low = 0
        var high = froms.count
        while low < high {
            let mid = (low + high) / 2
            if froms[mid] < range.lowerBound { low = mid + 1 } else { high = mid }
        }
        guard low < froms.count, froms[low] == range.lowerBound else { return true }
        var k = low
        while k < tos.count, tos[k] <= range.upperBound {
            if filters[k].mayContain(hash: hash) { return true }
            if tos[k] == range.upperBound { return false }
            k += 1
        }
        // The chunks do not end where the range does: they say nothing of its last events.
        return true
    }
}

/// One ``UUIDBloom`` per partial UUID run of an append (``UUIDRunBuilder``), by the run's
/// sequence numbers, so a lookup that the append's filter of every written UUID passes
/// reads on disk only the partial runs that may hold the UUID: a delete probes the run
/// holding its add and, past it, only runs whose filters test positive, instead of every
/// run newer than the add; a false positive costs one run, not all.
///
/// A chunk written out gets a filter of its own, of 16 bits per UUID; a merge of runs gets
/// one filter built from the merged entries (``replace(_:with:)``), a quarter of the bytes
/// of its parts' (``mergedBitsPerUUID``), so a lookup tests one filter per run, not one per
/// chunk. Few lookups reach the oldest runs (a delete tests runs newest first and stops at
/// its add's), so their filters can err more. The filters together stay within a byte
/// budget: when one more would pass it, the largest filter (the oldest, of equals) is
/// halved (``UUIDBloom/halved()``, the same UUIDs in half the bits) until it fits, so
/// memory stays bounded whatever the append's size and only the rate of false positives
/// grows, in the oldest runs' filters first.
struct UUIDChunkFilters {
    /// The budget by default: as much as the append's filter of every written UUID takes
    /// at most (16 bits per UUID up to about 4.2 million UUIDs, fewer past them).
    static let defaultBudget = UUIDBloom.maximumBytes

    /// The first sequence number of each run, ascending; runs are adjacent.
    private var froms: [UInt64] = []
    /// The last sequence number of each run.
    private var tos: [UInt64] = []
    /// The UUIDs of each run.
    private var filters: [UUIDBloom] = []
    /// The most bytes the filters take together.
    private let budget: Int
    /// The bits per UUID of a merged run's filter: with as many probes as suit them
    /// (``UUIDBloom/probes(bitsPerUUID:)``), about 15% of absent UUIDs test positive.
    static let mergedBitsPerUUID = 4
    /// The bytes the filters take.
    private(set) var byteCount = 0

    /// No chunks yet; the filters will take at most `budget` bytes (at least a block each).
    init(budget: Int = Self.defaultBudget) {
        self.budget = budget
    }

    /// How many filters it holds.
    var count: Int { filters.count }

    /// The bytes of the filters of exactly the events `range` (0 unless whole filters held
    /// here cover it).
    func byteCount(within range: ClosedRange<UInt64>) -> Int {
        guard let first = froms.firstIndex(of: range.lowerBound), let last = tos.firstIndex(of: range.upperBound), first <= last else { return 0 }
        return filters[first...last].reduce(0) { $0 + $1.byteCount }
    }

    /// Puts `filter`, of the UUIDs of the events `range` (a merged run of the runs whose
    /// filters cover it exactly), in place of those filters, halved until it takes no more
    /// bytes than they do, so the budget holds; nothing changes when the filters held do
    /// not cover `range` exactly.
    mutating func replace(_ range: ClosedRange<UInt64>, with filter: UUIDBloom) {
        guard let first = froms.firstIndex(of: range.lowerBound), let last = tos.firstIndex(of: range.upperBound), first <= last else { return }
        var filter = filter
        while filter.byteCount > byteCount(within: range), filter.byteCount > 64 { filter = filter.halved() }
        froms.replaceSubrange(first...last, with: [range.lowerBound])
        tos.replaceSubrange(first...last, with: [range.upperBound])
        filters.replaceSubrange(first...last, with: [filter])
        byteCount = filters.reduce(0) { $0 + $1.byteCount }
    }

    /// Adds the chunk of the events `from...to` (starting right after the chunk added
    /// before), which name `uuids`.
    mutating func add<UUIDs: Collection<SampleUUID>>(_ uuids: UUIDs, from: UInt64, through to: UInt64) {
        precondition(from <= to && (tos.last.map { $0 + 1 == from } ?? true), "chunks are adjacent and added in sequence order")
        var filter = UUIDBloom(capacity: uuids.count)
        for uuid in uuids { filter.insert(uuid) }
        while byteCount + filter.byteCount > budget {
            guard let largest = filters.indices.max(by: { filters[$0].byteCount < filters[$1].byteCount }),
                filters[largest].byteCount >= filter.byteCount
            else {
                guard filter.byteCount > 64 else { break }
                filter = filter.halved()
                continue
            }
            guard filters[largest].byteCount > 64 else { break }
            byteCount -= filters[largest].byteCount / 2
            filters[largest] = filters[largest].halved()
        }
        froms.append(from)
        tos.append(to)
        filters.append(filter)
        byteCount += filter.byteCount
    }

    /// Loads the block each run's filter tests for the UUID whose ``UUIDBloom/mix(_:)``
    /// is `hash` (see ``UUIDBloom/touch(hash:)``): for a UUID whose lookup will test many
    /// runs (a delete's, newest first back to its add), so their cache misses overlap.
    func touch(hash: UInt64) -> UInt64 {
        var touched: UInt64 = 0
        for filter in filters { touched ^= filter.touch(hash: hash) }
        return touched
    }

    /// Whether a UUID whose ``UUIDBloom/mix(_:)`` is `hash` may be named by the events
    /// `range` (`false`: certainly not). `true` unless filters held here cover exactly
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

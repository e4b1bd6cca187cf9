/// The events a compaction drops, sorted by sequence number: 32 bytes each, where a
/// dictionary by number took about twice that with its table (a compaction of a
/// 10M-event store drops some 600,000).
struct DroppedEvents {
    /// The events, ascending by sequence number, each once.
    private let events: [BatchHeader.Dropped]

    /// None.
    init() { events = [] }

    /// `events`, in any order, taken (left empty) and sorted in place; a number given twice
    /// is kept once.
    init(sorting events: inout [BatchHeader.Dropped]) {
        var sorted: [BatchHeader.Dropped] = []
        swap(&sorted, &events)
        sorted.sort { $0.seq < $1.seq }
        var kept = 0
        for i in sorted.indices where kept == 0 || sorted[kept - 1].seq != sorted[i].seq {
            sorted[kept] = sorted[i]
            kept += 1
        }
        sorted.removeLast(sorted.count - kept)
        self.events = sorted
    }

    /// How many there are.
    var count: Int { events.count }

    /// Whether there are none.
    var isEmpty: Bool { events.isEmpty }

    /// Those numbered within `seqs`, ascending.
    func within(_ seqs: ClosedRange<UInt64>) -> ArraySlice<BatchHeader.Dropped> {
        var low = 0
        var high = events.count
        while low < high {
            let mid = (low + high) / 2
            if events[mid].seq < seqs.lowerBound { low = mid + 1 } else { high = mid }
        }
        var end = low
        while end < events.count, events[end].seq <= seqs.upperBound { end += 1 }
        return events[low..<end]
    }
}

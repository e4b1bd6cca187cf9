/// The whole headers (dropped lists and all) ``LogSnapshot/fullHeader(of:)`` read last, by
/// where their batch lies, up to ``budget`` bytes of lists: those who read the lists mostly
/// read one batch's several times in a row, and a writer's UUID lookups, which may come in
/// any order, come back to a few batches. The oldest goes first.
struct WholeHeaders {
    /// Where a batch lies: its segment's number in the snapshot and its offset.
    private struct Place: Hashable {
        let segment: Int
        let offset: Int
    }

    /// The most bytes of headers kept, counted as their dropped lists and
    /// ``headerBytes`` each; one header larger than that is kept alone.
    static let budget = 1 << 20
    /// What a header is counted as beside its list: its fields and group entries, so many
    /// headers of short lists stay within the budget too.
    static let headerBytes = 512

    private var headers: [Place: BatchHeader] = [:]
    /// The places in the order their headers were kept, from ``oldest`` on (those before it
    /// went, and are dropped from the array once they are half of it).
    private var order: [Place] = []
    private var oldest = 0
    private var bytes = 0

    /// The header kept for the batch at `offset` of segment `segment`, if any.
    func header(segment: Int, offset: Int) -> BatchHeader? {
        headers[Place(segment: segment, offset: offset)]
    }

    /// Keeps `header`, the batch's at `offset` of segment `segment`, letting the oldest
    /// go while the lists pass the budget.
    mutating func keep(_ header: BatchHeader, segment: Int, offset: Int) {
        let place = Place(segment: segment, offset: offset)
        guard headers.updateValue(header, forKey: place) == nil else { return }
        order.append(place)
        bytes += Self.size(header)
        while bytes > Self.budget, order.count - oldest > 1 {
            bytes -= headers.removeValue(forKey: order[oldest]).map(Self.size) ?? 0
            oldest += 1
        }
        if oldest * 2 > order.count {
            order.removeFirst(oldest)
            oldest = 0
        }
    }

    private static func size(_ header: BatchHeader) -> Int {
        headerBytes + header.dropped.count * BatchHeader.DroppedList.stride
    }
}

/// Merges the samples of a cumulative type from several sources as HealthKit's statistics
/// queries do: time is cut into stretches at every sample's start and end and every
/// interval boundary; each stretch counts once, from the highest-priority source with a
/// sample covering it, and a sample that lies partly in a stretch (or an interval) counts
/// in proportion to the part of its duration that lies there. Within one source, samples
/// that overlap all count. A sample without duration counts whole, in the interval of its
/// instant, unless a source of higher priority covers that instant.
///
/// The samples come one at a time by start (``add(_:)``), so the merge holds only those
/// covering the current instant; the answer depends only on the samples and their
/// ``Piece/order``, never on how they were gathered.
struct CumulativeMerge {
    /// One sample: its time span in µs, its value in the query's unit, its place among
    /// the samples (unique; ties of start, and of end, go in this order), its source and
    /// the clock its intervals follow (an index the caller's ``bounds`` knows; 0 when every
    /// sample follows one clock).
    struct Piece {
        var start: Int64
        var end: Int64
        var value: Double
        var order: Int
        var source: Int32
        var clock: Int32 = 0

        /// Whether it goes before `other`: by start, then order.
        @inline(__always)
        func precedes(_ other: Piece) -> Bool {
            start < other.start || (start == other.start && order < other.order)
        }
    }

    /// A sample that covers the current instant, by end then order.
    private struct Ending {
        var end: Int64
        var order: Int
        var rank: Int
    }

    /// The intervals' bounds: the interval holding an instant on a clock, `[start, end)`.
    private let bounds: (Int64, Int) -> LocalInterval
    /// The rank of each source (0 is the highest priority).
    private let rankOf: [Int]
    /// Called with each interval and a value kept there.
    private let kept: (LocalInterval, Double) -> Void
    /// Called with each interval and the µs of it that some sample covers.
    private let covered: (LocalInterval, Int64) -> Void
    /// The samples covering the current instant, by rank, in the order they came (a
    /// sample that ends takes the last one's place).
    private var active: [[Piece]]
    /// How many samples ``active`` holds.
    private var activeCount = 0
    /// When the samples in ``active`` end.
    private var ends = MinHeap<Ending> { ($0.end, $0.order) < ($1.end, $1.order) }
    /// The samples that start at ``groupStart``, not taken in yet.
    private var group: [Piece] = []
    /// The start of the samples in ``group``.
    private var groupStart = Int64.min
    /// The last instant counted up to.
    private var previous = Int64.min
    /// The interval found last (samples come in time order, so the next instant most often
    /// falls in it too).
    private var last: (clock: Int, interval: LocalInterval)?

    /// A merge of samples whose sources rank as `rankOf` says, cutting time at the
    /// intervals of `bounds`, calling `kept` and `covered` as it goes.
    init(
        bounds: @escaping (Int64, Int) -> LocalInterval, rankOf: [Int], kept: @escaping (LocalInterval, Double) -> Void,
        covered: @escaping (LocalInterval, Int64) -> Void
    ) {
        self.bounds = bounds
        self.rankOf = rankOf
        self.kept = kept
        self.covered = covered
        active = Array(repeating: [], count: (rankOf.max() ?? 0) + 1)
    }

    /// Takes the next sample: none before it by ``Piece/precedes(_:)`` comes later.
    mutating func add(_ piece: Piece) {
        if piece.start != groupStart {
            precondition(group.isEmpty || piece.start > groupStart, "merge samples come by start")
            settle()
            groupStart = piece.start
        }
        group.append(piece)
    }

    /// Counts what is left once every sample has come.
    mutating func finish() {
        settle()
        while let next = ends.min { step(to: next.end) }
    }

    /// Counts up to ``groupStart`` and takes in the samples starting there.
    private mutating func settle() {
        guard !group.isEmpty else { return }
        while let next = ends.min, next.end < groupStart { step(to: next.end) }
        step(to: groupStart)
    }

    /// Counts the stretch from ``previous`` to `t`, lets the samples ending at `t` go and
    /// takes in ``group`` when it starts at `t`.
    private mutating func step(to t: Int64) {
        if activeCount > 0, previous < t, let winner = active.firstIndex(where: { !$0.isEmpty }) {
            account(previous, t, active[winner])
        }
        while let next = ends.min, next.end == t {
            ends.pop()
            if let at = active[next.rank].firstIndex(where: { $0.order == next.order }) {
                active[next.rank].swapAt(at, active[next.rank].count - 1)
            }
            active[next.rank].removeLast()
            activeCount -= 1
        }
        if !group.isEmpty, groupStart == t {
            var points: [Piece] = []
            for piece in group {
                let rank = rankOf[Int(piece.source)]
                if piece.end > piece.start {
                    active[rank].append(piece)
                    ends.push(Ending(end: piece.end, order: piece.order, rank: rank))
                    activeCount += 1
                } else {
                    points.append(piece)
                }
            }
            group.removeAll(keepingCapacity: true)
            if !points.isEmpty {
                let coveredBy = active.firstIndex(where: { !$0.isEmpty }) ?? Int.max
                let best = min(coveredBy, points.map { rankOf[Int($0.source)] }.min() ?? .max)
                for piece in points where rankOf[Int(piece.source)] == best { kept(interval(t, Int(piece.clock)), piece.value) }
            }
        }
        previous = t
    }

    /// Counts the stretch `[from, to)`, covered by `samples` of the winning source, split at
    /// the interval boundaries of each sample's clock (the first sample's for the coverage).
    private mutating func account(_ from: Int64, _ to: Int64, _ samples: [Piece]) {
        let clock = Int(samples[0].clock)
        let oneClock = samples.allSatisfy { Int($0.clock) == clock }
        var a = from
        while a < to {
            let here = interval(a, clock)
            let b = min(to, here.end)
            if oneClock {
                for sample in samples { kept(here, Self.share(of: sample, a, b)) }
            }
            covered(here, b - a)
            a = b
        }
        guard !oneClock else { return }
        for sample in samples {
            a = from
            while a < to {
                let here = interval(a, Int(sample.clock))
                let b = min(to, here.end)
                kept(here, Self.share(of: sample, a, b))
                a = b
            }
        }
    }

    /// The part of `sample`'s value that lies in `[a, b)`.
    private static func share(of sample: Piece, _ a: Int64, _ b: Int64) -> Double {
        let duration = sample.end - sample.start
        return b - a == duration ? sample.value : sample.value * Double(b - a) / Double(duration)
    }

    /// The interval holding `instant` on `clock`, through ``last``.
    private mutating func interval(_ instant: Int64, _ clock: Int) -> LocalInterval {
        if let last, last.clock == clock, instant >= last.interval.start, instant < last.interval.end { return last.interval }
        let found = bounds(instant, clock)
        last = (clock, found)
        return found
    }
}

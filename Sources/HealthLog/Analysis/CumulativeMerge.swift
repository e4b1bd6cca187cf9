/// Merges the samples of a cumulative type from several sources as HealthKit's statistics
/// queries do: time is cut into stretches at every sample's start and end and every
/// interval boundary; each stretch counts once, from the highest-priority source with a
/// sample covering it, and a sample that lies partly in a stretch (or an interval) counts
/// in proportion to the part of its duration that lies there. Within one source, samples
/// that overlap all count. A sample without duration counts whole, in the interval of its
/// instant, unless a source of higher priority covers that instant.
struct CumulativeMerge {
    /// One sample: its time span in µs, its value in the query's unit, and the rank of its
    /// source (0 is the highest priority).
    struct Piece {
        var start: Int64
        var end: Int64
        var value: Double
        var rank: Int
    }

    /// The intervals' bounds: the interval holding an instant, `[start, end)`.
    let bounds: (Int64) -> (start: Int64, end: Int64)

    /// Runs the merge over `pieces` (`ranks` distinct ranks), calling `kept` with each
    /// interval start and a value kept there, and `covered` with each interval start and
    /// the µs of it that some sample covers.
    func run(_ pieces: [Piece], ranks: Int, kept: (Int64, Double) -> Void, covered: (Int64, Int64) -> Void) {
        var edges: [(time: Int64, isStart: Bool, index: Int)] = []
        edges.reserveCapacity(pieces.count * 2)
        var points: [Int] = []
        for (index, piece) in pieces.enumerated() {
            if piece.end > piece.start {
                edges.append((piece.start, true, index))
                edges.append((piece.end, false, index))
            } else {
                points.append(index)
            }
        }
        edges.sort { ($0.time, $0.isStart ? 1 : 0) < ($1.time, $1.isStart ? 1 : 0) }
        points.sort { pieces[$0].start < pieces[$1].start }
        var active = Array(repeating: [Int](), count: ranks)
        var activeCount = 0
        var previous = Int64.min
        var e = 0
        var p = 0
        while e < edges.count || p < points.count {
            let t = min(e < edges.count ? edges[e].time : .max, p < points.count ? pieces[points[p]].start : .max)
            if activeCount > 0, previous < t, let winner = active.firstIndex(where: { !$0.isEmpty }) {
                account(previous, t, active[winner].map { pieces[$0] }, kept: kept, covered: covered)
            }
            while e < edges.count, edges[e].time == t, !edges[e].isStart {
                let index = edges[e].index
                let rank = pieces[index].rank
                if let at = active[rank].firstIndex(of: index) { active[rank].swapAt(at, active[rank].count - 1) }
                active[rank].removeLast()
                activeCount -= 1
                e += 1
            }
            while e < edges.count, edges[e].time == t, edges[e].isStart {
                active[pieces[edges[e].index].rank].append(edges[e].index)
                activeCount += 1
                e += 1
            }
            var here: [Int] = []
            while p < points.count, pieces[points[p]].start == t {
                here.append(points[p])
                p += 1
            }
            if !here.isEmpty {
                let coveredBy = active.firstIndex(where: { !$0.isEmpty }) ?? Int.max
                let best = min(coveredBy, here.map { pieces[$0].rank }.min() ?? .max)
                let interval = bounds(t).start
                for index in here where pieces[index].rank == best { kept(interval, pieces[index].value) }
            }
            previous = t
        }
    }

    /// Counts the stretch `[from, to)`, covered by `samples` of the winning source, split at
    /// interval boundaries.
    private func account(
        _ from: Int64, _ to: Int64, _ samples: [Piece], kept: (Int64, Double) -> Void, covered: (Int64, Int64) -> Void
    ) {
        var a = from
        while a < to {
            let interval = bounds(a)
            let b = min(to, interval.end)
            for sample in samples {
                let duration = sample.end - sample.start
                kept(interval.start, b - a == duration ? sample.value : sample.value * Double(b - a) / Double(duration))
            }
            covered(interval.start, b - a)
            a = b
        }
    }
}

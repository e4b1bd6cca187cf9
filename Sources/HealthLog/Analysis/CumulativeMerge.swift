/// Merges the samples of a cumulative type from several sources as HealthKit's statistics
/// queries do: time is cut into stretches at every sample's start and end and every
/// interval boundary; each stretch counts once, from the highest-priority source with a
/// sample covering it, and a sample that lies partly in a stretch (or an interval) counts
/// in proportion to the part of its duration that lies there. Within one source, samples
/// that overlap all count. A sample without duration counts whole, in the interval of its
/// instant, unless a source of higher priority covers that instant.
struct CumulativeMerge {
    /// One sample: its time span in µs, its value in the query's unit, the rank of its
    /// source (0 is the highest priority) and the clock its intervals follow (an index the
    /// caller's ``bounds`` knows; 0 when every sample follows one clock).
    struct Piece {
        var start: Int64
        var end: Int64
        var value: Double
        var rank: Int
        var clock = 0
    }

    /// The intervals' bounds: the interval holding an instant on a clock, `[start, end)`.
    let bounds: (Int64, Int) -> LocalInterval

    /// Runs the merge over `pieces` (`ranks` distinct ranks), calling `kept` with each
    /// interval and a value kept there, and `covered` with each interval and the µs of it
    /// that some sample covers.
    func run(_ pieces: [Piece], ranks: Int, kept: (LocalInterval, Double) -> Void, covered: (LocalInterval, Int64) -> Void) {
        var last: (clock: Int, interval: LocalInterval)?
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
                account(previous, t, active[winner].map { pieces[$0] }, &last, kept: kept, covered: covered)
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
                for index in here where pieces[index].rank == best { kept(interval(t, pieces[index].clock, &last), pieces[index].value) }
            }
            previous = t
        }
    }

    /// Counts the stretch `[from, to)`, covered by `samples` of the winning source, split at
    /// the interval boundaries of each sample's clock (the first sample's for the coverage).
    private func account(
        _ from: Int64, _ to: Int64, _ samples: [Piece], _ last: inout (clock: Int, interval: LocalInterval)?, kept: (LocalInterval, Double) -> Void,
        covered: (LocalInterval, Int64) -> Void
    ) {
        let clock = samples[0].clock
        let oneClock = samples.allSatisfy { $0.clock == clock }
        var a = from
        while a < to {
            let here = interval(a, clock, &last)
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
                let here = interval(a, sample.clock, &last)
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

    /// The interval holding `instant` on `clock`, through `last`, the interval found before
    /// (samples come in time order, so the next instant most often falls in it too).
    private func interval(_ instant: Int64, _ clock: Int, _ last: inout (clock: Int, interval: LocalInterval)?) -> LocalInterval {
        if let last, last.clock == clock, instant >= last.interval.start, instant < last.interval.end { return last.interval }
        let found = bounds(instant, clock)
        last = (clock, found)
        return found
    }
}

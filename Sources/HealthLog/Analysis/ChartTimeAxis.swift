/// The time axis of a chart: the span of the data, broken where a long empty stretch would
/// squash the rest, and labels at round calendar steps that never overlap.
///
/// **Breaks.** A gap between consecutive intervals longer than a fifth of the whole span
/// and than 20 intervals (a lone record years away from the rest) is cut out of the axis:
/// each side becomes a segment of its own, drawn at a width proportional to its own span
/// (at least ``minimumSegmentWidth``), with a break mark between them. At most three gaps
/// are cut, the longest first.
///
/// **Ticks.** Each segment takes the finest step among 1, 2, 3, 6 and 12 hours, 1 and 2
/// days, weeks (Mondays), 1, 3 and 6 months and 1, 2, 5, 10, 20 and 50 years whose labels
/// fit side by side with a gap; a label that would still touch another is left out.
///
/// **Clock.** Ticks fall on round local times and labels name local dates, each instant
/// read at the offset of the interval that holds it (the offset its start was labelled
/// with), so on a named time zone's clock the ticks stay at local midnight on both sides
/// of a daylight-saving change.
struct ChartTimeAxis {
    /// One stretch of the axis: instants `[from, to)` (µs) drawn from `x0` to `x1` (px).
    struct Segment {
        /// The first instant, µs.
        var from: Int64
        /// The end instant, µs.
        var to: Int64
        /// Where `from` is drawn, px.
        var x0: Double
        /// Where `to` is drawn, px.
        var x1: Double
    }

    /// A label: its position, lines and width.
    struct Label {
        /// The centre, px.
        var x: Double
        /// The lines, the first at the tick.
        var lines: [String]
        /// The widest line's estimated width, px.
        var width: Double
        /// The second line that names the tick's year (`2025`, or `Jun 12, 2025` under an
        /// hour), given where the label must say it; `nil` when its first line does.
        var yearLine: String? = nil
        /// The segment it labels.
        var segment = 0
        /// Whether it is the first label kept of its segment.
        var opens = false

        /// A label at `x` of `lines`, with the year line `yearLine`.
        init(x: Double, lines: [String], yearLine: String? = nil) {
            self.x = x
            self.lines = lines
            self.yearLine = yearLine
            width = 0
            measure()
        }

        /// Sets ``width`` from the lines.
        mutating func measure() {
            width = lines.map { ChartText.width($0, fontSize: ChartTimeAxis.fontSize) }.max() ?? 0
        }
    }

    /// The narrowest a segment is drawn, px.
    static let minimumSegmentWidth = 56.0
    /// The room a break takes between two segments, px.
    static let breakWidth = 20.0
    /// The labels' font size, px.
    static let fontSize = 12.0
    /// The least room between two labels, px.
    static let labelGap = 10.0

    /// The stretches drawn, left to right.
    let segments: [Segment]
    /// The labels kept, left to right.
    let labels: [Label]
    /// How instants read as local times: each interval's start (µs) and the offset, in
    /// minutes east, at which it and the instants up to the next start are read.
    private struct LocalClock {
        let starts: [(start: Int64, offsetMinutes: Int)]

        /// The offset (µs) at which the instant `t` (µs) is read: that of the last interval
        /// starting at or before it (the first interval's before the first).
        func shift(at t: Int64) -> Int64 {
            var lo = 0
            var hi = starts.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if starts[mid].start <= t { lo = mid + 1 } else { hi = mid }
            }
            return starts.isEmpty ? 0 : Int64(starts[Swift.max(lo - 1, 0)].offsetMinutes) * 60_000_000
        }

        /// The instant (µs) that reads as the local time `local` (µs).
        func instant(ofLocal local: Int64) -> Int64 {
            let guess = local - shift(at: local - shift(at: local))
            return local - shift(at: guess)
        }
    }

    /// An axis over `intervals` (each `[start, end)` in µs, ascending, with the offset its
    /// start is labelled at) drawn from `left` to `right` px; `marks`, when given, are the
    /// labels instead of round calendar steps: each interval's own (``intervalLabels(_:)``),
    /// every so many intervals as fit.
    init(intervals: [(start: Int64, end: Int64, offsetMinutes: Int)], left: Double, right: Double, marks: [IntervalMark]? = nil) {
        let clock = LocalClock(starts: intervals.map { ($0.start, $0.offsetMinutes) })
        guard let first = intervals.first, let last = intervals.last else {
            segments = [Segment(from: 0, to: 1, x0: left, x1: right)]
            labels = []
            return
        }
        let lengths = intervals.map { $0.end - $0.start }.sorted()
        let typical = Swift.max(lengths[lengths.count / 2], 1)
        let span = Swift.max(last.end - first.start, 1)
        var gaps: [(index: Int, length: Int64)] = []
        for k in 1..<Swift.max(intervals.count, 1) where k < intervals.count {
            let gap = intervals[k].start - intervals[k - 1].end
            if gap > span / 5, gap > typical * 20 { gaps.append((k, gap)) }
        }
        let cuts = gaps.sorted { $0.length > $1.length }.prefix(3).map(\.index).sorted()
        var ranges: [(Int64, Int64)] = []
        var begin = 0
        for cut in cuts + [intervals.count] {
            ranges.append((intervals[begin].start, intervals[cut - 1].end))
            begin = cut
        }
        let available = right - left - Self.breakWidth * Double(ranges.count - 1)
        let spans = ranges.map { Double($0.1 - $0.0) }
        var widths = spans.map { available * $0 / spans.reduce(0, +) }
        let small = widths.indices.filter { widths[$0] < Self.minimumSegmentWidth }
        if !small.isEmpty, small.count < widths.count {
            let rest = available - Self.minimumSegmentWidth * Double(small.count)
            let big = spans.indices.filter { !small.contains($0) }.map { spans[$0] }.reduce(0, +)
            for k in widths.indices { widths[k] = small.contains(k) ? Self.minimumSegmentWidth : rest * spans[k] / big }
        }
        var x = left
        var segments: [Segment] = []
        for (k, range) in ranges.enumerated() {
            segments.append(Segment(from: range.0, to: range.1, x0: x, x1: x + widths[k]))
            x += widths[k] + Self.breakWidth
        }
        self.segments = segments
        var labels: [Label] = []
        var years: [Label] = []
        for (k, segment) in segments.enumerated() {
            var own = marks.map { Self.labels(for: segment, marks: $0, intervals: intervals) } ?? Self.labels(for: segment, clock: clock)
            var year = Label(x: (segment.x0 + segment.x1) / 2, lines: [String(Timestamp.civil(fromDays: Int(Self.floorDiv(segment.from + clock.shift(at: segment.from), Self.day))).year)])
            year.segment = k
            years.append(year)
            if own.isEmpty { own = [year] }
            labels += own.map { label in
                var label = label
                label.segment = k
                return label
            }
        }
        self.labels = Self.kept(labels, years: years)
    }

    /// The labels that do not touch the one before, each segment's first naming its year
    /// (or, where that does not fit, its year alone, at the segment's centre, in place of
    /// labels of the segment before but its first), and a label after one left out taking
    /// the year line that one carried.
    private static func kept(_ labels: [Label], years: [Label]) -> [Label] {
        var kept: [Label] = []
        var carried: String?
        func fits(_ label: Label) -> Bool { kept.last.map { $0.x + $0.width / 2 + Self.labelGap <= label.x - label.width / 2 } ?? true }
        for var label in labels {
            let first = kept.last.map { $0.segment != label.segment } ?? true
            if carried != nil, first { carried = nil }
            if let year = label.yearLine, first || (carried != nil && label.lines.count == 1) {
                label.lines = [label.lines[0], year]
                label.measure()
            }
            guard fits(label) else {
                if first {
                    var alone = years[label.segment]
                    while let last = kept.last, !last.opens, !fits(alone) { kept.removeLast() }
                    if fits(alone) {
                        alone.opens = true
                        kept.append(alone)
                        continue
                    }
                }
                if label.lines.count > 1 { carried = label.yearLine }
                continue
            }
            label.opens = first
            carried = nil
            kept.append(label)
        }
        return kept
    }

    /// The x position of the instant `t` (µs), or `nil` when it is in a gap cut out.
    func x(_ t: Int64) -> Double? {
        for s in segments where t >= s.from && t <= s.to {
            return s.x0 + (s.x1 - s.x0) * Double(t - s.from) / Double(Swift.max(s.to - s.from, 1))
        }
        return nil
    }

    /// Where the breaks are drawn: the x between each two segments.
    var breaks: [Double] {
        zip(segments, segments.dropFirst()).map { ($0.x1 + $1.x0) / 2 }
    }

    // MARK: Ticks

    /// The steps ticks may take, finest first.
    private enum Step: CaseIterable {
        case h1, h2, h3, h6, h12, d1, d2, w1, m1, m3, m6, y1, y2, y5, y10, y20, y50
    }

    /// An hour in µs.
    private static let hour: Int64 = 3_600_000_000
    /// A day in µs.
    private static let day: Int64 = 86_400_000_000
    /// The months' short English names.
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The labels of one segment at the finest step that fits, on `clock`.
    private static func labels(for s: Segment, clock: LocalClock) -> [Label] {
        let px = (s.x1 - s.x0) / Double(Swift.max(s.to - s.from, 1))
        var fallback: Label?
        for step in Step.allCases {
            let local = Self.ticks(step, from: s.from + clock.shift(at: s.from), to: s.to + clock.shift(at: s.to))
            let ticks = local.map(clock.instant(ofLocal:))
            guard !ticks.isEmpty else { continue }
            let years = Self.yearLines(step, local)
            let labels = Self.texts(step, local).enumerated().map { k, lines in
                Label(x: s.x0 + Double(ticks[k] - s.from) * px, lines: lines, yearLine: years[k])
            }
            let widest = labels.map(\.width).max() ?? 0
            let closest = zip(labels, labels.dropFirst()).map { $1.x - $0.x }.min() ?? .infinity
            if closest >= widest + labelGap { return labels }
            if step == .d1 { fallback = labels.first }
        }
        return fallback.map { [$0] } ?? []
    }

    /// The round instants (local µs) of `step` in `[from, to]`.
    private static func ticks(_ step: Step, from: Int64, to: Int64) -> [Int64] {
        var out: [Int64] = []
        func civil(_ t: Int64) -> (year: Int, month: Int, day: Int) { Timestamp.civil(fromDays: Int(floorDiv(t, day))) }
        switch step {
        case .h1, .h2, .h3, .h6, .h12, .d1, .d2:
            let every: Int64 = [.h1: 1, .h2: 2, .h3: 3, .h6: 6, .h12: 12, .d1: 24, .d2: 48][step]! * hour
            var t = (floorDiv(from, every) + (floorDiv(from, every) * every < from ? 1 : 0)) * every
            while t <= to, out.count < 2000 {
                out.append(t)
                t += every
            }
        case .w1:
            var d = floorDiv(from + day - 1, day)
            while ((d + 3) % 7 + 7) % 7 != 0 { d += 1 }
            while d * day <= to, out.count < 2000 {
                out.append(d * day)
                d += 7
            }
        case .m1, .m3, .m6, .y1, .y2, .y5, .y10, .y20, .y50:
            let months: Int = [.m1: 1, .m3: 3, .m6: 6, .y1: 12, .y2: 24, .y5: 60, .y10: 120, .y20: 240, .y50: 600][step]!
            let start = civil(from)
            var index = start.year * 12 + start.month - 1
            index += (months - index % months) % months
            while out.count < 2000 {
                let t = Int64(Timestamp.daysFromCivil(year: index / 12, month: index % 12 + 1, day: 1)) * day
                if t > to { break }
                if t >= from { out.append(t) }
                index += months
            }
        }
        return out
    }

    /// The label lines of each tick (local µs): the time or date, and on a second line the
    /// larger unit where it changes (and at the first tick).
    private static func texts(_ step: Step, _ ticks: [Int64]) -> [[String]] {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        var previous: (year: Int, month: Int, day: Int)?
        return ticks.map { t in
            let date = Timestamp.civil(fromDays: Int(floorDiv(t, day)))
            defer { previous = date }
            switch step {
            case .h1, .h2, .h3, .h6, .h12:
                let h = Int(floorDiv(t, hour) - floorDiv(t, day) * 24)
                let newDay = previous.map { $0 != date } ?? true
                return ["\(two(h)):00"] + (newDay ? ["\(months[date.month - 1]) \(date.day)"] : [])
            case .d1, .d2, .w1:
                let newYear = previous.map { $0.year != date.year } ?? true
                return ["\(months[date.month - 1]) \(date.day)"] + (newYear ? [String(date.year)] : [])
            case .m1, .m3, .m6:
                let newYear = previous.map { $0.year != date.year } ?? true
                return [months[date.month - 1]] + (newYear ? [String(date.year)] : [])
            default:
                return [String(date.year)]
            }
        }
    }

    /// The year line of each tick (local µs) at `step` (``Label/yearLine``).
    private static func yearLines(_ step: Step, _ ticks: [Int64]) -> [String?] {
        ticks.map { t in
            let date = Timestamp.civil(fromDays: Int(floorDiv(t, day)))
            switch step {
            case .h1, .h2, .h3, .h6, .h12: return "\(months[date.month - 1]) \(date.day), \(date.year)"
            case .d1, .d2, .w1, .m1, .m3, .m6: return String(date.year)
            default: return nil
            }
        }
    }

    // MARK: Interval labels

    /// A label of one interval, in place of round calendar steps (a night of sleep).
    struct IntervalMark {
        /// The label's first line (`Mon 3 Jun`).
        var text: String
        /// The year it is in, shown under the first label, at a change of year and after a break.
        var year: Int
    }

    /// Marks naming each day (`YYYY-MM-DD`) of `days` as `Mon 3 Jun`, in its year.
    static func intervalLabels(_ days: [String]) -> [IntervalMark] {
        let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
        return days.map { text in
            guard let date = Timestamp(commandLine: text) else { return IntervalMark(text: text, year: 0) }
            let days = Int(floorDiv(date.microseconds, day))
            let civil = Timestamp.civil(fromDays: days)
            return IntervalMark(text: "\(weekdays[(days % 7 + 7) % 7]) \(civil.day) \(months[civil.month - 1])", year: civil.year)
        }
    }

    /// The labels of one segment from the intervals' own `marks`, at each interval's centre:
    /// every interval's when they fit side by side, else every 2nd, 7th, 14th, 28th, … one;
    /// the year under the first and where it changes.
    private static func labels(for s: Segment, marks: [IntervalMark], intervals: [(start: Int64, end: Int64, offsetMinutes: Int)]) -> [Label] {
        let px = (s.x1 - s.x0) / Double(Swift.max(s.to - s.from, 1))
        let inside = intervals.indices.filter { intervals[$0].start >= s.from && intervals[$0].end <= s.to && $0 < marks.count }
        let centres = inside.map { k in s.x0 + (Double(intervals[k].start - s.from) + Double(intervals[k].end - intervals[k].start) / 2) * px }
        let widest = inside.map { ChartText.width(marks[$0].text, fontSize: fontSize) }.max() ?? 0
        var every = 1
        for step in [1, 2, 7, 14, 28, 56, 112, 364, 728, Int.max] {
            every = step
            let picked = stride(from: 0, to: centres.count, by: step).map { centres[$0] }
            if (zip(picked, picked.dropFirst()).map { $1 - $0 }.min() ?? .infinity) >= widest + labelGap { break }
        }
        var year: Int?
        return stride(from: 0, to: inside.count, by: every).map { k in
            let mark = marks[inside[k]]
            defer { year = mark.year }
            return Label(x: centres[k], lines: [mark.text] + (year != mark.year ? [String(mark.year)] : []), yearLine: String(mark.year))
        }
    }

    /// `a / b` rounded toward negative infinity.
    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}

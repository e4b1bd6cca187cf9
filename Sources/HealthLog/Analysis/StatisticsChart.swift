/// Draws per-interval statistics as a standalone SVG chart (what `healthlog plot` writes).
///
/// Sums, counts and durations are bars; averages, minima and maxima are lines with a
/// point per interval, the average with its minimum–maximum range shaded. A line never
/// crosses an interval without data: it stops, and a lone interval is a point. The time
/// axis is labelled at round calendar steps and broken around long empty stretches (see
/// docs/exports-and-statistics.md, "Charts"); the value axis has round ticks in the display unit (durations in
/// hours, minutes or seconds, whichever fits). Any browser shows it.
package struct StatisticsChart {
    /// The rows to draw, in one unit, ascending.
    package var rows: [Statistics]
    /// The figure drawn.
    package var figure: StatisticsFigure
    /// The title: the short type name, the figure, the interval and the unit.
    package var title: String
    /// The line under the title: how many samples, from when to when, on whose clock.
    package var subtitle: String

    /// A chart of `figure` over `rows` of `type` at `interval`; `clock` names whose clock
    /// the intervals follow (`UTC`, `Europe/Berlin`).
    package init(rows: [Statistics], figure: StatisticsFigure, type: SampleType, interval: StatisticsInterval, clock: String = "UTC") {
        self.rows = rows
        self.figure = figure
        let unit = Self.displayUnit(figure, rows)
        let noun = [StatisticsFigure.count: "samples", .sum: "total", .avg: "average (shaded: min–max)", .min: "minimum", .max: "maximum", .duration: "time covered"][figure]!
        title = "\(TypeNames.shortForm(type.identifier)) — \(noun) per \(interval.rawValue)" + (unit.name.isEmpty ? "" : " (\(unit.name))")
        let samples = rows.reduce(0) { $0 + $1.count }
        subtitle = "\(samples) sample\(samples == 1 ? "" : "s"), \(rows.first?.label ?? "") to \(rows.last?.label ?? ""), intervals in \(clock)"
    }

    /// The unit drawn and the factor from the figure's values to it.
    static func displayUnit(_ figure: StatisticsFigure, _ rows: [Statistics]) -> (name: String, divisor: Double) {
        switch figure {
        case .count: return ("samples", 1)
        case .duration:
            let most = rows.compactMap(\.duration).max() ?? 0
            return most >= 7200 ? ("hours", 3600) : most >= 120 ? ("minutes", 60) : ("seconds", 1)
        default: return (rows.first?.unit ?? "", 1)
        }
    }

    /// Whether the figure is drawn as bars (it adds up over the interval).
    var isBars: Bool { figure == .count || figure == .sum || figure == .duration }

    /// The SVG document.
    package var svg: String {
        let unit = Self.displayUnit(figure, rows)
        let points = rows.compactMap { row in figure.value(of: row).map { (row: row, value: $0 / unit.divisor) } }
        var low = points.map(\.value).min() ?? 0
        var high = points.map(\.value).max() ?? 1
        if figure == .avg {
            low = Swift.min(low, points.compactMap { $0.row.minimum }.min() ?? low)
            high = Swift.max(high, points.compactMap { $0.row.maximum }.max() ?? high)
        }
        if isBars { low = Swift.min(low, 0) }
        let axis = ChartValueAxis(covering: low, high, integral: figure == .count)
        let frame = ChartFrame(values: axis, intervals: points.map { ($0.row.start.microseconds, $0.row.end.microseconds, Int($0.row.start.offsetMinutes)) })
        let f = ChartFrame.f
        var out = frame.opening(title: title, subtitle: subtitle)
        func tip(_ row: Statistics, _ v: Double) -> String { "<title>\(ChartText.escaped(row.label)): \(figure.text(v))</title>" }
        if isBars {
            for (row, v) in points {
                guard let x0 = frame.time.x(row.start.microseconds), let x1 = frame.time.x(row.end.microseconds) else { continue }
                let width = Swift.max(x1 - x0 - (x1 - x0 > 3 ? 1 : 0), 0.8)
                let top = Swift.min(frame.y(v), frame.y(0))
                let height = abs(frame.y(v) - frame.y(0))
                out += ##"<rect class="mark" x="\##(f(Swift.max(frame.left, Swift.min(x0, x1 - width))))" y="\##(f(top))" width="\##(f(width))" height="\##(f(height))" fill="#3b7dd8">\##(tip(row, v))</rect>"## + "\n"
            }
            return out + "</svg>\n"
        }
        var runs: [[(row: Statistics, value: Double)]] = []
        for point in points {
            if let previous = runs.last?.last, Self.wallClock(previous.row.end) == Self.wallClock(point.row.start) {
                runs[runs.count - 1].append(point)
            } else {
                runs.append([point])
            }
        }
        func center(_ row: Statistics) -> Double {
            let a = frame.time.x(row.start.microseconds) ?? frame.left
            let b = frame.time.x(row.end.microseconds) ?? a
            return (a + b) / 2
        }
        for run in runs {
            if figure == .avg {
                let band = run.compactMap { p in p.row.minimum.flatMap { lo in p.row.maximum.map { (center(p.row), frame.y(lo), frame.y($0)) } } }
                if band.count > 1 {
                    let upper = band.map { "\(f($0.0)),\(f($0.2))" }
                    let lower = band.reversed().map { "\(f($0.0)),\(f($0.1))" }
                    out += ##"<polygon class="mark" points="\##((upper + lower).joined(separator: " "))" fill="#3b7dd8" fill-opacity="0.18" stroke="none"/>"## + "\n"
                } else if let one = band.first {
                    out += ##"<line class="mark" x1="\##(f(one.0))" x2="\##(f(one.0))" y1="\##(f(one.1))" y2="\##(f(one.2))" stroke="#3b7dd8" stroke-opacity="0.35" stroke-width="3"/>"## + "\n"
                }
            }
            if run.count > 1 {
                let line = run.map { "\(f(center($0.row))),\(f(frame.y($0.value)))" }.joined(separator: " ")
                out += ##"<polyline class="mark" points="\##(line)" fill="none" stroke="#1f5fa8" stroke-width="1.5"/>"## + "\n"
            }
            if run.count == 1 || points.count <= 400 {
                for (row, v) in run {
                    out += ##"<circle class="mark" cx="\##(f(center(row)))" cy="\##(f(frame.y(v)))" r="2.5" fill="#1f5fa8">\##(tip(row, v))</circle>"## + "\n"
                }
            }
        }
        return out + "</svg>\n"
    }

    /// The local wall-clock time of `t` (µs): where one interval ends and the next starts
    /// on a local clock even when their offsets differ (each sample's own time across a
    /// daylight-saving change), so a line and its band run on.
    private static func wallClock(_ t: Timestamp) -> Int64 {
        t.microseconds + Int64(t.offsetMinutes) * 60_000_000
    }

    /// Writes the SVG document to `path` atomically, mode 0600 (charts of health data are
    /// health data).
    package func write(to path: String) throws {
        try DurableFile.replace(path, with: Array(svg.utf8))
    }
}

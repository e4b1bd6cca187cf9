/// What every chart shares: the SVG document, a title and subtitle, the plot area, the
/// value axis with its grid and the time axis with its labels and break marks. Marks go
/// inside the plot area (`class="plot-area"`); every mark carries `class="mark"`, every
/// axis label `class="tick-x"` or `class="tick-y"`, so tests can check the geometry.
struct ChartFrame {
    /// The document's width, px.
    static let width = 960.0
    /// The document's height, px.
    static let height = 480.0
    /// The plot area's top edge, below the titles, px.
    static let top = 72.0
    /// The room below the plot area for the time labels, px.
    static let bottom = 52.0
    /// The room right of the plot area, px.
    static let right = 32.0

    /// The value axis.
    let values: ChartValueAxis
    /// The time axis.
    let time: ChartTimeAxis
    /// The plot area's left edge, past the widest y tick label, but never past a third of the
    /// chart (a label wider than that runs off the left edge).
    let left: Double

    /// A frame for `values` over the intervals drawn, each with the offset its start is
    /// labelled at, and with `marks` each interval's own label (``ChartTimeAxis/init(intervals:left:right:marks:)``).
    init(values: ChartValueAxis, intervals: [(start: Int64, end: Int64, offsetMinutes: Int)], marks: [ChartTimeAxis.IntervalMark]? = nil) {
        self.values = values
        let widest = values.ticks.map { ChartText.width($0.text, fontSize: 12) }.max() ?? 0
        left = Swift.min(Swift.max(56, (widest + 16).rounded(.up)), (Self.width / 3).rounded())
        time = ChartTimeAxis(intervals: intervals, left: left, right: Self.width - Self.right, marks: marks)
    }

    /// The plot area's bottom edge.
    var baseline: Double { Self.height - Self.bottom }

    /// The y position of `v`.
    func y(_ v: Double) -> Double {
        Self.top + (baseline - Self.top) * (1 - (v - values.low) / Swift.max(values.high - values.low, .leastNonzeroMagnitude))
    }

    /// A coordinate with one decimal.
    static func f(_ v: Double) -> String { ChartValueAxis.text(Int64((v * 10).rounded()), -1) }

    /// The document up to the marks: background, titles, grid, axes and labels.
    func opening(title: String, subtitle: String) -> String {
        let f = Self.f
        var out = ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(Int(Self.width))" height="\##(Int(Self.height))" viewBox="0 0 \##(Int(Self.width)) \##(Int(Self.height))" font-family="sans-serif" font-size="12">"## + "\n"
        out += ##"<rect width="100%" height="100%" fill="white"/>"## + "\n"
        out += ##"<text class="title" x="\##(f(left))" y="26" font-size="16" font-weight="bold">\##(ChartText.escaped(title))</text>"## + "\n"
        out += ##"<text class="subtitle" x="\##(f(left))" y="46" fill="#555">\##(ChartText.escaped(subtitle))</text>"## + "\n"
        let plotRight = Self.width - Self.right
        out += ##"<rect class="plot-area" x="\##(f(left))" y="\##(f(Self.top))" width="\##(f(plotRight - left))" height="\##(f(baseline - Self.top))" fill="none" stroke="none"/>"## + "\n"
        for tick in values.ticks {
            let y = f(y(tick.value))
            out += ##"<line x1="\##(f(left))" x2="\##(f(plotRight))" y1="\##(y)" y2="\##(y)" stroke="#e3e3e3"/>"##
            out += ##"<text class="tick-y" x="\##(f(left - 8))" y="\##(f(self.y(tick.value) + 4))" text-anchor="end">\##(tick.text)</text>"## + "\n"
        }
        for segment in time.segments {
            out += ##"<line x1="\##(f(segment.x0))" x2="\##(f(segment.x1))" y1="\##(f(baseline))" y2="\##(f(baseline))" stroke="#444"/>"## + "\n"
        }
        for x in time.breaks {
            out += ##"<path class="axis-break" d="M\##(f(x - 7)) \##(f(baseline + 5)) L\##(f(x - 1)) \##(f(baseline - 5)) M\##(f(x + 1)) \##(f(baseline + 5)) L\##(f(x + 7)) \##(f(baseline - 5))" stroke="#444" fill="none"/>"##
            out += ##"<line x1="\##(f(x))" x2="\##(f(x))" y1="\##(f(Self.top))" y2="\##(f(baseline))" stroke="#bbb" stroke-dasharray="3 3"/>"## + "\n"
        }
        for label in time.labels {
            out += ##"<text class="tick-x" x="\##(f(label.x))" y="\##(f(baseline + 18))" text-anchor="middle">"##
            for (k, line) in label.lines.enumerated() {
                out += ##"<tspan x="\##(f(label.x))" dy="\##(k == 0 ? "0" : "15")"\##(k == 0 ? "" : ##" fill="#555""##)>\##(ChartText.escaped(line))</tspan>"##
            }
            out += "</text>\n"
        }
        return out
    }
}

/// Draws per-interval statistics as a standalone SVG chart (what `healthlog plot` writes):
/// one figure per interval as a line with points, the minimum–maximum range shaded when
/// the figure is the average, labelled axes and a title. Any browser shows it.
public struct StatisticsChart {
    /// The rows to draw (one unit; the first row's unit is used for the axis).
    public var rows: [Statistics]
    /// The figure drawn; the average comes with the minimum–maximum range shaded.
    public var figure: StatisticsFigure
    /// The title, e.g. the type identifier.
    public var title: String

    private let width = 960.0
    private let height = 480.0
    private let left = 72.0
    private let right = 56.0
    private let top = 48.0
    private let bottom = 56.0

    /// A chart of `figure` over `rows`.
    public init(rows: [Statistics], figure: StatisticsFigure, title: String) {
        self.rows = rows
        self.figure = figure
        self.title = title
    }

    /// The figure of a row as drawn (durations in hours), if it has one.
    func value(_ row: Statistics) -> Double? {
        figure.value(of: row).map { figure == .duration ? $0 / 3600 : $0 }
    }

    /// The SVG document.
    public var svg: String {
        let points = rows.compactMap { row in value(row).map { (row, $0) } }
        var low = points.map(\.1).min() ?? 0
        var high = points.map(\.1).max() ?? 1
        if figure == .avg {
            low = Swift.min(low, points.compactMap { $0.0.minimum }.min() ?? low)
            high = Swift.max(high, points.compactMap { $0.0.maximum }.max() ?? high)
        }
        if figure == .count || figure == .sum || figure == .duration { low = Swift.min(low, 0) }
        if high == low { high = low + 1 }
        let ticks = Self.ticks(low, high)
        low = Swift.min(low, ticks.first ?? low)
        high = Swift.max(high, ticks.last ?? high)
        let plotWidth = width - left - right
        let plotHeight = height - top - bottom
        let first = rows.first?.start.microseconds ?? 0
        let span = Double(Swift.max((rows.last?.end.microseconds ?? 1) - first, 1))
        func x(_ row: Statistics) -> Double {
            left + plotWidth * (Double(row.start.microseconds - first) + Double(row.end.microseconds - row.start.microseconds) / 2) / span
        }
        func y(_ v: Double) -> Double { top + plotHeight * (1 - (v - low) / (high - low)) }
        func f(_ v: Double) -> String { String(Double(Int((v * 10).rounded())) / 10) }

        let unit = figure == .count ? "samples" : figure == .duration ? "hours" : (rows.first?.unit ?? "")
        var out = ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(Int(width))" height="\##(Int(height))" viewBox="0 0 \##(Int(width)) \##(Int(height))" font-family="sans-serif" font-size="12">"## + "\n"
        out += ##"<rect width="100%" height="100%" fill="white"/>"## + "\n"
        out += ##"<text x="\##(f(left))" y="28" font-size="16">\##(Self.escaped(title)) — \##(figure.rawValue) per interval (\##(Self.escaped(unit)))</text>"## + "\n"
        for tick in ticks {
            out += ##"<line x1="\##(f(left))" x2="\##(f(width - right))" y1="\##(f(y(tick)))" y2="\##(f(y(tick)))" stroke="#ddd"/>"##
            out += ##"<text x="\##(f(left - 6))" y="\##(f(y(tick) + 4))" text-anchor="end">\##(JSONText.number(tick))</text>"## + "\n"
        }
        let labelEvery = Swift.max(1, rows.count / 8)
        for (k, row) in rows.enumerated() where k % labelEvery == 0 {
            out += ##"<text x="\##(f(x(row)))" y="\##(f(height - bottom + 18))" text-anchor="middle">\##(Self.escaped(row.label))</text>"## + "\n"
        }
        out += ##"<line x1="\##(f(left))" x2="\##(f(width - right))" y1="\##(f(height - bottom))" y2="\##(f(height - bottom))" stroke="#444"/>"## + "\n"
        if figure == .avg {
            let band = points.compactMap { row, _ in row.minimum.flatMap { lo in row.maximum.map { (x(row), y(lo), y($0)) } } }
            if !band.isEmpty {
                let upper = band.map { "\(f($0.0)),\(f($0.2))" }
                let lower = band.reversed().map { "\(f($0.0)),\(f($0.1))" }
                out += ##"<polygon points="\##((upper + lower).joined(separator: " "))" fill="#4a90d9" fill-opacity="0.2" stroke="none"/>"## + "\n"
            }
        }
        let line = points.map { "\(f(x($0.0))),\(f(y($0.1)))" }.joined(separator: " ")
        out += ##"<polyline points="\##(line)" fill="none" stroke="#1f5fa8" stroke-width="1.5"/>"## + "\n"
        if points.count <= 400 {
            for (row, v) in points {
                out += ##"<circle cx="\##(f(x(row)))" cy="\##(f(y(v)))" r="2.5" fill="#1f5fa8"><title>\##(Self.escaped(row.label)): \##(JSONText.number(v))</title></circle>"## + "\n"
            }
        }
        return out + "</svg>\n"
    }

    /// Writes the SVG document to `path` atomically, mode 0600 (charts of health data are
    /// health data).
    public func write(to path: String) throws {
        try DurableFile.replace(path, with: Array(svg.utf8))
    }

    /// About five round tick values covering `[low, high]`.
    static func ticks(_ low: Double, _ high: Double) -> [Double] {
        let raw = (high - low) / 5
        var step = 1.0
        while step > raw { step /= 10 }
        while step * 10 <= raw { step *= 10 }
        for factor in [1.0, 2, 5, 10] where step * factor >= raw {
            step *= factor
            break
        }
        var tick = (low / step).rounded(.down) * step
        var out: [Double] = []
        while tick <= high + step / 2, out.count < 20 {
            out.append(tick)
            tick += step
        }
        return out
    }

    /// `text` with XML's special characters escaped.
    static func escaped(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}

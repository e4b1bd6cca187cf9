import HealthLogTestSupport
import Testing
@testable import HealthLog

/// Charts worth looking at, checked in their SVG: labels never overlap, marks stay in the
/// plot area, ticks are round, gaps stay gaps, outliers do not squash the rest.
@Suite("Charts")
struct ChartTests {
    private static let hour: Int64 = 3_600_000_000
    private static let day: Int64 = 86_400_000_000

    /// Rows of one value per interval at the given starts (µs), the interval `length` long.
    private static func rows(_ starts: [Int64], length: Int64, value: (Int) -> Double = { Double(60 + $0 % 17) / 10 }) -> [Statistics] {
        starts.enumerated().map { k, s in
            let v = value(k)
            return Statistics(
                start: Timestamp(microseconds: s, fractionDigits: 0), end: Timestamp(microseconds: s + length, fractionDigits: 0),
                label: StatisticsInterval.day.label(of: s, offsetMinutes: 0), unit: "count/min", count: 1 + k % 3, sum: v * 3, average: v,
                minimum: v - 0.4, maximum: v + 0.3, duration: Double(k % 5) * 3000)
        }
    }

    private static let base: Int64 = 1_704_067_200_000_000  // 2024-01-01T00:00:00Z

    private static func check(_ svg: String, _ context: String) {
        let geometry = SVGGeometry(svg)
        guard let area = geometry.plotArea else {
            Issue.record("\(context): no plot area")
            return
        }
        for (x, y) in geometry.markPoints {
            #expect(x >= area.x - 0.5 && x <= area.x + area.width + 0.5 && y >= area.y - 0.5 && y <= area.y + area.height + 0.5, "\(context): mark at \(x),\(y) outside \(area)")
        }
        let boxes = geometry.xLabelBoxes
        #expect(!boxes.isEmpty, "\(context): no time labels")
        for (a, b) in zip(boxes, boxes.dropFirst()) {
            #expect(a.right < b.left, "\(context): '\(a.text)' overlaps '\(b.text)'")
        }
        for box in boxes { #expect(box.left >= 0 && box.right <= ChartFrame.width, "\(context): '\(box.text)' clipped") }
        let ticks = geometry.elements(ofClass: "tick-y")
        #expect(ticks.count >= 2, "\(context): y ticks")
        for tick in ticks {
            let text = tick.lines.joined()
            #expect(text.count <= 8 && !text.contains("e") && Double(text) != nil, "\(context): y tick '\(text)'")
            #expect(tick.number("x") - Double(text.count) * 0.64 * 12 >= 0, "\(context): y tick '\(text)' clipped")
        }
    }

    @Test("At any span from an hour to ten years, time labels sit at round steps, never overlap, and every mark lies inside the plot area", arguments: [
        ("an hour of minutes", 60, 60_000_000 as Int64), ("a day of hours", 24, hour), ("a week of hours", 168, hour), ("a month of days", 31, day),
        ("a year of days", 366, day), ("ten years of days", 3653, day), ("ten years of weeks", 522, 7 * day),
    ])
    func spans(_ name: String, _ count: Int, _ length: Int64) {
        let rows = Self.rows((0..<count).map { Self.base + Int64($0) * length }, length: length)
        for figure in [StatisticsFigure.avg, .sum, .count, .duration] {
            let chart = StatisticsChart(rows: rows, figure: figure, type: .quantity("HeartRate"), interval: .day)
            Self.check(chart.svg, "\(name), \(figure)")
        }
    }

    @Test("A lone record years away breaks the axis instead of squashing the rest into a sliver")
    func outlierBreaksTheAxis() {
        var starts = (0..<365).map { Self.base - 5 * 365 * Self.day + Int64($0) * Self.day }
        starts.append(Self.base + 6 * 365 * Self.day)
        let chart = StatisticsChart(rows: Self.rows(starts, length: Self.day), figure: .avg, type: .quantity("HeartRate"), interval: .day)
        let svg = chart.svg
        Self.check(svg, "outlier")
        let geometry = SVGGeometry(svg)
        #expect(geometry.elements(ofClass: "axis-break").count == 1)
        let xs = geometry.elements(ofClass: "mark").filter { $0.name == "circle" }.map { $0.number("cx") }
        let area = geometry.plotArea!
        let main = xs.dropLast()
        #expect((main.max()! - main.min()!) > area.width * 0.8, "the year of data keeps most of the width")
    }

    @Test("A line stops at an interval without data; a lone interval is a point; sums and counts are bars")
    func gapsAndBars() {
        let starts = [0, 1, 2, 5, 6, 9].map { Self.base + Int64($0) * Self.day }
        let rows = Self.rows(starts, length: Self.day)
        let line = SVGGeometry(StatisticsChart(rows: rows, figure: .avg, type: .quantity("HeartRate"), interval: .day).svg)
        let polylines = line.elements(ofClass: "mark").filter { $0.name == "polyline" }
        #expect(polylines.map { ($0.attributes["points"] ?? "").split(separator: " ").count } == [3, 2])
        #expect(line.elements(ofClass: "mark").filter { $0.name == "circle" }.count == 6)
        let bars = SVGGeometry(StatisticsChart(rows: rows, figure: .sum, type: .quantity("StepCount"), interval: .day).svg)
        #expect(bars.elements(ofClass: "mark").filter { $0.name == "rect" }.count == 6)
        #expect(bars.elements(ofClass: "mark").allSatisfy { $0.name == "rect" })
    }

    @Test("Y ticks are round numbers printed exactly; counts never tick at half a sample; durations in a unit that fits")
    func valueTicks() {
        let axis = ChartValueAxis(covering: 0.1, 0.7, integral: false)
        #expect(axis.ticks.map(\.text) == ["0", "0.2", "0.4", "0.6", "0.8"])
        let counts = ChartValueAxis(covering: 0, 2, integral: true)
        #expect(counts.ticks.map(\.text) == ["0", "1", "2"])
        #expect(ChartValueAxis(covering: 0, 7_200_000, integral: false).ticks.map(\.text).last == "8000000")
        #expect(ChartValueAxis(covering: -0.03, 0.02, integral: false).ticks.map(\.text).first == "-0.03")
        let rows = Self.rows([Self.base], length: Self.day)
        #expect(StatisticsChart.displayUnit(.duration, rows).name == "seconds")
        var long = rows
        long[0].duration = 30_000
        #expect(StatisticsChart(rows: long, figure: .duration, type: .category("SleepAnalysis"), interval: .day).title == "SleepAnalysis — time covered per day (hours)")
    }

    @Test("On a named zone's clock the month ticks stay at local midnight on both sides of its daylight-saving changes")
    func ticksFollowTheZonesOffsets() {
        // A year of Berlin days, 2024: +01:00, then +02:00 from April 1 to October 27, then +01:00.
        let starts: [(start: Int64, offset: Int)] = (0...366).map { d in
            let offset = (91...300).contains(d) ? 120 : 60
            return (Self.base + Int64(d) * Self.day - Int64(offset) * 60_000_000, offset)
        }
        let intervals = zip(starts, starts.dropFirst()).map { ($0.start, $1.start, $0.offset) }
        let axis = ChartTimeAxis(intervals: intervals, left: 0, right: 1000)
        let julyFirst = Self.base + 182 * Self.day - 2 * Self.hour
        let novemberFirst = Self.base + 305 * Self.day - Self.hour
        let july = axis.labels.first { $0.lines.first == "Jul" }
        let november = axis.labels.first { $0.lines.first == "Nov" }
        #expect(july.map { abs($0.x - axis.x(julyFirst)!) < 1e-9 } == true, "Jul sits at 2024-06-30T22:00Z, Berlin's midnight")
        #expect(november.map { abs($0.x - axis.x(novemberFirst)!) < 1e-9 } == true, "Nov sits at 2024-10-31T23:00Z")
        #expect(axis.labels.first?.lines == ["Jan", "2024"])
    }

    @Test("The title names the short type, the figure, the interval and the unit")
    func title() {
        let chart = StatisticsChart(rows: Self.rows([Self.base], length: Self.day), figure: .avg, type: .quantity("HeartRate"), interval: .week, clock: "Europe/Berlin")
        #expect(chart.title == "HeartRate — average (shaded: min–max) per week (count/min)")
        #expect(chart.subtitle.hasSuffix("intervals in Europe/Berlin"))
        #expect(chart.svg.contains(">HeartRate — average (shaded: min–max) per week (count/min)</text>"))
    }

    @Test("Sleep: hours per night by stage, stacked, nights from noon to noon named by their morning")
    func sleepNights() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        let sleep = SampleType.category("SleepAnalysis")
        func stage(_ name: String, _ start: String, _ end: String) -> CategorySample {
            CategorySample(type: sleep, value: .name("HKCategoryValueSleepAnalysis" + name), fields: SampleFields(start: Timestamp(iso8601: start)!, end: Timestamp(iso8601: end)!))
        }
        try store.save([
            stage("InBed", "2024-03-01T22:30:00Z", "2024-03-02T06:30:00Z"), stage("AsleepCore", "2024-03-01T23:00:00Z", "2024-03-02T02:00:00Z"),
            stage("AsleepDeep", "2024-03-02T02:00:00Z", "2024-03-02T03:00:00Z"), stage("Awake", "2024-03-02T03:00:00Z", "2024-03-02T03:15:00Z"),
            stage("AsleepREM", "2024-03-02T03:15:00Z", "2024-03-02T05:15:00Z"), stage("AsleepCore", "2024-03-02T23:00:00Z", "2024-03-03T06:00:00Z"),
        ])
        let nights = try store.sleepNights()
        #expect(nights.map(\.label) == ["2024-03-02", "2024-03-03"])
        #expect(nights[0].seconds == [.inBed: 28_800, .core: 10_800, .deep: 3600, .awake: 900, .rem: 7200])
        let svg = SleepChart(nights: nights).svg
        Self.check(svg, "sleep")
        let geometry = SVGGeometry(svg)
        #expect(geometry.elements(ofClass: "mark").count == 6)
        #expect(geometry.elements(ofClass: "legend").filter { $0.name == "text" }.map { $0.lines.joined() } == ["Deep", "Core", "REM", "Awake", "In bed"])
    }
}

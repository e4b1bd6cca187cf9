import HealthLogTestSupport
import Testing
@testable import HealthLog

/// Charts that cannot be misread: the year after every axis break, a band that runs on
/// across a daylight-saving change, and nights of sleep named as nights.
@Suite("Chart reading")
struct ChartReadingTests {
    private static let day: Int64 = 86_400_000_000

    /// Daily rows at the local dates `days` (`YYYY-MM-DD`), in UTC.
    private static func rows(_ days: [String]) -> [Statistics] {
        days.map { text in
            let start = Timestamp(commandLine: text)!
            let end = Timestamp(microseconds: start.microseconds + Self.day, fractionDigits: 0)
            return Statistics(start: start, end: end, label: text, unit: "count/min", count: 1, average: 60, minimum: 50, maximum: 70)
        }
    }

    /// Every day from `from` for `count` days.
    private static func days(from: String, count: Int) -> [String] {
        let first = Timestamp(commandLine: from)!.microseconds
        return (0..<count).map { StatisticsInterval.day.label(of: first + Int64($0) * Self.day, offsetMinutes: 0) }
    }

    /// The x of each axis break in `geometry` (its mark's path starts 7 px left of it).
    private static func breaks(_ geometry: SVGGeometry) -> [Double] {
        geometry.elements(ofClass: "axis-break").compactMap { e in
            (e.attributes["d"]?.dropFirst().split(separator: " ").first).flatMap { Double($0) }.map { $0 + 7 }
        }
    }

    @Test("A value too large to label in the margin still leaves a plot area of positive width")
    func hugeValues() throws {
        var rows = Self.rows(Self.days(from: "2025-02-01", count: 10))
        rows[3].average = 1e300
        rows[3].maximum = 1e300
        let geometry = SVGGeometry(StatisticsChart(rows: rows, figure: .avg, type: .quantity("HeartRate"), interval: .day).svg)
        let area = try #require(geometry.plotArea)
        #expect(area.width > 500, "\(area)")
    }

    @Test(
        "Every segment after an axis break names its year in its first label: two days of 2018, one of 2021, most of 2025; daily, hourly, every 3 hours",
        arguments: [1, 24, 8])
    func yearsAfterBreaks(_ hours: Int) {
        let days = ["2018-06-11", "2018-06-12", "2021-12-27"] + Self.days(from: "2025-02-01", count: 334)
        var rows = Self.rows(days)
        if hours > 1 {
            rows = rows.flatMap { row in
                (0..<hours).map { h in
                    var hour = row
                    hour.start.microseconds += Int64(h * 24 / hours) * 3_600_000_000
                    hour.end.microseconds = hour.start.microseconds + 3_600_000_000
                    return hour
                }
            }
        }
        let geometry = SVGGeometry(StatisticsChart(rows: rows, figure: .avg, type: .quantity("HeartRate"), interval: .day).svg)
        let breaks = Self.breaks(geometry)
        #expect(breaks.count == 2)
        let labels = geometry.elements(ofClass: "tick-x").map { ($0.number("x"), $0.lines) }
        for (edge, year) in zip([0] + breaks, ["2018", "2021", "2025"]) {
            let first = labels.first { $0.0 > edge }
            #expect(first.map { $0.1.last?.hasSuffix(year) == true && $0.0 < (breaks.first { $0 > edge } ?? .infinity) } == true, "first label after \(edge): \(first?.1 ?? [])")
        }
    }

    @Test("On each sample's local clock the weekly min–max band and line run on across the spring change: one band, one line")
    func bandAcrossDaylightSaving() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        var samples: [QuantitySample] = []
        for d in 0..<56 {
            let date = Timestamp(commandLine: "2024-03-04")!.microseconds + Int64(d) * Self.day
            let offset: Int16 = d < 27 ? 60 : 120
            let start = Timestamp(microseconds: date + 8 * 3_600_000_000 - Int64(offset) * 60_000_000, offsetMinutes: offset, isZulu: false, fractionDigits: 0)
            samples.append(QuantitySample(type: .quantity("HeartRate"), quantity: Quantity(Double(60 + d % 9), "count/min"), fields: SampleFields(start: start)))
        }
        try store.save(samples)
        let rows = try store.statistics(StatisticsQuery(type: .quantity("HeartRate"), interval: .week, options: [.average, .minimum, .maximum], timeZone: .recorded))
        #expect(rows.count == 8)
        let geometry = SVGGeometry(StatisticsChart(rows: rows, figure: .avg, type: .quantity("HeartRate"), interval: .week).svg)
        let marks = geometry.elements(ofClass: "mark")
        #expect(marks.filter { $0.name == "polygon" }.count == 1)
        #expect(marks.filter { $0.name == "polyline" }.count == 1)
    }

    @Test("A sleep chart names each night by weekday and date with its year under the first, never by hours of the clock")
    func nightLabels() {
        func night(_ morning: String) -> SleepNight {
            let noon = Timestamp(commandLine: morning)!.microseconds - Self.day / 2
            return SleepNight(
                label: morning, start: Timestamp(microseconds: noon, fractionDigits: 0), end: Timestamp(microseconds: noon + Self.day, fractionDigits: 0),
                seconds: [.core: 25_200], count: 1)
        }
        let week = SVGGeometry(SleepChart(nights: ["2024-06-03", "2024-06-04", "2024-06-05"].map(night)).svg)
        #expect(week.elements(ofClass: "tick-x").map(\.lines) == [["Mon 3 Jun", "2024"], ["Tue 4 Jun"], ["Wed 5 Jun"]])
        let year = SVGGeometry(SleepChart(nights: Self.days(from: "2024-06-03", count: 300).map(night)).svg)
        let lines = year.elements(ofClass: "tick-x").map(\.lines)
        #expect(lines.count > 3)
        #expect(lines.allSatisfy { !$0[0].contains(":") })
        #expect(lines.first == ["Mon 3 Jun", "2024"])
        #expect(lines.contains { $0.count == 2 && $0[1] == "2025" })
    }
}

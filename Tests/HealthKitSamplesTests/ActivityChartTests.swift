import Foundation
import HealthLog
import HealthLogTestSupport
import Testing

/// `ActivityChart`, a statistics-collection chart model in Swift 6 language mode, run
/// against an imported export: every day of the week from its Monday 00:00 anchor, empty
/// days included, with the day totals and averages the library computes, before and after
/// a save that its update handler delivers.
@Suite("ActivityChart sample")
struct ActivityChartTests {
    /// The days `output`'s block titled `title` shows: the day's start and its figure.
    static func days(_ output: String, _ title: String, zone: TimeZone) -> [(start: Int64, value: Double?)] {
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = zone
        format.dateFormat = "yyyy-MM-dd"
        return output.block(after: title + " ").compactMap { line in
            let words = line.split(separator: " ")
            guard words.count == 2, let day = format.date(from: String(words[0])) else { return nil }
            return (Int64(day.timeIntervalSince1970) * 1_000_000, words[1] == "-" ? nil : Double(words[1]))
        }
    }

    /// The library's daily figure for `type` on the clock of `zone`, by day start.
    static func libraryDays(_ store: HealthStore, _ type: SampleType, _ options: StatisticsOptions, zone: String) throws -> [Int64: Double] {
        let query = StatisticsQuery(type: type, interval: .day, options: options, timeZone: .named(try TimeZoneRules(named: zone)))
        var figures: [Int64: Double] = [:]
        for row in try store.statistics(query) {
            figures[row.start.microseconds] = options.contains(.sum) ? row.sum : row.average
        }
        return figures
    }

    /// Checks that `shown` is the seven days from `monday` with the library's figures.
    static func expectWeek(_ shown: [(start: Int64, value: Double?)], from monday: String, zone: String, equalTo library: [Int64: Double]) {
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: zone)
        format.dateFormat = "yyyy-MM-dd"
        let start = Int64(format.date(from: monday)!.timeIntervalSince1970) * 1_000_000
        // HealthKit's enumeration ends with the interval that holds the end date (the
        // chart passes the Sunday's start).
        #expect(shown.map(\.start) == (0..<7).map { start + Int64($0) * 86_400_000_000 })
        for day in shown {
            #expect(day.value == library[day.start], "day starting \(day.start)")
        }
    }

    @Test("Steps: the week's seven days with the library's daily sums, empty days shown empty, then a saved sample's day updated")
    func stepsWeek() throws {
        let export = try ExportStore()
        defer { export.remove() }
        let run = try export.run("ActivityChart", ["steps", "2014-09-13", "--add", "500", "2014-09-10T12:00:00Z"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("chart HKQuantityTypeIdentifierStepCount by day, week of 2014-09-08 (count)\n"))

        let utc = TimeZone(identifier: "UTC")!
        let chart = Self.days(run.stdout, "chart", zone: utc)
        let updated = Self.days(run.stdout, "updated", zone: utc)
        let after = try Self.libraryDays(export.store, .quantity("StepCount"), .sum, zone: "UTC")
        // The chart came before the save: the library's figures now differ on that day only.
        var before = after
        before[Int64(1_410_307_200) * 1_000_000] = nil
        Self.expectWeek(chart, from: "2014-09-08", zone: "UTC", equalTo: before)
        Self.expectWeek(updated, from: "2014-09-08", zone: "UTC", equalTo: after)
        #expect(chart.compactMap(\.value) == [2517])
        #expect(updated.compactMap(\.value) == [500, 2517])
    }

    @Test("Heart rate: daily averages on the local clock, the week starting at the Monday's local midnight")
    func heartRateWeek() throws {
        let export = try ExportStore()
        defer { export.remove() }
        // The export's two readings are at 00:01 on Monday 1 January 2024 in Amsterdam, which
        // is still Sunday in UTC.
        let zone = "Europe/Amsterdam"
        let run = try export.run("ActivityChart", ["heartRate", "2024-01-03"], timeZone: zone)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("chart HKQuantityTypeIdentifierHeartRate by day, week of 2024-01-01 (count/min)\n"))
        let chart = Self.days(run.stdout, "chart", zone: TimeZone(identifier: zone)!)
        Self.expectWeek(chart, from: "2024-01-01", zone: zone, equalTo: try Self.libraryDays(export.store, .quantity("HeartRate"), .average, zone: zone))
        #expect(chart.map(\.value).prefix(6) == [74.5, nil, nil, nil, nil, nil])
    }
}

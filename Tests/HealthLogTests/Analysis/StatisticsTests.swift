import HealthLogTestSupport
import Testing
@testable import HealthLog

/// Per-interval statistics (`aggregate`, HealthKit's statistics collection query).
@Suite("Statistics")
struct StatisticsTests {
    private static func at(_ text: String) -> Timestamp { Timestamp(iso8601: text)! }

    private static func beat(_ value: Double, _ start: String, unit: String = "count/min", source: String = "Watch") -> QuantitySample {
        QuantitySample(type: .quantity("HeartRate"), quantity: Quantity(value, unit), fields: SampleFields(start: at(start), source: source))
    }

    @Test("Intervals: hours, days, ISO weeks from Monday and calendar months, at UTC or another offset")
    func intervalBounds() {
        let t = Self.at("2024-02-29T23:30:00Z").microseconds
        func text(_ interval: StatisticsInterval, _ offset: Int) -> String {
            let b = interval.bounds(of: t, offsetMinutes: offset)
            let start = Timestamp(microseconds: b.start, fractionDigits: 0)
            let end = Timestamp(microseconds: b.end, fractionDigits: 0)
            return "\(interval.label(of: b.start, offsetMinutes: offset)) \(start)...\(end)"
        }
        #expect(text(.hour, 0) == "2024-02-29T23:00 2024-02-29T23:00:00Z...2024-03-01T00:00:00Z")
        #expect(text(.day, 0) == "2024-02-29 2024-02-29T00:00:00Z...2024-03-01T00:00:00Z")
        #expect(text(.day, 60) == "2024-03-01 2024-02-29T23:00:00Z...2024-03-01T23:00:00Z")
        #expect(text(.week, 0) == "2024-02-26 2024-02-26T00:00:00Z...2024-03-04T00:00:00Z")
        #expect(text(.month, 0) == "2024-02 2024-02-01T00:00:00Z...2024-03-01T00:00:00Z")
        #expect(text(.month, 60) == "2024-03 2024-02-29T23:00:00Z...2024-03-31T23:00:00Z")
        #expect(text(.day, -300) == "2024-02-29 2024-02-29T05:00:00Z...2024-03-01T05:00:00Z")
        let before1970 = StatisticsInterval.week.bounds(of: Self.at("1969-12-31T12:00:00Z").microseconds, offsetMinutes: 0)
        #expect(StatisticsInterval.week.label(of: before1970.start, offsetMinutes: 0) == "1969-12-29")
    }

    @Test("Figures per day over live samples only, in one unit, with the predicate applied")
    func dailyFigures() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        let doomed = Self.beat(200, "2024-03-01T12:00:00Z")
        try store.save([
            Self.beat(60, "2024-03-01T08:00:00+01:00"), Self.beat(80, "2024-03-01T20:00:00Z"), doomed,
            Self.beat(1.5, "2024-03-01T21:00:00Z", unit: "count/s"),
            Self.beat(70, "2024-03-02T00:00:00Z", source: "Phone"), Self.beat(90, "2024-03-03T10:00:00Z"),
        ])
        try store.delete([doomed])
        let rows = try store.statistics(StatisticsQuery(type: .quantity("HeartRate"), interval: .day, options: .discrete))
        #expect(rows.map(\.label) == ["2024-03-01", "2024-03-02", "2024-03-03"])
        #expect(rows.map(\.unit) == ["count/min", "count/min", "count/min"])
        #expect(rows[0].count == 3 && rows[0].sum == nil && rows[0].average == 230 / 3.0 && rows[0].minimum == 60 && rows[0].maximum == 90)
        #expect(rows[0].mostRecent == 90, "1.5 count/s at 21:00 is the day's most recent, 90 count/min")
        #expect(rows[0].duration == nil)
        let watch = try store.statistics(StatisticsQuery(type: .quantity("HeartRate"), predicate: .sources(["Watch"]), interval: .month, options: .average))
        #expect(watch.map(\.count) == [4])
        #expect(watch[0].average == 320 / 4.0 && watch[0].maximum == nil)
    }

    @Test("Duration adds up the time category samples cover, split at interval boundaries")
    func sleepDuration() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        let sleep = SampleType.category("SleepAnalysis")
        try store.save([
            CategorySample(type: sleep, value: .name("HKCategoryValueSleepAnalysisAsleepCore"), fields: SampleFields(start: Self.at("2024-03-01T23:00:00Z"), end: Self.at("2024-03-02T01:30:00Z"))),
            CategorySample(type: sleep, value: .name("HKCategoryValueSleepAnalysisAsleepDeep"), fields: SampleFields(start: Self.at("2024-03-02T01:30:00Z"), end: Self.at("2024-03-02T02:00:00Z"))),
        ])
        let rows = try store.statistics(StatisticsQuery(type: sleep, interval: .week, options: [.duration]))
        #expect(rows.count == 1)
        #expect(rows[0].duration == 10_800.0)
        #expect(rows[0].sum == nil)
        let daily = try store.statistics(StatisticsQuery(type: sleep, interval: .day, options: [.duration]))
        #expect(daily.map(\.duration) == [3600, 7200])
    }

    @Test("Checklist 26: as in HealthKit, cumulative and discrete figures do not mix, and each type takes those of its aggregation style")
    func mixedOptions() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        try store.save([Self.beat(60, "2024-03-01T08:00:00Z"), Self.beat(90, "2024-03-01T09:00:00Z")])
        #expect(throws: HealthLogError.self) {
            try store.statistics(StatisticsQuery(type: .quantity("HeartRate"), interval: .day, options: [.sum, .average, .maximum]))
        }
        let rows = try store.statistics(StatisticsQuery(type: .quantity("HeartRate"), interval: .day, options: [.average, .maximum]))
        #expect(rows.count == 1)
        #expect(rows[0].sum == nil && rows[0].average == 75 && rows[0].maximum == 90 && rows[0].minimum == nil)
    }
}

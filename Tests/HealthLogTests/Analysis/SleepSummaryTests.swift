import HealthLogTestSupport
import Testing
@testable import HealthLog

/// ``HealthStore/sleepSummaries(predicate:timeZone:sourcePriority:)``: one row per night,
/// a watch's and a phone's samples of the same night merged so that no time counts twice.
@Suite("Sleep summaries")
struct SleepSummaryTests {
    private static let sleep = SampleType.category("SleepAnalysis")
    private static let watch = "Simon’s Apple Watch"
    private static let phone = "Simon’s iPhone"

    private static func stage(_ name: String, _ start: String, _ end: String, _ source: String, zone: String? = nil) -> CategorySample {
        CategorySample(
            type: sleep, value: .name("HKCategoryValueSleepAnalysis" + name),
            fields: SampleFields(start: Timestamp(iso8601: start)!, end: Timestamp(iso8601: end)!, source: source, metadata: zone.map { ["HKTimeZone": .string($0)] } ?? [:]))
    }

    /// The phone: in bed 22:00–07:00 and asleep 22:30–06:45; the watch: core 23:00–02:00,
    /// deep 02:00–03:00, awake 03:00–03:15, REM 03:15–05:15, core 05:15–06:30, with a
    /// deep sample of its own overlapping its core from 05:15 to 05:30. Then a second
    /// night from the phone alone.
    private static let night: [CategorySample] = [
        stage("InBed", "2024-03-01T22:00:00Z", "2024-03-02T07:00:00Z", phone),
        stage("AsleepUnspecified", "2024-03-01T22:30:00Z", "2024-03-02T06:45:00Z", phone),
        stage("AsleepCore", "2024-03-01T23:00:00Z", "2024-03-02T02:00:00Z", watch),
        stage("AsleepDeep", "2024-03-02T02:00:00Z", "2024-03-02T03:00:00Z", watch),
        stage("Awake", "2024-03-02T03:00:00Z", "2024-03-02T03:15:00Z", watch),
        stage("AsleepREM", "2024-03-02T03:15:00Z", "2024-03-02T05:15:00Z", watch),
        stage("AsleepCore", "2024-03-02T05:15:00Z", "2024-03-02T06:30:00Z", watch),
        stage("AsleepDeep", "2024-03-02T05:15:00Z", "2024-03-02T05:30:00Z", watch),
        stage("AsleepUnspecified", "2024-03-02T23:00:00Z", "2024-03-03T06:00:00Z", phone),
    ]

    private static func summaries(_ samples: [CategorySample], timeZone: StatisticsTimeZone = .fixed(offsetMinutes: 0), priority: [String] = []) throws -> [SleepSummary] {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        try store.save(samples)
        return try store.sleepSummaries(timeZone: timeZone, sourcePriority: priority)
    }

    @Test("A watch and a phone recording the same night: each stretch counts once, the watch's stages first, the phone's filling the rest")
    func watchAndPhoneMerge() throws {
        let nights = try Self.summaries(Self.night)
        #expect(nights.map(\.label) == ["2024-03-02", "2024-03-03"])
        let n = try #require(nights.first)
        let minutes = [n.inBed, n.core, n.deep, n.rem, n.unspecified, n.awake, n.asleep].map { $0 / 60 }
        // In bed 22:00–07:00 once (540). Watch: core 180 + 60, deep 60 + 15 (its deep wins over its own core), awake 15, REM 120;
        // the phone's asleep fills 22:30–23:00 and 06:30–06:45 (45).
        #expect(minutes == [540, 240, 75, 120, 45, 15, 480])
        #expect(n.efficiency == 480.0 / 540)
        #expect(n.first.description == "2024-03-01T22:00:00+00:00" && n.last.description == "2024-03-02T07:00:00+00:00")
        #expect(n.sources == [Self.watch, Self.phone] && n.count == 8)
        #expect(nights[1].inBed == 7 * 3600 && nights[1].unspecified == 7 * 3600 && nights[1].efficiency == 1)
    }

    @Test("--source-priority puts the phone first: its asleep covers the watch's stages")
    func priorityNamed() throws {
        let n = try #require(try Self.summaries(Self.night, priority: [Self.phone]).first)
        #expect(n.unspecified == 495 * 60 && n.core == 0 && n.deep == 0 && n.awake == 0 && n.inBed == 540 * 60)
    }

    @Test("Nights run noon to noon on the sample's own clock with --local: its HKTimeZone, else its recorded offset")
    func localNights() throws {
        // 11:30 in Tokyo (02:30Z) ends the night before; 13:00 in Tokyo (04:00Z) starts the next.
        let samples = [
            Self.stage("AsleepCore", "2024-03-02T01:00:00Z", "2024-03-02T02:30:00Z", Self.watch, zone: "Asia/Tokyo"),
            Self.stage("AsleepCore", "2024-03-02T04:00:00Z", "2024-03-02T05:00:00Z", Self.watch, zone: "Asia/Tokyo"),
        ]
        let local = try Self.summaries(samples, timeZone: .recorded)
        #expect(local.map(\.label) == ["2024-03-02", "2024-03-03"])
        #expect(local.first?.first.description == "2024-03-02T10:00:00+09:00")
        let utc = try Self.summaries(samples)
        #expect(utc.map(\.label) == ["2024-03-02"] && utc.first?.inBed == 2.5 * 3600)
    }

    @Test("Across a change of daylight saving a night still runs from noon to noon local time")
    func nightsAcrossDaylightSaving() throws {
        let berlin = StatisticsTimeZone.named(try TimeZoneRules(named: "Europe/Berlin"))
        let spring = try Self.summaries([Self.stage("AsleepCore", "2024-03-31T12:30:00+02:00", "2024-03-31T13:00:00+02:00", Self.watch)], timeZone: berlin)
        #expect(spring.map(\.label) == ["2024-04-01"])
        #expect(spring.first?.start.description == "2024-03-31T12:00:00+02:00" && spring.first?.end.description == "2024-04-01T12:00:00+02:00")
        let before = try Self.summaries([Self.stage("AsleepCore", "2024-03-31T11:30:00+02:00", "2024-03-31T11:45:00+02:00", Self.watch)], timeZone: berlin)
        #expect(before.first?.end.description == "2024-03-31T12:00:00+02:00")
        let fall = try Self.summaries([Self.stage("AsleepCore", "2024-10-27T11:30:00+01:00", "2024-10-27T11:45:00+01:00", Self.watch)], timeZone: berlin)
        #expect(fall.map(\.label) == ["2024-10-27"])
        #expect(fall.first?.start.description == "2024-10-26T12:00:00+02:00" && fall.first?.end.description == "2024-10-27T12:00:00+01:00")
    }
}

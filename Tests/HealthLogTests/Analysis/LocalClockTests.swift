import HealthLogTestSupport
import Testing
@testable import HealthLog

/// ``LocalClock``: a sample's local time follows its `HKTimeZone` when the tz database knows
/// it, else the offset it was recorded with, across daylight-saving changes, with the zones
/// and dates of real Apple Health exports (dates written at the offset of export time).
@Suite("Local clock")
struct LocalClockTests {
    private static func at(_ text: String) -> Timestamp { Timestamp(iso8601: text)! }

    @Test(
        "HKTimeZone wins over the offset the export wrote, on both sides of a change; an unknown zone or none falls back to it",
        arguments: [
            // A Los Angeles workout in November (PST), exported in summer at -07:00.
            ("2016-11-14T07:25:41-07:00", "America/Los_Angeles", "2016-11-14 06:25:41.000000", -480),
            // The same zone in July (PDT): the recorded offset was right.
            ("2016-07-14T07:25:41-07:00", "America/Los_Angeles", "2016-07-14 07:25:41.000000", -420),
            // Sleep on New Year's night in Amsterdam (CET), exported at +02:00.
            ("2024-01-01T00:55:28+02:00", "Europe/Amsterdam", "2023-12-31 23:55:28.000000", 60),
            // Tokyo has no daylight saving: the export's +09:00 stands.
            ("2020-03-10T19:34:50+09:00", "Asia/Tokyo", "2020-03-10 19:34:50.000000", 540),
            ("2024-01-01T00:55:28+02:00", "Mars/Olympus", "2024-01-01 00:55:28.000000", 120),
            ("2024-01-01T00:55:28+02:00", nil, "2024-01-01 00:55:28.000000", 120),
        ] as [(String, String?, String, Int)])
    func localTimes(_ start: String, _ zone: String?, _ local: String, _ offset: Int) {
        let time = Self.at(start)
        let clock = LocalClock(start: time, zone: zone)
        #expect(clock.offsetMinutes(at: time.microseconds) == offset)
        #expect(clock.local(time).localWallClock == local)
        #expect(clock.local(time).microseconds == time.microseconds)
    }

    @Test("A local midnight reads back as the instant it names on each side of Amsterdam's spring change, and the change itself when skipped")
    func firstInstants() throws {
        let clock = LocalClock(recordedOffsetMinutes: 0, zone: "Europe/Amsterdam")
        func instant(_ local: String) -> Int64 { clock.firstInstant(atLocal: Timestamp(commandLine: local)!.microseconds) }
        #expect(instant("2024-03-30") == Self.at("2024-03-29T23:00:00Z").microseconds)
        #expect(instant("2024-04-01") == Self.at("2024-03-31T22:00:00Z").microseconds)
        #expect(clock.firstInstant(atLocal: Self.at("2024-03-31T02:30:00Z").microseconds) == Self.at("2024-03-31T01:00:00Z").microseconds)
        #expect(LocalClock(recordedOffsetMinutes: -420, zone: nil).firstInstant(atLocal: 0) == 420 * 60_000_000)
    }

    @Test("export's localStart, --local days and nights of sleep follow the one rule: an Amsterdam sleep at 00:55 +02:00 on 1 January is on 31 December")
    func oneRuleEverywhere() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        var fields = SampleFields(start: Self.at("2024-01-01T00:55:28+02:00"), end: Self.at("2024-01-01T00:56:53+02:00"))
        fields.metadata = [LocalClock.metadataKey: .string("Europe/Amsterdam")]
        try store.save([CategorySample(type: .category("SleepAnalysis"), value: .name("HKCategoryValueSleepAnalysisInBed"), fields: fields)])
        let days = try store.statistics(StatisticsQuery(type: .category("SleepAnalysis"), interval: .day, options: .duration, timeZone: .recorded))
        #expect(days.map(\.label) == ["2023-12-31"])
        let nights = try store.sleepNights(timeZone: .recorded)
        #expect(nights.map(\.label) == ["2024-01-01"])
        let localDay = try store.statistics(
            StatisticsQuery(
                type: .category("SleepAnalysis"),
                predicate: .samples(withLocalStart: Timestamp(commandLine: "2023-12-31"), end: Timestamp(commandLine: "2024-01-01")), interval: .day,
                options: .duration, timeZone: .recorded))
        #expect(localDay.map(\.label) == ["2023-12-31"])
        let nextDay = try store.statistics(
            StatisticsQuery(
                type: .category("SleepAnalysis"), predicate: .samples(withLocalStart: Timestamp(commandLine: "2024-01-01"), end: nil), interval: .day,
                options: .duration, timeZone: .recorded))
        #expect(nextDay.isEmpty)
    }
}

extension LocalClockTests {
    @Test("A sample's localClock and localStart read its HKTimeZone metadata, else its recorded offset")
    func sampleLocalStart() {
        var fields = SampleFields(start: Self.at("2016-11-14T07:25:41-07:00"))
        fields.metadata = [LocalClock.metadataKey: .string("America/Los_Angeles")]
        let workout = QuantitySample(type: .quantity("StepCount"), quantity: Quantity(1, "count"), fields: fields)
        #expect(workout.localStart.description == "2016-11-14T06:25:41-08:00")
        fields.metadata = [:]
        let plain = QuantitySample(type: .quantity("StepCount"), quantity: Quantity(1, "count"), fields: fields)
        #expect(plain.localStart.description == "2016-11-14T07:25:41-07:00")
    }
}

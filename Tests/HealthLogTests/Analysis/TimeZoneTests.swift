import HealthLogTestSupport
import Testing
@testable import HealthLog

/// Days where the person lived them: IANA zones from the tz database, each sample's own
/// offset or `HKTimeZone`, across daylight-saving changes.
@Suite("Time zones")
struct TimeZoneTests {
    private static func at(_ text: String) -> Timestamp { Timestamp(iso8601: text)! }

    private static func steps(_ value: Double, _ start: String, zone: String? = nil) -> QuantitySample {
        var fields = SampleFields(start: at(start))
        if let zone { fields.metadata = [StatisticsTimeZone.metadataKey: .string(zone)] }
        return QuantitySample(type: .quantity("StepCount"), quantity: Quantity(value, "count"), fields: fields)
    }

    @Test("Europe/Berlin's offsets from the tz database: CET, CEST from the last Sunday of March, back in October, and past 2037 by the footer's rule")
    func berlinOffsets() throws {
        let berlin = try TimeZoneRules(named: "Europe/Berlin")
        func offset(_ text: String) -> Int { berlin.offsetSeconds(at: Self.at(text).microseconds / 1_000_000) }
        #expect(offset("2024-03-31T00:59:59Z") == 3600)
        #expect(offset("2024-03-31T01:00:00Z") == 7200)
        #expect(offset("2024-10-27T00:59:59Z") == 7200)
        #expect(offset("2024-10-27T01:00:00Z") == 3600)
        #expect(offset("2050-07-01T12:00:00Z") == 7200)
        #expect(offset("2050-12-01T12:00:00Z") == 3600)
        let sydney = try TimeZoneRules(named: "Australia/Sydney")
        #expect(sydney.offsetSeconds(at: Self.at("2060-01-15T00:00:00Z").microseconds / 1_000_000) == 39600)
        #expect(sydney.offsetSeconds(at: Self.at("2060-07-15T00:00:00Z").microseconds / 1_000_000) == 36000)
    }

    @Test("A zone name that is not one, or names no file, is bad usage", arguments: ["Mars/Olympus", "../etc/passwd", "", "Europe/../../x"])
    func unknownZones(_ name: String) {
        let error = #expect(throws: HealthLogError.self) { try TimeZoneRules(named: name) }
        #expect(error?.code == .badUsage)
    }

    @Test("POSIX TZ rules: southern-hemisphere daylight time across the new year, times past 24 h, Julian days")
    func posixRules() throws {
        let santiago = try #require(PosixTimeZoneRule("<-04>4<-03>,M9.1.6/24,M4.1.6/24"))
        #expect(santiago.offsetSeconds(at: Self.at("2040-01-10T12:00:00Z").microseconds / 1_000_000) == -3 * 3600)
        #expect(santiago.offsetSeconds(at: Self.at("2040-06-10T12:00:00Z").microseconds / 1_000_000) == -4 * 3600)
        let julian = try #require(PosixTimeZoneRule("XST5XDT,J60/2,J300/2"))
        #expect(julian.offsetSeconds(at: Self.at("2040-03-02T12:00:00Z").microseconds / 1_000_000) == -4 * 3600)
        #expect(PosixTimeZoneRule("CET-1CEST,M3.5") == nil)
        #expect(PosixTimeZoneRule("UTC0")?.offsetSeconds(at: 0) == 0)
    }

    @Test("A day in Europe/Berlin is 23 hours on the spring change and 25 on the autumn one; local midnights, not UTC's, bound it")
    func daysAcrossDaylightSaving() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        try store.save([
            Self.steps(1, "2024-03-30T23:30:00Z"), Self.steps(2, "2024-03-31T21:59:00Z"), Self.steps(4, "2024-03-31T22:00:00Z"),
            Self.steps(8, "2024-10-26T22:30:00Z"), Self.steps(16, "2024-10-27T22:59:00Z"), Self.steps(32, "2024-10-27T23:00:00Z"),
        ])
        let berlin = try TimeZoneRules(named: "Europe/Berlin")
        let rows = try store.statistics(StatisticsQuery(type: .quantity("StepCount"), interval: .day, options: .sum, timeZone: .named(berlin)))
        #expect(rows.map(\.label) == ["2024-03-31", "2024-04-01", "2024-10-27", "2024-10-28"])
        #expect(rows.map(\.sum) == [3, 4, 24, 32])
        #expect(rows.map { ($0.end.microseconds - $0.start.microseconds) / 3_600_000_000 } == [23, 24, 25, 24])
        #expect(rows[0].start.description == "2024-03-31T00:00:00+01:00" && rows[0].end.description == "2024-04-01T00:00:00+02:00")
        let fixed = try store.statistics(StatisticsQuery(type: .quantity("StepCount"), interval: .day, options: .sum, offsetMinutes: 60))
        #expect(fixed.map(\.sum) == [7, 8, 16, 32], "one fixed offset puts the day boundary an hour off in summer and the autumn day at 24 hours")
        let months = try store.statistics(StatisticsQuery(type: .quantity("StepCount"), interval: .month, options: .sum, timeZone: .named(berlin)))
        #expect(months.map(\.start.description) == ["2024-03-01T00:00:00+01:00", "2024-04-01T00:00:00+02:00", "2024-10-01T00:00:00+02:00"])
        let hours = try store.statistics(StatisticsQuery(type: .quantity("StepCount"), interval: .hour, options: .sum, timeZone: .named(berlin)))
        #expect(hours.map(\.label).contains("2024-10-28T00:00+01:00"))
    }

    @Test("A local midnight that the clocks skip starts its day at the change (America/Santiago, September 2024)")
    func skippedMidnight() throws {
        let santiago = try TimeZoneRules(named: "America/Santiago")
        let local = Int64(Timestamp.daysFromCivil(year: 2024, month: 9, day: 8)) * 86_400
        let start = santiago.firstInstant(atLocal: local)
        #expect(Timestamp(microseconds: start * 1_000_000, fractionDigits: 0).description == "2024-09-08T04:00:00Z")
    }

    @Test("--local: each sample in the day it was lived, by HKTimeZone when it names a zone, else by its recorded offset")
    func recordedLocalDays() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        try store.save([
            Self.steps(1, "2024-03-01T23:30:00+01:00"),
            Self.steps(2, "2024-03-01T19:30:00-05:00"),
            Self.steps(4, "2024-03-02T02:00:00+01:00", zone: "America/New_York"),
            Self.steps(8, "2024-03-02T00:30:00+01:00", zone: "Not/AZone"),
        ])
        let rows = try store.statistics(StatisticsQuery(type: .quantity("StepCount"), interval: .day, options: .sum, timeZone: .recorded))
        #expect(rows.map(\.label) == ["2024-03-01", "2024-03-02"])
        #expect(rows.map(\.sum) == [7, 8])
    }

    @Test("Sums carry no binary noise: compensated, then rounded to the decimals the values were recorded with")
    func noiselessSums() {
        var sum = CompensatedSum()
        for v in [0.1, 0.2] { sum.add(v) }
        #expect(sum.value == 0.3)
        var many = CompensatedSum()
        for _ in 0..<10_000 { many.add(0.1) }
        #expect(many.value == 1000)
        var mixed = CompensatedSum()
        for v in [1.23333, 5.5] { mixed.add(v) }
        #expect(JSONText.number(mixed.value) == "6.73333")
        var third = CompensatedSum()
        for v in [1.0 / 3, 1.0 / 3] { third.add(v) }
        #expect(third.value == 2.0 / 3, "values with no short decimal form are summed, not rounded")
    }
}

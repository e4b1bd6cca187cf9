import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// Statistics intervals laid from an anchor at any time of day, as HealthKit's
/// `anchorDate` and `intervalComponents`, and every interval of a range listed, the empty
/// ones too: compared with intervals from Foundation's `Calendar` and figures computed over
/// every live sample in memory.
@Suite("Anchored statistics intervals")
struct AnchoredIntervalTests {
    /// Interval `k` from `anchor` on `calendar`, as HealthKit's collection query lays it.
    private static func start(_ k: Int, _ anchor: Date, _ components: IntervalComponents, _ calendar: Calendar) -> Int64 {
        var step = DateComponents()
        step.month = components.months * k
        step.day = components.days * k
        step.second = Int(components.seconds) * k
        let date = calendar.date(byAdding: step, to: anchor)!
        return Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
    }

    @Test("Random anchors, lengths and zones: every interval of a range, figures as computed in memory", arguments: [11, 12, 13] as [UInt64])
    func randomSchedules(seed: UInt64) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let random = try RandomSampleStore(directory: dir.file("store"), seed: seed)
        var rng = SeededRandom(state: seed)
        let lengths = [
            IntervalComponents(hours: 2), IntervalComponents(minutes: 90), IntervalComponents(days: 1), IntervalComponents(days: 3),
            IntervalComponents(weeks: 1), IntervalComponents(months: 1), IntervalComponents(days: 1, hours: 6),
        ]
        let heartRates = random.live.filter { $0.sampleType == RandomSampleStore.heartRate }
        for _ in 0..<12 {
            let components = rng.pick(lengths)
            let zoneName = rng.pick(["UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata"])
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: zoneName)!
            let timeZone: StatisticsTimeZone = zoneName == "UTC" ? .fixed(offsetMinutes: 0) : .named(try TimeZoneRules(named: zoneName))
            // An anchor on a day in 2024 (before or after the samples), at a random time of day.
            let anchorMicros = RandomSampleStore.origin + Int64(rng.int(-40...80)) * 86_400_000_000 + Int64(rng.int(0...1_439)) * 60_000_000
            let anchor = Date(timeIntervalSince1970: Double(anchorMicros) / 1_000_000)
            let query = StatisticsQuery(
                type: RandomSampleStore.heartRate, anchorDate: Timestamp(microseconds: anchorMicros), intervalComponents: components,
                options: [.average, .minimum, .maximum], timeZone: timeZone)
            let from = RandomSampleStore.origin + Int64(rng.int(-5...20)) * 86_400_000_000 + Int64(rng.int(0...86_399)) * 1_000_000
            let to = from + Int64(rng.int(1...40)) * 86_400_000_000
            let rows = try random.store.statistics(query, from: Timestamp(microseconds: from), to: Timestamp(microseconds: to))
            // The intervals Calendar lays that overlap [from, to).
            var k = 0
            while Self.start(k, anchor, components, calendar) > from { k -= 1 }
            while Self.start(k + 1, anchor, components, calendar) <= from { k += 1 }
            var expected: [(Int64, Int64)] = []
            while Self.start(k, anchor, components, calendar) < to {
                expected.append((Self.start(k, anchor, components, calendar), Self.start(k + 1, anchor, components, calendar)))
                k += 1
            }
            #expect(rows.map(\.start.microseconds) == expected.map(\.0), "\(components) \(zoneName) anchor \(anchor)")
            #expect(rows.map(\.end.microseconds) == expected.map(\.1))
            for (row, (start, end)) in zip(rows, expected) {
                let values = heartRates.filter { $0.start.microseconds >= start && $0.start.microseconds < end }.map(\.quantity.value)
                #expect(row.count == values.count)
                #expect(row.maximum == values.max())
                #expect(row.minimum == values.min())
                if !values.isEmpty { #expect(abs(row.average! - values.reduce(0, +) / Double(values.count)) < 1e-9) } else { #expect(row.average == nil) }
            }
            #expect(rows.contains { $0.count == 0 } || rows.allSatisfy { $0.count > 0 })
        }
    }

    @Test("Weeks anchored on Monday 06:00 in Berlin: a sample at 05:59 on Monday counts in the week before, labels show the time")
    func weeksFromMondayMorning() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        func steps(_ iso: String, _ value: Double) -> QuantitySample {
            QuantitySample(type: .quantity("StepCount"), quantity: Quantity(value, "count"), fields: SampleFields(start: Timestamp(iso8601: iso)!))
        }
        // Monday 4 March 2024, 05:59 and 06:00 in Berlin (UTC+1); Monday 1 April 06:00 is UTC+2.
        try store.save([steps("2024-03-04T04:59:00Z", 10), steps("2024-03-04T05:00:00Z", 20), steps("2024-04-01T04:00:00Z", 40)])
        let berlin = StatisticsTimeZone.named(try TimeZoneRules(named: "Europe/Berlin"))
        let query = StatisticsQuery(
            type: .quantity("StepCount"), anchorDate: Timestamp(iso8601: "2024-01-01T05:00:00Z")!, intervalComponents: IntervalComponents(weeks: 1),
            options: .sum, timeZone: berlin)
        let rows = try store.statistics(query, from: Timestamp(iso8601: "2024-03-01T00:00:00Z")!, to: Timestamp(iso8601: "2024-04-02T00:00:00Z")!)
        #expect(rows.map(\.label) == ["2024-02-26T06:00", "2024-03-04T06:00", "2024-03-11T06:00", "2024-03-18T06:00", "2024-03-25T06:00", "2024-04-01T06:00"])
        #expect(rows.map(\.sum) == [10, 20, nil, nil, nil, 40])
        #expect(rows.map(\.count) == [1, 1, 0, 0, 0, 1])
        // The week across the change to summer time is an hour short.
        #expect(rows[4].end.microseconds - rows[4].start.microseconds == (7 * 24 - 1) * 3_600_000_000)
        #expect(try store.statistics(query).map(\.label) == ["2024-02-26T06:00", "2024-03-04T06:00", "2024-04-01T06:00"])
    }

    @Test("Two-hour intervals from 01:30 and months from the 31st; intervals without an anchor keep the calendar's")
    func hoursAndMonths() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        let hr = QuantitySample(type: .quantity("HeartRate"), quantity: Quantity(70, "count/min"), fields: SampleFields(start: Timestamp(iso8601: "2024-03-01T03:29:00Z")!))
        try store.save([hr])
        let twoHours = StatisticsQuery(
            type: .quantity("HeartRate"), anchorDate: Timestamp(iso8601: "2024-01-01T01:30:00Z")!, intervalComponents: IntervalComponents(hours: 2), options: .maximum)
        #expect(try store.statistics(twoHours).map(\.label) == ["2024-03-01T01:30"])
        let months = StatisticsQuery(
            type: .quantity("HeartRate"), anchorDate: Timestamp(iso8601: "2024-01-31T00:00:00Z")!, intervalComponents: IntervalComponents(months: 1), options: .maximum)
        let rows = try store.statistics(months, from: Timestamp(iso8601: "2024-01-31T00:00:00Z")!, to: Timestamp(iso8601: "2024-05-01T00:00:00Z")!)
        #expect(rows.map(\.label) == ["2024-01-31", "2024-02-29", "2024-03-31", "2024-04-30"])
        #expect(rows.map(\.count) == [0, 1, 0, 0])
        var daily = StatisticsQuery(type: .quantity("HeartRate"), interval: .day, options: .maximum)
        #expect(try store.statistics(daily).map(\.label) == ["2024-03-01"])
        daily.intervalComponents = IntervalComponents(days: 1)
        #expect(try store.statistics(daily).map(\.label) == ["2024-03-01"])
        for refused in [IntervalComponents(), IntervalComponents(days: -1), IntervalComponents(hours: .max), IntervalComponents(weeks: .min, days: 2)] {
            daily.intervalComponents = refused
            #expect(throws: HealthLogError.self) { try store.statistics(daily) }
        }
        #expect(throws: HealthLogError.self) { try store.statistics(twoHours, from: Timestamp(iso8601: "2024-03-02T00:00:00Z")!, to: Timestamp(iso8601: "2024-03-01T00:00:00Z")!) }
    }

    @Test("Half-minute intervals keep apart: their labels show seconds, and each row has its own figure")
    func halfMinutes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        func hr(_ at: String, _ value: Double) -> QuantitySample {
            QuantitySample(type: .quantity("HeartRate"), quantity: Quantity(value, "count/min"), fields: SampleFields(start: Timestamp(iso8601: at)!))
        }
        try store.save([hr("2024-03-01T10:00:10Z", 60), hr("2024-03-01T10:00:40Z", 90)])
        let query = StatisticsQuery(
            type: .quantity("HeartRate"), anchorDate: Timestamp(iso8601: "2024-03-01T00:00:00Z")!, intervalComponents: IntervalComponents(seconds: 30), options: .maximum)
        let rows = try store.statistics(query, from: Timestamp(iso8601: "2024-03-01T10:00:00Z")!, to: Timestamp(iso8601: "2024-03-01T10:01:00Z")!)
        #expect(rows.map(\.label) == ["2024-03-01T10:00:00", "2024-03-01T10:00:30"])
        #expect(rows.map(\.count) == [1, 1])
        #expect(rows.map(\.maximum) == [60, 90])
    }

    @Test("With each sample's own clock, days from 06:00 are local days: 07:00 in Berlin and 07:00 in New York share a row")
    func recordedClock() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        func heartRate(_ iso: String, _ value: Double) -> QuantitySample {
            QuantitySample(type: .quantity("HeartRate"), quantity: Quantity(value, "count/min"), fields: SampleFields(start: Timestamp(iso8601: iso)!))
        }
        try store.save([heartRate("2024-03-01T07:00:00+01:00", 60), heartRate("2024-03-01T07:00:00-05:00", 80), heartRate("2024-03-01T05:59:00-05:00", 100)])
        let query = StatisticsQuery(
            type: .quantity("HeartRate"), anchorDate: Timestamp(iso8601: "2024-01-01T06:00:00Z")!, intervalComponents: IntervalComponents(days: 1),
            options: .maximum, timeZone: .recorded)
        let rows = try store.statistics(query)
        #expect(rows.map(\.label) == ["2024-02-29T06:00", "2024-03-01T06:00"])
        #expect(rows.map(\.count) == [1, 2])
        #expect(rows.map(\.maximum) == [100, 80])
    }
}

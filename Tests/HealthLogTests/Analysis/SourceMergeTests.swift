import HealthLogTestSupport
import Testing
@testable import HealthLog

/// Statistics that merge sources as HealthKit does, against answers
/// computed by hand: each stretch of time counts once, from the highest-priority source
/// covering it, and a sample counts in proportion to the part of its duration kept.
@Suite("Source merging")
struct SourceMergeTests {
    private static func at(_ text: String) -> Timestamp { Timestamp(iso8601: text)! }
    private static let steps = SampleType.quantity("StepCount")
    private static let watch = "Simon’s Apple Watch"
    private static let phone = "Simon’s iPhone"

    private static func sample(
        _ type: SampleType, _ value: Double, _ unit: String, start: String, _ end: String? = nil, source: String
    ) -> QuantitySample {
        QuantitySample(type: type, quantity: Quantity(value, unit), fields: SampleFields(start: at(start), end: end.map(at), source: source))
    }

    /// A step count sample.
    private static func sample(_ value: Double, start: String, _ end: String? = nil, source: String) -> QuantitySample {
        sample(steps, value, "count", start: start, end, source: source)
    }

    private static func rows(_ samples: [QuantitySample], _ query: StatisticsQuery) throws -> [Statistics] {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        try store.save(samples)
        return try store.statistics(query)
    }

    private static func sums(_ rows: [Statistics]) -> [String: Double] {
        Dictionary(uniqueKeysWithValues: rows.map { ($0.label + ($0.source.map { " " + $0 } ?? ""), $0.sum ?? .nan) })
    }

    @Test("An iPhone and a Watch sample of 1000 steps over the same hour sum to 1000, not 2000")
    func sameHourCountsOnce() throws {
        let rows = try Self.rows(
            [
                Self.sample(1000, start: "2024-03-01T08:00:00Z", "2024-03-01T09:00:00Z", source: Self.phone),
                Self.sample(1000, start: "2024-03-01T08:00:00Z", "2024-03-01T09:00:00Z", source: Self.watch),
            ], StatisticsQuery(type: Self.steps, interval: .day, options: .sum))
        #expect(rows.count == 1)
        #expect(rows[0].sum == 1000)
        #expect(rows[0].count == 2)
    }

    @Test("The Watch wins where it covers; the iPhone's sample counts for the rest of its hour, prorated")
    func partialOverlapIsProrated() throws {
        // Watch 08:00-08:30 600 steps; iPhone 08:00-09:00 1000 steps, of which 08:30-09:00
        // (half its duration) is not covered by the Watch: 600 + 1000/2 = 1100.
        let samples = [
            Self.sample(1000, start: "2024-03-01T08:00:00Z", "2024-03-01T09:00:00Z", source: Self.phone),
            Self.sample(600, start: "2024-03-01T08:00:00Z", "2024-03-01T08:30:00Z", source: Self.watch),
        ]
        #expect(try Self.rows(samples, StatisticsQuery(type: Self.steps, interval: .day, options: .sum))[0].sum == 1100)
        // With the iPhone first, its whole hour is kept and the Watch adds nothing.
        let phoneFirst = StatisticsQuery(type: Self.steps, interval: .day, options: .sum, sourcePriority: [Self.phone])
        #expect(try Self.rows(samples, phoneFirst)[0].sum == 1000)
        // Separately, each source's own total.
        let separate = try Self.rows(samples, StatisticsQuery(type: Self.steps, interval: .day, options: [.sum, .separateBySource]))
        #expect(Self.sums(separate) == ["2024-03-01 \(Self.watch)": 600, "2024-03-01 \(Self.phone)": 1000])
    }

    @Test("Three sources overlapping in a staircase: each stretch from the best source covering it")
    func staircase() throws {
        // Watch 08:00-08:20 (300), iPhone 08:10-08:40 (900), app 08:00-09:00 (1200).
        // 08:00-08:20 Watch: 300. 08:20-08:40 iPhone: 900 × 20/30 = 600.
        // 08:40-09:00 app: 1200 × 20/60 = 400. Total 1300.
        let samples = [
            Self.sample(300, start: "2024-03-01T08:00:00Z", "2024-03-01T08:20:00Z", source: Self.watch),
            Self.sample(900, start: "2024-03-01T08:10:00Z", "2024-03-01T08:40:00Z", source: Self.phone),
            Self.sample(1200, start: "2024-03-01T08:00:00Z", "2024-03-01T09:00:00Z", source: "Pedometer++"),
        ]
        #expect(try Self.rows(samples, StatisticsQuery(type: Self.steps, interval: .day, options: .sum))[0].sum == 1300)
        // The app first: its hour whole, 1200.
        let appFirst = StatisticsQuery(type: Self.steps, interval: .day, options: .sum, sourcePriority: ["Pedometer++"])
        #expect(try Self.rows(samples, appFirst)[0].sum == 1200)
        // iPhone, then Watch, then app: 08:00-08:10 Watch 300 × 10/20 = 150; 08:10-08:40
        // iPhone 900; 08:40-09:00 app 400. Total 1450.
        let phoneFirst = StatisticsQuery(type: Self.steps, interval: .day, options: .sum, sourcePriority: [Self.phone, Self.watch])
        #expect(try Self.rows(samples, phoneFirst)[0].sum == 1450)
    }

    @Test("Merged and prorated on Berlin's clock: the 23-hour day of the spring change gets the parts of an iPhone and a Watch sample that lie in it")
    func mergeAcrossDaylightSaving() throws {
        // 2024-03-31 in Europe/Berlin runs 2024-03-30T23:00Z to 2024-03-31T22:00Z (23 h).
        // iPhone 240 steps 22:00Z–00:00Z: 120 on the 30th (23:00–24:00 CET), 120 on the 31st.
        // iPhone 1200 steps 21:00Z–23:00Z and Watch 600 steps 21:30Z–22:30Z: 21:00–21:30
        // iPhone (300), 21:30–22:00 Watch (300) on the 31st; 22:00–22:30 Watch (300),
        // 22:30–23:00 iPhone (300) on April 1st. So 120, 120 + 300 + 300 = 720, 600.
        func samples(zone: String?) -> [QuantitySample] {
            var list = [
                Self.sample(240, start: "2024-03-30T22:00:00Z", "2024-03-31T00:00:00Z", source: Self.phone),
                Self.sample(1200, start: "2024-03-31T21:00:00Z", "2024-03-31T23:00:00Z", source: Self.phone),
                Self.sample(600, start: "2024-03-31T21:30:00Z", "2024-03-31T22:30:00Z", source: Self.watch),
            ]
            if let zone { for i in list.indices { list[i].fields.metadata = [StatisticsTimeZone.metadataKey: .string(zone)] } }
            return list
        }
        let berlin = try TimeZoneRules(named: "Europe/Berlin")
        let named = try Self.rows(samples(zone: nil), StatisticsQuery(type: Self.steps, interval: .day, options: .sum, timeZone: .named(berlin)))
        #expect(Self.sums(named) == ["2024-03-30": 120, "2024-03-31": 720, "2024-04-01": 600])
        #expect(named.map { "\($0.start)" } == ["2024-03-30T00:00:00+01:00", "2024-03-31T00:00:00+01:00", "2024-04-01T00:00:00+02:00"])
        #expect(named.map { "\($0.end)" } == ["2024-03-31T00:00:00+01:00", "2024-04-01T00:00:00+02:00", "2024-04-02T00:00:00+02:00"])
        let recorded = try Self.rows(samples(zone: "Europe/Berlin"), StatisticsQuery(type: Self.steps, interval: .day, options: .sum, timeZone: .recorded))
        #expect(Self.sums(recorded) == Self.sums(named), "--local with HKTimeZone Europe/Berlin follows the same boundaries")
        let utc = try Self.rows(samples(zone: nil), StatisticsQuery(type: Self.steps, interval: .day, options: .sum))
        #expect(Self.sums(utc) == ["2024-03-30": 240, "2024-03-31": 1200], "on UTC's clock the same samples split otherwise")
        let separate = try Self.rows(
            samples(zone: nil), StatisticsQuery(type: Self.steps, interval: .day, options: [.sum, .separateBySource], timeZone: .named(berlin)))
        #expect(
            Self.sums(separate) == [
                "2024-03-30 \(Self.phone)": 120, "2024-03-31 \(Self.phone)": 720, "2024-04-01 \(Self.phone)": 600,
                "2024-03-31 \(Self.watch)": 300, "2024-04-01 \(Self.watch)": 300,
            ])
    }

    @Test("A sample that spans two intervals is split between them by time")
    func spanningSampleIsSplit() throws {
        // 600 steps from 23:30 to 00:30: 300 on each day; by hour 300 and 300.
        let samples = [Self.sample(600, start: "2024-03-01T23:30:00Z", "2024-03-02T00:30:00Z", source: Self.phone)]
        let daily = try Self.rows(samples, StatisticsQuery(type: Self.steps, interval: .day, options: .sum))
        #expect(Self.sums(daily) == ["2024-03-01": 300, "2024-03-02": 300])
        #expect(daily.map(\.count) == [1, 0], "the count is of samples that start in the interval")
        // A Watch sample 00:00-00:15 (100) takes its quarter hour from the iPhone's 150.
        let merged = try Self.rows(
            samples + [Self.sample(100, start: "2024-03-02T00:00:00Z", "2024-03-02T00:15:00Z", source: Self.watch)],
            StatisticsQuery(type: Self.steps, interval: .day, options: .sum))
        #expect(Self.sums(merged) == ["2024-03-01": 300, "2024-03-02": 250])
        // From the 2nd on, the 1st's share is not reported.
        let range = QueryPredicate.samples(withStart: Self.at("2024-03-02T00:00:00Z"), end: nil)
        #expect(Self.sums(try Self.rows(samples, StatisticsQuery(type: Self.steps, predicate: range, interval: .day, options: .sum))) == ["2024-03-02": 300])
    }

    @Test("A sample without duration counts whole unless a better source covers its instant")
    func instantaneousSamples() throws {
        let samples = [
            Self.sample(1000, start: "2024-03-01T08:00:00Z", "2024-03-01T09:00:00Z", source: Self.watch),
            Self.sample(50, start: "2024-03-01T08:15:00Z", source: Self.phone),
            Self.sample(70, start: "2024-03-01T09:15:00Z", source: Self.phone),
            Self.sample(5, start: "2024-03-01T09:15:00Z", source: "Pedometer++"),
        ]
        #expect(try Self.rows(samples, StatisticsQuery(type: Self.steps, interval: .day, options: .sum))[0].sum == 1070)
    }

    @Test("Distances in km and mi merge in the query's unit")
    func unitsBeforeMerging() throws {
        let distance = SampleType.quantity("DistanceWalkingRunning")
        let samples = [
            Self.sample(distance, 1.609344, "km", start: "2024-03-01T08:00:00Z", "2024-03-01T08:30:00Z", source: Self.watch),
            Self.sample(distance, 2, "mi", start: "2024-03-01T08:00:00Z", "2024-03-01T09:00:00Z", source: Self.phone),
        ]
        // Watch 1 mi over 08:00-08:30; the iPhone's second half hour is 1 mi. 2 mi, 3.218688 km.
        let km = try Self.rows(samples, StatisticsQuery(type: distance, interval: .day, options: .sum))
        #expect(km[0].unit == "km" && km[0].sum == 3.218688)
        let mi = try Self.rows(samples, StatisticsQuery(type: distance, interval: .day, options: .sum, unit: try HealthUnit("mi")))
        #expect(mi[0].unit == "mi" && abs(mi[0].sum! - 2) < 1e-12)
    }

    @Test("Sums are compensated: ten samples of 0.1 kcal sum to 1")
    func compensatedSums() throws {
        let energy = SampleType.quantity("ActiveEnergyBurned")
        let samples = (0..<10).map { i in
            Self.sample(energy, 0.1, "kcal", start: "2024-03-01T08:0\(i):00Z", "2024-03-01T08:0\(i):30Z", source: Self.watch)
        }
        #expect(try Self.rows(samples, StatisticsQuery(type: energy, interval: .day, options: .sum))[0].sum == 1)
    }

    @Test("Discrete types take every source's samples: average, minimum, maximum, most recent, in one unit")
    func discreteOverAllSources() throws {
        let mass = SampleType.quantity("BodyMass")
        let samples = [
            Self.sample(mass, 80, "kg", start: "2024-03-01T07:00:00Z", source: Self.phone),
            Self.sample(mass, 176, "lb", start: "2024-03-01T09:00:00Z", source: "Withings"),
            Self.sample(mass, 79, "kg", start: "2024-03-01T08:00:00Z", source: Self.watch),
        ]
        let kg = try Self.rows(samples, StatisticsQuery(type: mass, interval: .day, options: .discrete))
        #expect(kg.count == 1 && kg[0].unit == "kg" && kg[0].count == 3)
        let lbInKg = 176 * 0.45359237
        #expect(kg[0].minimum == 79 && kg[0].maximum == 80)
        #expect(abs(kg[0].average! - (80 + 79 + lbInKg) / 3) < 1e-12)
        #expect(abs(kg[0].mostRecent! - lbInKg) < 1e-12, "the 09:00 sample is the most recent")
        let lb = try Self.rows(samples, StatisticsQuery(type: mass, interval: .day, options: .mostRecent, unit: try HealthUnit("lb")))
        #expect(lb[0].unit == "lb" && abs(lb[0].mostRecent! - 176) < 1e-9)
        let separate = try Self.rows(samples, StatisticsQuery(type: mass, interval: .day, options: [.maximum, .separateBySource]))
        #expect(separate.map(\.source) == ["Simon’s Apple Watch", "Simon’s iPhone", "Withings"])
    }

    @Test("Options that do not fit the type's aggregation style, and units that do not fit it, are refused with the reason")
    func refusals() throws {
        let heart = StatisticsQuery(type: .quantity("HeartRate"), interval: .day, options: .sum)
        #expect(throws: HealthLogError.self) { try heart.validate() }
        let steps = StatisticsQuery(type: Self.steps, interval: .day, options: .average)
        do {
            try steps.validate()
            Issue.record("avg of steps accepted")
        } catch let error as HealthLogError {
            #expect(error.message.contains("cumulative"))
        }
        let sleep = StatisticsQuery(type: .category("SleepAnalysis"), interval: .day, options: .sum)
        #expect(throws: HealthLogError.self) { try sleep.validate() }
        let wrongUnit = StatisticsQuery(type: Self.steps, interval: .day, options: .sum, unit: try HealthUnit("kg"))
        #expect(throws: HealthLogError.self) { try wrongUnit.validate() }
        try StatisticsQuery(type: .quantity("SomethingNew"), interval: .day, options: .values).validate()
    }

    @Test("Samples of a type healthlog does not know, in units that do not convert, are refused, never mixed")
    func incompatibleStoredUnits() throws {
        let odd = SampleType.quantity("SomethingNew")
        let samples = [
            Self.sample(odd, 1, "kg", start: "2024-03-01T08:00:00Z", source: Self.phone),
            Self.sample(odd, 2, "count", start: "2024-03-01T09:00:00Z", source: Self.phone),
        ]
        #expect(throws: HealthLogError.self) { try Self.rows(samples, StatisticsQuery(type: odd, interval: .day, options: .average)) }
    }

    @Test("Duration counts each second once: overlapping sleep from two sources is not double-counted")
    func durationIsCoveredTime() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        let sleep = SampleType.category("SleepAnalysis")
        func night(_ start: String, _ end: String, _ source: String) -> CategorySample {
            CategorySample(type: sleep, value: .integer(0), fields: SampleFields(start: Self.at(start), end: Self.at(end), source: source))
        }
        try store.save([
            night("2024-03-01T23:00:00Z", "2024-03-02T07:00:00Z", Self.watch),
            night("2024-03-02T06:00:00Z", "2024-03-02T08:00:00Z", "Sleep Cycle"),
        ])
        let rows = try store.statistics(StatisticsQuery(type: sleep, interval: .day, options: .duration))
        #expect(rows.map(\.duration) == [3600, 8 * 3600], "23:00-24:00 on the 1st; 00:00-08:00 on the 2nd, 06:00-07:00 once")
    }
}

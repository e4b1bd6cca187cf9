import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// Anchor rule 9 (predicates; `docs/events-and-queries.md`), option by option through the library, and a seeded
/// randomized comparison of every kind of predicate against a brute-force filter over a
/// model of the log. The command-line spellings (`--where`, repeated options, exit 2) are
/// in `HealthLogCLITests/ConformanceCLITests.swift`.
@Suite("Conformance: rule 9, predicates")
struct ConformancePredicateTests {
    @Test("Rule 9: date ranges with either bound open, under each option")
    func rule9OpenBounds() throws {
        let fixture = try ConformanceStore()
        defer { fixture.remove() }
        let store = fixture.store
        let t = instant("2024-03-01T08:00:00Z")
        let before = quantitySample(1, start: shifted(t, seconds: -3600), end: shifted(t, seconds: -1800))
        let across = quantitySample(2, start: shifted(t, seconds: -600), end: shifted(t, seconds: 600))
        let atT = quantitySample(3, start: t)
        let after = quantitySample(4, start: shifted(t, seconds: 1800), end: shifted(t, seconds: 3600))
        try store.save([before, across, atT, after])
        func values(_ start: Timestamp?, _ end: Timestamp?, _ options: DateOptions) throws -> [Double] {
            try store.result(ReplayRequest(predicate: .samples(withStart: start, end: end, options: options))).addedSamples.compactMap { ($0 as? QuantitySample)?.quantity.value }
        }
        // [t, ∞)
        #expect(try values(t, nil, []) == [2, 3, 4])
        #expect(try values(t, nil, .strictStartDate) == [3, 4])
        #expect(try values(t, nil, .strictEndDate) == [2, 3, 4])
        #expect(try values(t, nil, [.strictStartDate, .strictEndDate]) == [3, 4])
        // (−∞, t)
        #expect(try values(nil, t, []) == [1, 2])
        #expect(try values(nil, t, .strictStartDate) == [1, 2])
        #expect(try values(nil, t, .strictEndDate) == [1])
        #expect(try values(nil, t, [.strictStartDate, .strictEndDate]) == [1])
        // Both open: everything, under any option.
        #expect(try values(nil, nil, []) == [1, 2, 3, 4])
        #expect(try values(nil, nil, [.strictStartDate, .strictEndDate]) == [1, 2, 3, 4])
        // An empty range [t, t): only a sample spanning t overlaps it; nothing lies in it.
        #expect(try values(t, t, []) == [2])
        #expect(try values(t, t, .strictStartDate) == [])
        #expect(try values(t, t, .strictEndDate) == [])
        // A start after the end is bad usage.
        expectHealthLogError(.badUsage) { try store.result(ReplayRequest(predicate: .samples(withStart: shifted(t, seconds: 1), end: t))) }
    }

    @Test("Rule 9: source, device and UUID sets are alternatives within their field; different fields combine with AND")
    func rule9SetsAndCombination() throws {
        let fixture = try ConformanceStore()
        defer { fixture.remove() }
        let store = fixture.store
        let t = instant("2024-03-01T08:00:00Z")
        let a = quantitySample(1, start: t, source: "Watch", device: "W1")
        let b = quantitySample(2, start: t, source: "Phone", device: "P1")
        let c = quantitySample(3, start: t, source: "Scale")
        let d = quantitySample(4, start: t)
        try store.save([a, b, c, d])
        func values(_ predicate: QueryPredicate) throws -> [Double] {
            try store.result(ReplayRequest(predicate: predicate)).addedSamples.compactMap { ($0 as? QuantitySample)?.quantity.value }
        }
        #expect(try values(.sources(["Watch"])) == [1])
        #expect(try values(.sources(["Watch", "Scale"])) == [1, 3])
        #expect(try values(.sources(["watch"])) == [], "names compare exactly")
        #expect(try values(.devices(["W1", "P1"])) == [1, 2])
        #expect(try values(.devices(["none"])) == [])
        #expect(try values(.uuids([b.uuid, d.uuid, SampleUUID.random()])) == [2, 4])
        #expect(try values(.and([.sources(["Watch", "Phone"]), .devices(["P1", "X"])])) == [2])
        #expect(try values(.and([.sources(["Watch", "Phone", "Scale"]), .uuids([c.uuid, d.uuid])])) == [3])
        #expect(try values(.and([.sources(["Watch"]), .sources(["Phone"])])) == [], "two separate predicates both apply")
    }

    @Test("Rule 9: metadata key exists, and KEY=VALUE compares the value's text form (1 matches 1 and \"1\", true matches true and \"true\")")
    func rule9Metadata() throws {
        let fixture = try ConformanceStore()
        defer { fixture.remove() }
        let store = fixture.store
        let values = [#"1"#, #""1""#, #"true"#, #""true""#, #"false"#, #"2.5"#, #""x y""#, #"10"#]
        let text = values.enumerated().map { i, v in
            #"{"type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T08:00:00Z","value":\#(i),"unit":"count/min","metadata":{"k":\#(v),"other":0}}"# + "\n"
        }.joined() + #"{"type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T08:00:00Z","value":99,"unit":"count/min"}"# + "\n"
        _ = try store.append(ndjson: Array(text.utf8))
        func matching(_ predicate: QueryPredicate) throws -> [Double] {
            try store.result(ReplayRequest(predicate: predicate)).addedSamples.compactMap { ($0 as? QuantitySample)?.quantity.value }
        }
        #expect(try matching(.metadata(key: "k")) == [0, 1, 2, 3, 4, 5, 6, 7])
        #expect(try matching(.metadata(key: "absent")) == [])
        #expect(try matching(.metadata(key: "k", equals: "1")) == [0, 1])
        #expect(try matching(.metadata(key: "k", equals: "true")) == [2, 3])
        #expect(try matching(.metadata(key: "k", equals: "false")) == [4])
        #expect(try matching(.metadata(key: "k", equals: "2.5")) == [5])
        #expect(try matching(.metadata(key: "k", equals: "x y")) == [6])
        #expect(try matching(.metadata(key: "k", equals: "\"1\"")) == [], "the text form has no quotes")
        #expect(try matching(.metadata(key: "k", equals: "")) == [])
        #expect(try matching(.and([.metadata(key: "k", equals: "1"), .metadata(key: "other", equals: "0")])) == [0, 1], "several all apply")
        #expect(try matching(.and([.metadata(key: "k", equals: "1"), .metadata(key: "k", equals: "true")])) == [])
        // Values saved through the library compare the same way.
        let saved = quantitySample(50, start: instant("2024-03-01T09:00:00Z"), metadata: ["n": 10, "b": true, "s": "10"])
        try store.save([saved])
        #expect(try matching(.metadata(key: "n", equals: "10")) == [50])
        #expect(try matching(.metadata(key: "s", equals: "10")) == [50])
        #expect(try matching(.metadata(key: "b", equals: "true")) == [50])
    }

    @Test("Rule 9: workout activities match workouts by activity, by full name or short name in any case; a workout's deletion goes through")
    func rule9WorkoutActivities() throws {
        let fixture = try ConformanceStore()
        defer { fixture.remove() }
        let store = fixture.store
        let t = instant("2024-03-01T08:00:00Z")
        let run = WorkoutSample(activity: "HKWorkoutActivityTypeRunning", duration: 600, fields: SampleFields(start: t))
        let ride = WorkoutSample(activity: "HKWorkoutActivityTypeCycling", duration: 900, fields: SampleFields(start: t))
        let gone = WorkoutSample(activity: "HKWorkoutActivityTypeCycling", duration: 300, fields: SampleFields(start: t))
        try store.save([run, ride, gone, quantitySample(100, start: t), categorySample(.integer(1), start: t)])
        _ = try store.delete([gone.uuid])
        func matching(_ activities: Set<String>) throws -> (added: [SampleUUID], deleted: [SampleUUID]) {
            let result = try store.result(ReplayRequest(predicate: .workoutActivities(activities)))
            return (result.addedSamples.map(\.uuid), result.deletedObjects.map(\.uuid))
        }
        #expect(try matching(["HKWorkoutActivityTypeRunning"]) == ([run.uuid], [gone.uuid]))
        #expect(try matching(["running"]) == ([run.uuid], [gone.uuid]))
        #expect(try matching(["Cycling", "Swimming"]) == ([ride.uuid], [gone.uuid]))
        #expect(try matching(["Swimming"]) == ([], [gone.uuid]))
        let notRunning = try store.result(ReplayRequest(types: [SampleType.workout.identifier], predicate: .not(.workoutActivities(["Running"]))))
        #expect(notRunning.addedSamples.map(\.uuid) == [ride.uuid])
    }

    @Test("Rule 9: quantity comparisons, every operator, in the sample's own unit, match quantity samples only; several all apply")
    func rule9QuantityComparison() throws {
        let fixture = try ConformanceStore()
        defer { fixture.remove() }
        let store = fixture.store
        let t = instant("2024-03-01T08:00:00Z")
        try store.save([
            quantitySample(99, start: t), quantitySample(100, start: t), quantitySample(100.5, start: t),
            quantitySample(150, type: .quantity("BodyMass"), unit: "kg", start: t),  // compared in kg, as recorded
            categorySample(.integer(150), type: .category("Mystery"), start: t),  // a category with a big value: not a quantity
            WorkoutSample(activity: "HKWorkoutActivityTypeRunning", duration: 600, fields: SampleFields(start: t)),
        ])
        func values(_ predicate: QueryPredicate) throws -> [Double] {
            let result = try store.result(ReplayRequest(predicate: predicate))
            #expect(result.addedSamples.allSatisfy { $0 is QuantitySample }, "only quantity samples")
            return result.addedSamples.compactMap { ($0 as? QuantitySample)?.quantity.value }
        }
        let expected: [(ComparisonOperator, [Double])] = [
            (.lessThan, [99]), (.lessThanOrEqual, [99, 100]), (.greaterThan, [100.5, 150]), (.greaterThanOrEqual, [100, 100.5, 150]),
            (.equal, [100]), (.notEqual, [99, 100.5, 150]),
        ]
        for (op, want) in expected {
            #expect(try values(.quantity(op, 100)) == want, "value \(op.rawValue) 100")
            // The command line's spelling parses to the same predicate, with or without blanks.
            #expect(try WhereExpression.parse("value \(op.rawValue) 100") == .quantity(op, 100))
            #expect(try WhereExpression.parse("value\(op.rawValue)100") == .quantity(op, 100))
        }
        #expect(try values(.and([.quantity(.greaterThan, 99), .quantity(.lessThan, 150)])) == [100, 100.5])
        #expect(try values(.quantity(.greaterThan, -1e3)) == [99, 100, 100.5, 150])
        #expect(try WhereExpression.parse("  value >= -1e3 ") == .quantity(.greaterThanOrEqual, -1000))
        for bad in ["", "value", "value >", "value > x", "value >> 1", "value => 1", "val > 1", "value > 1 and", "value > 1e999x", "value <> 1", "value > NaN"] {
            expectHealthLogError(.badUsage) { try WhereExpression.parse(bad) }
        }
        let error = expectHealthLogError(.badUsage) { try WhereExpression.parse("value => 100") }
        #expect(error?.message.contains("'=>'") == true, "names the bad token: \(error?.message ?? "")")
        let unknown = expectHealthLogError(.badUsage) { try WhereExpression.parse("weight > 100") }
        #expect(unknown?.message.contains("'weight'") == true, "\(unknown?.message ?? "")")
    }

    @Test("Rule 9: category values match by integer or by name in any spelling, a name matching its integer where the constant is known (HKCategoryValueSleepAnalysisAsleepUnspecified ↔ 1)")
    func rule9CategoryValues() throws {
        let fixture = try ConformanceStore()
        defer { fixture.remove() }
        let store = fixture.store
        let t = instant("2024-03-01T08:00:00Z")
        let stored: [CategoryValue] = [
            .integer(1), .name("HKCategoryValueSleepAnalysisAsleepUnspecified"), .integer(3), .name("HKCategoryValueSleepAnalysisAsleepCore"),
            .name("HKCategoryValueSleepAnalysisMystery"), .integer(0), .name("HKCategoryValueSleepAnalysisInBed"),
        ]
        // The unknown name belongs to a category type healthlog does not know (for sleep
        // analysis it is refused): it is stored as given.
        let samples = stored.enumerated().map { i, value in categorySample(value, type: i == 4 ? .category("Mystery") : sleepType, start: t) }
        try store.save(samples + [quantitySample(1, start: t)])
        func indices(_ values: [CategoryValue]) throws -> [Int] {
            let found = try store.result(ReplayRequest(predicate: .categoryValues(values))).addedSamples.map(\.uuid)
            return found.compactMap { uuid in samples.firstIndex { $0.uuid == uuid } }
        }
        #expect(try indices([.integer(1)]) == [0, 1], "1 matches 1 and AsleepUnspecified; the quantity of value 1 does not match")
        #expect(try indices([.name("HKCategoryValueSleepAnalysisAsleepUnspecified")]) == [0, 1])
        #expect(try indices([CategoryValue(text: "3")]) == [2, 3])
        #expect(try indices([CategoryValue(text: "HKCategoryValueSleepAnalysisAsleepCore")]) == [2, 3])
        #expect(try indices([.name("HKCategoryValueSleepAnalysisMystery")]) == [4], "an unknown name matches only itself")
        #expect(try indices([.integer(0)]) == [5, 6])
        #expect(try indices([.integer(1), .integer(3)]) == [0, 1, 2, 3], "repeated values are alternatives")
        #expect(try indices([.integer(2)]) == [])
        #expect(try indices([CategoryValue(text: "asleepcore")]) == [2, 3], "the part after the type's prefix, in any case")
        // A known type's value comes back in its one stored form, the constant's full name;
        // an unknown type's as written.
        let back = try store.result(ReplayRequest(anchor: .beginning)).addedSamples.compactMap { ($0 as? CategorySample)?.value.description }
        #expect(back == [
            "HKCategoryValueSleepAnalysisAsleepUnspecified", "HKCategoryValueSleepAnalysisAsleepUnspecified", "HKCategoryValueSleepAnalysisAsleepCore",
            "HKCategoryValueSleepAnalysisAsleepCore", "HKCategoryValueSleepAnalysisMystery", "HKCategoryValueSleepAnalysisInBed",
            "HKCategoryValueSleepAnalysisInBed",
        ])
    }

    @Test("Rule 9: seeded random predicates of every kind, types, anchors and both views match a brute-force filter over the log", arguments: [3, 2024] as [UInt64])
    func rule9RandomAgainstBruteForce(seed: UInt64) throws {
        let fixture = try ConformanceStore(batchBytes: 900, segmentBytes: 6_000)
        defer { fixture.remove() }
        let store = fixture.store
        var rng = SeededRandom(state: seed)
        var model = PredicateModel()
        for _ in 0..<30 {
            let text = model.randomAppend(&rng)
            _ = try store.append(ndjson: Array(text.utf8))
        }
        // The model numbers events as the store does.
        let raw = try replayLines(store, ReplayRequest(raw: true)).lines
        #expect(raw.map(\.seq) == model.events.map(\.seq))
        #expect(raw.map { $0.uuid } == model.events.map { "\($0.uuid)" })
        #expect(raw.map(\.isDelete) == model.events.map(\.isDelete))
        let head = UInt64(model.events.count)

        var nonEmpty = 0
        for round in 0..<60 {
            let predicate = model.randomPredicate(&rng)
            let types: Set<String> = rng.chance(60) ? [] : Set((0..<rng.int(1...2)).map { _ in rng.pick(PredicateModel.types).identifier })
            let anchor = rng.chance(40) ? 0 : UInt64(rng.int(0...Int(head)))
            let isRaw = rng.chance(25)
            let request = ReplayRequest(anchor: QueryAnchor(fromValue: anchor), types: types, predicate: predicate.value, raw: isRaw)
            let expected = model.expected(after: anchor, types: types, predicate: predicate, raw: isRaw)
            let lines = try replayLines(store, request).lines
            #expect(lines.map(\.seq) == expected, "seed \(seed) round \(round): \(predicate.summary) types \(types.sorted()) from \(anchor) raw \(isRaw)")
            if !expected.isEmpty { nonEmpty += 1 }
            if round % 10 == 0 {
                // Paging the same query returns the same items.
                let limit = rng.int(2...9)
                var from = QueryAnchor(fromValue: anchor)
                var paged: [UInt64] = []
                for _ in 0...expected.count {
                    var page = request
                    page.anchor = from
                    page.limit = limit
                    let (got, outcome) = try replayLines(store, page)
                    paged += got.map(\.seq)
                    if got.isEmpty { break }
                    from = outcome.newAnchor
                }
                #expect(paged == expected, "paged by \(limit)")
                let result = try store.result(request)
                #expect(result.addedSamples.count + result.deletedObjects.count == expected.count)
            }
        }
        #expect(nonEmpty > 18, "the random predicates should often match something")
    }
}

/// A model of a random log for ``ConformancePredicateTests``: what was appended, and which
/// items a predicate selects, computed independently of the library's predicate code.
struct PredicateModel {
    struct Event {
        var seq: UInt64
        var isDelete: Bool
        var uuid: SampleUUID
        var type: SampleType
        var start: Int64
        var end: Int64
        var source: String?
        var device: String?
        /// Key and the value's text form.
        var metadata: [String: String]
        var number: Double?
        var category: CategoryValue?
    }

    /// A random predicate and its conditions in a form the brute-force filter reads.
    struct Predicate {
        var value: QueryPredicate = .all
        var dates: (start: Int64?, end: Int64?, options: DateOptions)?
        var sources: Set<String>?
        var devices: Set<String>?
        var uuids: Set<SampleUUID>?
        var keys: [String] = []
        var equals: [(String, String)] = []
        var comparisons: [(ComparisonOperator, Double)] = []
        var categories: [CategoryValue]?
        var summary = ""
    }

    static let types = [hrType, stepType, sleepType, SampleType.workout]
    static let sleepNames: [String: Int] = [
        "HKCategoryValueSleepAnalysisInBed": 0, "HKCategoryValueSleepAnalysisAsleepUnspecified": 1, "HKCategoryValueSleepAnalysisAwake": 2,
        "HKCategoryValueSleepAnalysisAsleepCore": 3, "HKCategoryValueSleepAnalysisAsleepDeep": 4, "HKCategoryValueSleepAnalysisAsleepREM": 5,
    ]
    static let unknownName = "HKCategoryValueSleepAnalysisMystery"
    static let sources = ["Watch", "Phone", "Scale"]
    static let devices = ["W1", "P1"]
    /// Metadata values: JSON text and text form.
    static let metadataValues: [(json: String, text: String)] = [("1", "1"), ("\"1\"", "1"), ("true", "true"), ("\"true\"", "true"), ("2.5", "2.5"), ("\"x\"", "x"), ("false", "false")]
    static let base: Int64 = 1_709_280_000_000_000  // 2024-03-01T08:00:00Z

    var events: [Event] = []
    var live: [SampleUUID: Int] = [:]  // uuid → index of its add
    var syncCounter = 0

    /// The text of a random append (adds and deletes), recorded in the model.
    mutating func randomAppend(_ rng: inout SeededRandom) -> String {
        var out = ""
        for _ in 0..<rng.int(1...8) {
            if !live.isEmpty, rng.chance(20) {
                let uuid = live.keys.sorted()[rng.int(0...live.count - 1)]
                let sample = events[live.removeValue(forKey: uuid)!]
                var deletion = sample
                deletion.seq = UInt64(events.count + 1)
                deletion.isDelete = true
                deletion.metadata = sample.metadata.filter { $0.key == syncIDKey || $0.key == syncVersionKey }
                deletion.number = nil
                deletion.category = nil
                events.append(deletion)
                out += #"{"op":"delete","uuid":"\#(uuid)"}"# + "\n"
                continue
            }
            let index = events.count
            let type = rng.pick(Self.types)
            var start = Self.base + Int64(index) * 420_000_000 + Int64(rng.int(-600...600)) * 1_000_000
            if rng.chance(5) { start += Int64(rng.int(-5...5)) * 86_400_000_000 }
            let end = rng.chance(40) ? start : start + Int64(rng.int(1...10_800)) * 1_000_000
            let offset = rng.pick([0, 60, -330])
            func stamp(_ micros: Int64) -> String {
                Timestamp(microseconds: micros, offsetMinutes: Int16(offset), isZulu: offset == 0, fractionDigits: 3).description
            }
            var event = Event(
                seq: UInt64(index + 1), isDelete: false, uuid: SampleUUID.random(using: &rng), type: type, start: start, end: end,
                source: rng.chance(75) ? rng.pick(Self.sources) : nil, device: rng.chance(50) ? rng.pick(Self.devices) : nil, metadata: [:])
            var line = #"{"uuid":"\#(event.uuid)","type":"\#(type.identifier)","start":"\#(stamp(start))","end":"\#(stamp(end))""#
            switch type.kind {
            case .quantity:
                let value = type == hrType ? Double(rng.int(400...2000)) / 10 : Double(rng.int(0...500))
                event.number = value
                line += #","value":\#(JSONText.number(value)),"unit":"\#(type == hrType ? "count/min" : "count")""#
            case .category:
                if rng.chance(50) {
                    let value = rng.int(0...5)
                    event.category = .integer(value)
                    line += #","value":\#(value)"#
                } else {
                    let name = Self.sleepNames.keys.sorted()[rng.int(0...5)]
                    event.category = .name(name)
                    line += #","value":"\#(name)""#
                }
            default:
                line += #","activity":"HKWorkoutActivityTypeRunning""#
            }
            if let source = event.source { line += #","source":"\#(source)""# }
            if let device = event.device { line += #","device":"\#(device)""# }
            var members: [String] = []
            if rng.chance(50) {
                let (json, text) = rng.pick(Self.metadataValues)
                members.append(#""k":\#(json)"#)
                event.metadata["k"] = text
            }
            if rng.chance(25) {
                members.append(#""m":"here""#)
                event.metadata["m"] = "here"
            }
            if rng.chance(25) {
                syncCounter += 1
                members.append(#""\#(syncIDKey)":"s\#(syncCounter % 7)-\#(index)","\#(syncVersionKey)":1"#)
                event.metadata[syncIDKey] = "s\(syncCounter % 7)-\(index)"
                event.metadata[syncVersionKey] = "1"
            }
            if !members.isEmpty { line += #","metadata":{\#(members.joined(separator: ","))}"# }
            out += line + "}\n"
            live[event.uuid] = index
            events.append(event)
        }
        return out
    }

    /// A random predicate whose date bounds are often exactly a sample's start or end.
    func randomPredicate(_ rng: inout SeededRandom) -> Predicate {
        var p = Predicate()
        var parts: [QueryPredicate] = []
        func boundary() -> Int64 {
            let e = events[rng.int(0...events.count - 1)]
            return (rng.chance(50) ? e.start : e.end) + Int64(rng.pick([0, 0, 0, -1000, 1000]))
        }
        if rng.chance(45) {
            var s: Int64? = rng.chance(20) ? nil : boundary()
            var e: Int64? = rng.chance(20) ? nil : boundary()
            if let a = s, let b = e, a > b { (s, e) = (b, a) }
            var options: DateOptions = []
            if rng.chance(40) { options.insert(.strictStartDate) }
            if rng.chance(40) { options.insert(.strictEndDate) }
            p.dates = (s, e, options)
            parts.append(.samples(withStart: s.map { Timestamp(microseconds: $0) }, end: e.map { Timestamp(microseconds: $0) }, options: options))
            p.summary += "dates(\(s.map(String.init) ?? "nil"), \(e.map(String.init) ?? "nil"), \(options.rawValue)) "
        }
        if rng.chance(25) {
            p.sources = Set((0..<rng.int(1...2)).map { _ in rng.pick(Self.sources + ["Nobody"]) })
            parts.append(.sources(p.sources!))
            p.summary += "sources\(p.sources!.sorted()) "
        }
        if rng.chance(20) {
            p.devices = Set((0..<rng.int(1...2)).map { _ in rng.pick(Self.devices + ["None"]) })
            parts.append(.devices(p.devices!))
            p.summary += "devices\(p.devices!.sorted()) "
        }
        if rng.chance(12) {
            p.uuids = Set((0..<rng.int(1...6)).map { _ in events[rng.int(0...events.count - 1)].uuid })
            parts.append(.uuids(p.uuids!))
            p.summary += "uuids(\(p.uuids!.count)) "
        }
        if rng.chance(20) {
            let key = rng.pick(["k", "m", syncIDKey, "absent"])
            p.keys.append(key)
            parts.append(.metadata(key: key))
            p.summary += "has(\(key)) "
        }
        if rng.chance(20) {
            let key = rng.pick(["k", "k", syncVersionKey])
            let value = rng.pick(["1", "true", "2.5", "x", "false", "\"1\""])
            p.equals.append((key, value))
            parts.append(.metadata(key: key, equals: value))
            p.summary += "\(key)=\(value) "
        }
        for _ in 0..<(rng.chance(30) ? rng.int(1...2) : 0) {
            let op = rng.pick(ComparisonOperator.allCases)
            let number = rng.pick([0, 60, 100, 120.5, 250, 500])
            p.comparisons.append((op, number))
            parts.append(.quantity(op, number))
            p.summary += "value\(op.rawValue)\(number) "
        }
        if rng.chance(20) {
            let pool: [CategoryValue] = (0...5).map { .integer($0) } + Self.sleepNames.keys.sorted().map { .name($0) } + [.name(Self.unknownName)]
            p.categories = (0..<rng.int(1...2)).map { _ in rng.pick(pool) }
            parts.append(.categoryValues(p.categories!))
            p.summary += "category\(p.categories!) "
        }
        p.value = .and(parts)
        return p
    }

    /// The sequence numbers a query returns, by brute force.
    func expected(after anchor: UInt64, types: Set<String>, predicate p: Predicate, raw: Bool) -> [UInt64] {
        let after = events.filter { $0.seq > anchor }
        let deletedLater = Set(after.filter(\.isDelete).map(\.uuid))
        return after.filter { e in
            if !raw, !e.isDelete, deletedLater.contains(e.uuid) { return false }
            if !types.isEmpty, !types.contains(e.type.identifier) { return false }
            return Self.matches(e, p)
        }.map(\.seq)
    }

    static func matches(_ e: Event, _ p: Predicate) -> Bool {
        if let dates = p.dates {
            let (s, end, options) = dates
            func inRange(_ t: Int64) -> Bool { (s.map { t >= $0 } ?? true) && (end.map { t < $0 } ?? true) }
            if options.isEmpty {
                if let end, !(e.start < end) { return false }
                if let s, !(e.end >= s) { return false }
            }
            if options.contains(.strictStartDate), !inRange(e.start) { return false }
            if options.contains(.strictEndDate), !inRange(e.end) { return false }
        }
        if let sources = p.sources, !(e.source.map(sources.contains) ?? false) { return false }
        if let devices = p.devices, !(e.device.map(devices.contains) ?? false) { return false }
        if let uuids = p.uuids, !uuids.contains(e.uuid) { return false }
        let carried: Set<String> = [syncIDKey, syncVersionKey]
        for key in p.keys where !(e.isDelete && !carried.contains(key)) {
            if e.metadata[key] == nil { return false }
        }
        for (key, value) in p.equals where !(e.isDelete && !carried.contains(key)) {
            if e.metadata[key] != value { return false }
        }
        for (op, number) in p.comparisons {
            guard e.type.kind == .quantity else { return false }
            if e.isDelete { continue }
            let v = e.number!
            let holds: Bool
            switch op {
            case .lessThan: holds = v < number
            case .lessThanOrEqual: holds = v <= number
            case .greaterThan: holds = v > number
            case .greaterThanOrEqual: holds = v >= number
            case .equal: holds = v == number
            case .notEqual: holds = v != number
            }
            if !holds { return false }
        }
        if let wanted = p.categories {
            guard e.type.kind == .category else { return false }
            if !e.isDelete {
                let value = e.category!
                func integer(_ c: CategoryValue) -> Int? {
                    switch c {
                    case .integer(let i): i
                    case .name(let n): sleepNames[n]
                    }
                }
                let ok = wanted.contains { w in
                    if w == value { return true }
                    switch (w, value) {
                    case (.name, .name): return false
                    default: return integer(w) != nil && integer(w) == integer(value)
                    }
                }
                if !ok { return false }
            }
        }
        return true
    }
}

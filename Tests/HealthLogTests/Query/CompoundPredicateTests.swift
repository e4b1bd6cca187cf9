import HealthLogTestSupport
import Testing
@testable import HealthLog

/// OR and NOT predicates, nested with AND: anchored queries, statistics and long-running
/// queries return what evaluating the predicate over every sample in memory gives, and
/// pruning by the batch headers' time spans never skips a group that holds a match.
@Suite("Compound predicates")
struct CompoundPredicateTests {
    @Test("Random OR/NOT/AND predicates replay as an in-memory evaluation predicts", arguments: [3, 41, 2026] as [UInt64])
    func randomPredicates(seed: UInt64) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let random = try RandomSampleStore(directory: dir.file("store"), seed: seed)
        let head = try random.store.headAnchor()
        var rng = SeededRandom(state: seed &* 31)
        var compound = 0
        for _ in 0..<60 {
            let tree = ModelPredicate.random(&rng, depth: 3)
            if tree.isCompound { compound += 1 }
            let types: Set<SampleType> = rng.pick([[], [RandomSampleStore.heartRate], [RandomSampleStore.steps]])
            let after = UInt64(rng.chance(50) ? 0 : rng.int(0...Int(head.seq)))
            let anchor = QueryAnchor(seq: after, storeTag: head.storeTag, generation: head.generation)
            let result = try random.store.result(ReplayRequest(anchor: anchor, types: Set(types.map(\.identifier)), predicate: tree.predicate))
            let chosen = random.entries.filter { types.isEmpty || types.contains($0.sample.sampleType) }
            let added = chosen.filter { $0.added > after && $0.deleted == nil && tree.evaluate($0.sample, isDelete: false) == true }
            let deleted = chosen.filter { ($0.deleted ?? 0) > after && tree.evaluate($0.sample, isDelete: true) != false }.sorted { $0.deleted! < $1.deleted! }
            #expect(result.addedSamples.map(\.uuid) == added.map(\.sample.uuid), "\(tree)")
            #expect(result.deletedObjects.map(\.uuid) == deleted.map(\.sample.uuid), "\(tree)")
        }
        #expect(compound > 15)
    }

    @Test("An OR of date ranges reads only their groups; a NOT of one reads the groups outside it")
    func pruning() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        for month in 1...6 {
            let samples: [any Sample] = (1...20).map { day in
                let start = Timestamp(commandLine: "2024-0\(month)-\(day < 10 ? "0" : "")\(day)")!
                return QuantitySample(type: .quantity("HeartRate"), quantity: Quantity(Double(60 + day), "count/min"), fields: SampleFields(start: start))
            }
            try store.save(samples)
        }
        func month(_ m: Int) -> QueryPredicate {
            .samples(withStart: Timestamp(commandLine: "2024-0\(m)-01"), end: Timestamp(commandLine: "2024-0\(m + 1)-01"), options: .strictStartDate)
        }
        let request = ReplayRequest(types: ["HKQuantityTypeIdentifierHeartRate"], predicate: .or([month(2), month(5)]))
        var lines = 0
        let outcome = try store.replay(request) { _ in lines += 1 }
        #expect(lines == 40)
        #expect(outcome.groupsRead == 2)
        lines = 0
        let outside = try store.replay(ReplayRequest(types: ["HKQuantityTypeIdentifierHeartRate"], predicate: .not(month(3)))) { _ in lines += 1 }
        #expect(lines == 100)
        #expect(outside.groupsRead == 6)
        lines = 0
        _ = try store.replay(ReplayRequest(types: ["HKQuantityTypeIdentifierHeartRate"], predicate: .or([]))) { _ in lines += 1 }
        #expect(lines == 0)
    }

    @Test("The deletion of a quantity sample passes a NOT of a value comparison, also ANDed with a source; a NOT of the source it carries rules it out")
    func deletionsUnderNot() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        let watch = QuantitySample(
            type: .quantity("HeartRate"), quantity: Quantity(150, "count/min"), fields: SampleFields(start: Timestamp(commandLine: "2024-03-01")!, source: "Watch"))
        let phone = QuantitySample(
            type: .quantity("HeartRate"), quantity: Quantity(150, "count/min"), fields: SampleFields(start: Timestamp(commandLine: "2024-03-01")!, source: "Phone"))
        try store.save([watch, phone])
        try store.delete([watch.uuid, phone.uuid])
        let notHigh = try store.result(ReplayRequest(predicate: .not(.quantity(.greaterThan, 100))))
        #expect(Set(notHigh.deletedObjects.map(\.uuid)) == [watch.uuid, phone.uuid])
        let notHighWatch = try store.result(ReplayRequest(predicate: .not(.and([.quantity(.greaterThan, 100), .sources(["Watch"])]))))
        #expect(Set(notHighWatch.deletedObjects.map(\.uuid)) == [watch.uuid, phone.uuid])
        let notWatch = try store.result(ReplayRequest(predicate: .and([.not(.sources(["Watch"])), .quantity(.greaterThan, 100)])))
        #expect(notWatch.deletedObjects.map(\.uuid) == [phone.uuid])
    }

    @Test("Statistics count only the samples an OR/NOT predicate matches")
    func statistics() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let random = try RandomSampleStore(directory: dir.file("store"), seed: 77)
        let tree = ModelPredicate.or([.source("iPhone"), .not(.quantityAbove(100))])
        let rows = try random.store.statistics(
            StatisticsQuery(type: RandomSampleStore.heartRate, predicate: tree.predicate, interval: .day, options: [.average, .maximum]))
        let kept = random.live.filter { $0.sampleType == RandomSampleStore.heartRate && tree.evaluate($0, isDelete: false) == true }
        #expect(rows.reduce(0) { $0 + $1.count } == kept.count)
        #expect(rows.compactMap(\.maximum).max() == kept.map(\.quantity.value).max())
        #expect(kept.contains { $0.quantity.value > 100 } && kept.contains { $0.quantity.value <= 100 })
    }

    @Test("A long-running query with an OR predicate delivers the later matching samples only")
    func follow() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        func sample(_ source: String) -> QuantitySample {
            QuantitySample(type: .quantity("HeartRate"), quantity: Quantity(70, "count/min"), fields: SampleFields(start: Timestamp(commandLine: "2024-03-01")!, source: source))
        }
        try store.save([sample("A")])
        let descriptor = AnchoredObjectQueryDescriptor(types: [.quantity("HeartRate")], predicate: .or([.sources(["A"]), .sources(["B"])]))
        var seen: [String?] = []
        for try await result in descriptor.results(for: store) {
            seen += result.addedSamples.map(\.source)
            if seen.count == 1 { try store.save([sample("C"), sample("B")]) }
            if seen.count >= 2 { break }
        }
        #expect(seen == ["A", "B"])
    }
}

/// A predicate tree and its evaluation over a sample in memory, three-valued for a
/// deleted object (`nil`: it depends on a field the deleted object does not carry).
indirect enum ModelPredicate: CustomStringConvertible {
    case dates(Int64, Int64, DateOptions)
    case source(String)
    case quantityAbove(Double)
    case hasMood
    case and([ModelPredicate])
    case or([ModelPredicate])
    case not(ModelPredicate)

    var predicate: QueryPredicate {
        switch self {
        case .dates(let start, let end, let options):
            .samples(withStart: Timestamp(microseconds: start), end: Timestamp(microseconds: end), options: options)
        case .source(let name): .sources([name])
        case .quantityAbove(let value): .quantity(.greaterThan, value)
        case .hasMood: .metadata(key: "Mood")
        case .and(let parts): .and(parts.map(\.predicate))
        case .or(let parts): .or(parts.map(\.predicate))
        case .not(let part): .not(part.predicate)
        }
    }

    var isCompound: Bool {
        switch self {
        case .or, .not: true
        case .and(let parts): parts.contains(where: \.isCompound)
        default: false
        }
    }

    func evaluate(_ sample: QuantitySample, isDelete: Bool) -> Bool? {
        switch self {
        case .dates(let start, let end, let options):
            let s = sample.start.microseconds
            let e = sample.end.microseconds
            func within(_ t: Int64) -> Bool { t >= start && t < end }
            if options.isEmpty { return s < end && e >= start }
            return (!options.contains(.strictStartDate) || within(s)) && (!options.contains(.strictEndDate) || within(e))
        case .source(let name): return sample.source == name
        case .quantityAbove(let value): return isDelete ? nil : sample.quantity.value > value
        case .hasMood: return isDelete ? nil : sample.metadata["Mood"] != nil
        case .and(let parts):
            let values = parts.map { $0.evaluate(sample, isDelete: isDelete) }
            return values.contains(false) ? false : values.contains(nil) ? nil : true
        case .or(let parts):
            let values = parts.map { $0.evaluate(sample, isDelete: isDelete) }
            return values.contains(true) ? true : values.contains(nil) ? nil : false
        case .not(let part): return part.evaluate(sample, isDelete: isDelete).map(!)
        }
    }

    static func random(_ rng: inout SeededRandom, depth: Int) -> ModelPredicate {
        let roll = depth == 0 ? rng.int(0...3) : rng.int(0...7)
        switch roll {
        case 0:
            let start = RandomSampleStore.origin + Int64(rng.int(0...700)) * 3_600_000_000
            return .dates(start, start + Int64(rng.int(1...200)) * 3_600_000_000, rng.pick([[], .strictStartDate, .strictEndDate, [.strictStartDate, .strictEndDate]]))
        case 1: return .source(rng.pick(["Apple Watch", "iPhone"]))
        case 2: return .quantityAbove(Double(rng.int(50...1_500)))
        case 3: return .hasMood
        case 4: return .and((0..<rng.int(1...3)).map { _ in random(&rng, depth: depth - 1) })
        case 5, 6: return .or((0..<rng.int(0...3)).map { _ in random(&rng, depth: depth - 1) })
        default: return .not(random(&rng, depth: depth - 1))
        }
    }

    var description: String {
        switch self {
        case .dates(let start, let end, let options): "dates(\(start), \(end), \(options.rawValue))"
        case .source(let name): "source(\(name))"
        case .quantityAbove(let value): "value > \(value)"
        case .hasMood: "hasMood"
        case .and(let parts): "and(\(parts.map(\.description).joined(separator: ", ")))"
        case .or(let parts): "or(\(parts.map(\.description).joined(separator: ", ")))"
        case .not(let part): "not(\(part))"
        }
    }
}

import HealthLogTestSupport
import Testing
@testable import HealthLog

/// ``HealthStore/samples(types:predicate:sortedBy:limit:)`` returns what sorting every live
/// sample in memory gives, and with a limit reads only the groups that can hold the first
/// samples.
@Suite("Sorted samples")
struct SortedSamplesTests {
    @Test("Random orders, limits and predicates give what sorting every live sample gives", arguments: [5, 99, 4242] as [UInt64])
    func randomQueries(seed: UInt64) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let random = try RandomSampleStore(directory: dir.file("store"), seed: seed)
        var rng = SeededRandom(state: seed &* 17)
        let keys: [SampleOrder] = [SampleOrder(.startDate), SampleOrder(.startDate, ascending: false), SampleOrder(.endDate), SampleOrder(.endDate, ascending: false)]
        for _ in 0..<50 {
            let types: Set<SampleType> = rng.pick([[RandomSampleStore.heartRate], [RandomSampleStore.steps], [RandomSampleStore.heartRate, RandomSampleStore.steps], []])
            let order = (0..<rng.int(0...2)).map { _ in rng.pick(keys) }
            let limit = rng.pick([0, 1, 3, 10, 37])
            let tree: ModelPredicate? = rng.chance(40) ? ModelPredicate.random(&rng, depth: 2) : nil
            let samples = try random.store.samples(types: types, predicate: tree?.predicate ?? .all, sortedBy: order, limit: limit)
            let expected = random.entries.filter { entry in
                entry.deleted == nil && (types.isEmpty || types.contains(entry.sample.sampleType)) && (tree?.evaluate(entry.sample, isDelete: false) ?? true)
            }.sorted { a, b in
                for key in order {
                    let x = key.rank(start: a.sample.start.microseconds, end: a.sample.end.microseconds)
                    let y = key.rank(start: b.sample.start.microseconds, end: b.sample.end.microseconds)
                    if x != y { return x < y }
                }
                return a.added < b.added
            }.prefix(limit > 0 ? limit : .max)
            #expect(samples.map(\.uuid) == expected.map(\.sample.uuid), "types \(types) order \(order) limit \(limit) \(tree.map(\.description) ?? "")")
        }
    }

    @Test("The newest ten heart rates read a few groups of many, and a sample appended first with the latest date comes first")
    func newestReadsFewGroups() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var options = StoreOptions()
        options.sync = false
        options.batchBytes = 16_384
        let store = HealthStore(directory: dir.file("store"), options: options)
        let base = Timestamp(commandLine: "2024-01-01")!.microseconds
        func heartRate(_ minute: Int, _ value: Double) -> QuantitySample {
            QuantitySample(type: .quantity("HeartRate"), quantity: Quantity(value, "count/min"), fields: SampleFields(start: Timestamp(microseconds: base + Int64(minute) * 60_000_000)))
        }
        let future = heartRate(1_000_000, 200)
        try store.save([future])
        for append in 0..<40 {
            try store.save((0..<250).map { heartRate(append * 250 + $0, 60) })
        }
        let old = heartRate(-5, 50)
        try store.save([old])
        let newest = SampleOrder(.startDate, ascending: false)
        let (samples, groupsRead) = try store.sortedSamples(types: [.quantity("HeartRate")], predicate: .all, order: [newest], limit: 10)
        let every = try store.sortedSamples(types: [.quantity("HeartRate")], predicate: .all, order: [newest], limit: 0)
        #expect(every.samples.count == 10_002)
        #expect(try #require(every.groupsRead) > 20)
        #expect(samples.first?.uuid == future.uuid)
        #expect(samples.dropFirst().map(\.start.microseconds) == (0..<9).map { base + Int64(9_999 - $0) * 60_000_000 })
        #expect(try #require(groupsRead) <= 4)
        let oldest = try store.samples(types: [.quantity("HeartRate")], sortedBy: [SampleOrder(.startDate)], limit: 2)
        #expect(oldest.map(\.uuid).first == old.uuid)
        try store.delete([future.uuid])
        #expect(try store.samples(types: [.quantity("HeartRate")], sortedBy: [newest], limit: 1).first?.start.microseconds == base + 9_999 * 60_000_000)
        #expect(throws: HealthLogError.self) { try store.samples(types: [.quantity("HeartRate")], limit: -1) }
    }

    @Test("A delete read after its sample was kept, once others were dropped, starts the search over and the next sample takes the place")
    func deleteAfterDrop() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        func heartRate(_ start: String, _ end: String? = nil) -> QuantitySample {
            QuantitySample(
                type: .quantity("HeartRate"), quantity: Quantity(70, "count/min"),
                fields: SampleFields(start: Timestamp(iso8601: start)!, end: end.map { Timestamp(iso8601: $0)! }))
        }
        // The long sample makes the add group's span end at 12:00, after the delete group's
        // (10:00), so the adds are read first: A is kept, B and the long one dropped.
        let a = heartRate("2024-03-01T10:00:00Z")
        let b = heartRate("2024-03-01T09:00:00Z")
        let long = heartRate("2024-03-01T08:00:00Z", "2024-03-01T12:00:00Z")
        try store.save([a, b, long])
        try store.delete([a.uuid])
        let (samples, groupsRead) = try store.sortedSamples(
            types: [.quantity("HeartRate")], predicate: .all, order: [SampleOrder(.startDate, ascending: false)], limit: 1)
        #expect(samples.map(\.uuid) == [b.uuid])
        #expect(groupsRead == 3, "the add group, the delete group, then the add group again")
    }

    @Test("A sample passed over because the held ones beat it comes back when a later delete removes one of them")
    func deleteAfterPassedOver() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        func sleepLike(_ start: String, _ end: String) -> QuantitySample {
            QuantitySample(
                type: .quantity("HeartRate"), quantity: Quantity(70, "count/min"),
                fields: SampleFields(start: Timestamp(iso8601: start)!, end: Timestamp(iso8601: end)!))
        }
        // Long samples widen each group's span, so the second group is read while the first
        // still holds the sample the last append deletes: y is passed over, then needed.
        let s1 = sleepLike("2024-03-01T12:00:00Z", "2024-03-01T12:01:00Z")
        let z = sleepLike("2024-03-01T05:00:00Z", "2024-03-01T14:00:00Z")
        let y = sleepLike("2024-03-01T04:00:00Z", "2024-03-01T13:30:00Z")
        try store.save([s1, z])
        try store.save([y])
        try store.delete([s1.uuid])
        let newest = try store.samples(types: [.quantity("HeartRate")], sortedBy: [SampleOrder(.startDate, ascending: false)], limit: 2)
        #expect(newest.map(\.uuid) == [z.uuid, y.uuid])
    }
}

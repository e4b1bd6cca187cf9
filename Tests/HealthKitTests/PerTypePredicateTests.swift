import Foundation
import HealthKit
import HealthLogTestSupport
import Testing

/// Queries over several types, each with its own predicate: every type's samples match its
/// own predicate only, pages fill to their limit, and the anchor resumes where they stopped.
@Suite struct PerTypePredicateTests {
    private static let start = Date(timeIntervalSince1970: 1_709_251_200)  // 2024-03-01T00:00Z
    private static let steps = HKQuantityType(.stepCount)
    private static let heartRate = HKQuantityType(.heartRate)
    private static let beatsPerMinute = HKUnit.count().unitDivided(by: .minute())

    private static func sample(_ type: HKQuantityType, _ value: Double, minute: Double) -> HKQuantitySample {
        let date = start.addingTimeInterval(minute * 60)
        let unit = type == steps ? HKUnit.count() : beatsPerMinute
        return HKQuantitySample(type: type, quantity: HKQuantity(unit: unit, doubleValue: value), start: date, end: date.addingTimeInterval(30))
    }

    /// Steps of at least 100 and heart rates under 80.
    private static let predicates: [HKSamplePredicate<HKQuantitySample>] = [
        .quantitySample(type: steps, predicate: HKQuery.predicateForQuantitySamples(with: .greaterThanOrEqualTo, quantity: HKQuantity(unit: .count(), doubleValue: 100))),
        .quantitySample(type: heartRate, predicate: HKQuery.predicateForQuantitySamples(with: .lessThan, quantity: HKQuantity(unit: beatsPerMinute, doubleValue: 80))),
    ]

    /// Interleaved steps and heart rates, half of each matching its type's predicate; each
    /// value also matches the other type's predicate's number.
    private static func saved(_ store: HKHealthStore) async throws -> [HKQuantitySample] {
        let samples = [
            sample(steps, 150, minute: 0), sample(heartRate, 70, minute: 1), sample(steps, 50, minute: 2),
            sample(heartRate, 120, minute: 3), sample(steps, 60, minute: 4), sample(heartRate, 90, minute: 5),
            sample(steps, 300, minute: 6), sample(heartRate, 75, minute: 7), sample(heartRate, 65, minute: 8),
        ]
        try await store.save(samples)
        return samples
    }

    /// The values of `samples`, in order.
    private static func values(_ samples: [HKQuantitySample]) -> [Double] {
        samples.map { $0.quantity.doubleValue(for: $0.quantityType == steps ? .count() : beatsPerMinute) }
    }

    @Test("The async anchored descriptor applies each type's own predicate, fills its pages, and resumes from one anchor")
    func anchoredPages() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = HKHealthStore(directory: directory.file("h.store"))
        let samples = try await Self.saved(store)
        var anchor: HKQueryAnchor?
        var pages: [[Double]] = []
        while true {
            let result = try await HKAnchoredObjectQueryDescriptor(predicates: Self.predicates, anchor: anchor, limit: 2).result(for: store)
            if result.addedSamples.isEmpty && result.deletedObjects.isEmpty { break }
            pages.append(Self.values(result.addedSamples))
            anchor = result.newAnchor
        }
        #expect(pages == [[150, 70], [300, 75], [65]])

        // A deletion of a step sample below the threshold still reaches the client (a
        // deleted object carries no value), and only what changed after the anchor comes.
        let late = Self.sample(Self.heartRate, 72, minute: 9)
        try await store.save([late, Self.sample(Self.heartRate, 95, minute: 10)])
        try await store.delete(samples[2])
        let changes = try await HKAnchoredObjectQueryDescriptor(predicates: Self.predicates, anchor: anchor).result(for: store)
        #expect(changes.addedSamples.map(\.uuid) == [late.uuid])
        #expect(changes.deletedObjects.map(\.uuid) == [samples[2].uuid])
        let none = try await HKAnchoredObjectQueryDescriptor(predicates: Self.predicates, anchor: changes.newAnchor).result(for: store)
        #expect(none.addedSamples.isEmpty && none.deletedObjects.isEmpty)
    }

    @Test("A running anchored query over descriptors delivers each type's own matches, first and in updates")
    func runningQuery() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = HKHealthStore(directory: directory.file("h.store"))
        _ = try await Self.saved(store)
        let deliveries = AsyncStream<[Double]>.makeStream()
        let query = HKAnchoredObjectQuery(
            queryDescriptors: Self.predicates.map { HKQueryDescriptor(sampleType: $0.sampleType, predicate: $0.nsPredicate) },
            anchor: nil, limit: HKObjectQueryNoLimit
        ) { _, samples, _, _, _ in
            deliveries.continuation.yield(Self.values((samples ?? []).compactMap { $0 as? HKQuantitySample }))
        }
        query.updateHandler = { _, samples, _, _, _ in
            deliveries.continuation.yield(Self.values((samples ?? []).compactMap { $0 as? HKQuantitySample }))
        }
        store.execute(query)
        defer { store.stop(query) }
        var received = deliveries.stream.makeAsyncIterator()
        #expect(await received.next() == [150, 70, 300, 75, 65])
        try await store.save([Self.sample(Self.steps, 20, minute: 9), Self.sample(Self.heartRate, 60, minute: 10), Self.sample(Self.steps, 200, minute: 11)])
        #expect(await received.next() == [60, 200])
    }

    @Test("An observer query over descriptors is called for a type only when a change matches that type's own predicate, not another type's")
    func observerQuery() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = HKHealthStore(directory: directory.file("h.store"))
        // Steps in the first ten minutes, heart rates in the ten minutes an hour later.
        let descriptors = [
            HKQueryDescriptor(sampleType: Self.steps, predicate: HKQuery.predicateForSamples(withStart: Self.start, end: Self.start.addingTimeInterval(600))),
            HKQueryDescriptor(
                sampleType: Self.heartRate, predicate: HKQuery.predicateForSamples(withStart: Self.start.addingTimeInterval(3_600), end: Self.start.addingTimeInterval(4_200))),
        ]
        let calls = AsyncStream<Set<String>>.makeStream()
        let query = HKObserverQuery(queryDescriptors: descriptors) { _, types, completion, _ in
            calls.continuation.yield(Set((types ?? []).map(\.identifier)))
            completion()
        }
        store.execute(query)
        defer { store.stop(query) }
        var received = calls.stream.makeAsyncIterator()
        #expect(await received.next() == [])
        // A heart rate in the steps' minutes and steps in the heart rates' match only the other type's predicate.
        try await store.save([Self.sample(Self.heartRate, 70, minute: 2), Self.sample(Self.steps, 20, minute: 62)])
        try await store.save([Self.sample(Self.heartRate, 60, minute: 63)])
        #expect(await received.next() == [Self.heartRate.identifier])
    }

    @Test("A sample query over descriptors applies each type's own predicate before its order and limit")
    func sampleQuery() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = HKHealthStore(directory: directory.file("h.store"))
        _ = try await Self.saved(store)
        let newest = try await HKSampleQueryDescriptor(predicates: Self.predicates, sortDescriptors: [SortDescriptor(\.endDate, order: .reverse)], limit: 3)
            .result(for: store)
        #expect(Self.values(newest) == [65, 75, 300])
        let all = try await HKSampleQueryDescriptor(predicates: Self.predicates, sortDescriptors: []).result(for: store)
        #expect(Set(Self.values(all)) == [150, 70, 300, 75, 65])
    }
}

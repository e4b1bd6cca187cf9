import Foundation
@testable import HealthKit
import HealthLog
import HealthLogTestSupport
import Testing

/// Every query through the `HealthKit` layer returns what the equivalent `HealthLog` call
/// returns, over random stores, predicates, anchors, limits and sorts.
@Suite struct LayerEquivalenceTests {
    static let seeds: [UInt64] = Array(1...12)
    static let types = ["HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierHeartRate", "HKCategoryTypeIdentifierSleepAnalysis"]

    private static func hkType(_ identifier: String) -> HKSampleType { HKObjectType.sampleType(identifier: identifier) }

    @Test("Anchored queries return the library's samples, deleted objects and anchor", arguments: seeds)
    func anchoredQueries(seed: UInt64) async throws {
        let random = try RandomStore(seed: seed)
        defer { random.directory.remove() }
        let healthStore = HKHealthStore(directory: random.store.directory)
        var generator = SeededGenerator(state: seed &* 31)
        var returned = 0
        for _ in 0..<8 {
            let type = Self.types.randomElement(using: &generator)!
            let predicate = PredicateSpec.random(using: &generator)
            let anchor = random.anchors.randomElement(using: &generator)!
            let limit = [0, 1, 3, 10].randomElement(using: &generator)!
            let expected = try await AnchoredObjectQueryDescriptor(
                types: [SampleType(type)!], predicate: predicate.stored, anchor: anchor, limit: limit
            ).result(for: random.store)
            let got = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<([HKSample], [HKDeletedObject], HKQueryAnchor), any Error>) in
                let query = HKAnchoredObjectQuery(
                    type: Self.hkType(type), predicate: predicate.nsPredicate, anchor: HKQueryAnchor(anchor), limit: limit
                ) { _, samples, deleted, newAnchor, error in
                    if let error { return continuation.resume(throwing: error) }
                    continuation.resume(returning: (samples!, deleted!, newAnchor!))
                }
                healthStore.execute(query)
            }
            let context = "seed \(seed), \(type), \(predicate), anchor \(anchor.seq), limit \(limit)"
            #expect(got.0.map(\.uuid.uuidString) == expected.addedSamples.map(\.uuid.description), "\(context)")
            #expect(got.1.map(\.uuid.uuidString) == expected.deletedObjects.map(\.uuid.description), "\(context)")
            #expect(got.2.anchor == expected.newAnchor, "\(context)")
            returned += got.0.count + got.1.count
        }
        #expect(returned > 0, "seed \(seed): no query returned anything")
    }

    @Test("Sample queries return the library's samples in its order and limit", arguments: seeds)
    func sampleQueries(seed: UInt64) async throws {
        let random = try RandomStore(seed: seed)
        defer { random.directory.remove() }
        let healthStore = HKHealthStore(directory: random.store.directory)
        var generator = SeededGenerator(state: seed &* 37)
        for _ in 0..<8 {
            let type = Self.types.randomElement(using: &generator)!
            let predicate = PredicateSpec.random(using: &generator)
            let limit = [0, 1, 5, 20].randomElement(using: &generator)!
            let key = [HKSampleSortIdentifierStartDate, HKSampleSortIdentifierEndDate].randomElement(using: &generator)!
            let ascending = Bool.random(using: &generator)
            let expected = try random.store.samples(
                types: [SampleType(type)!], predicate: predicate.stored,
                sortedBy: [SampleOrder(key == HKSampleSortIdentifierStartDate ? .startDate : .endDate, ascending: ascending)], limit: limit)
            let got = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[HKSample], any Error>) in
                let query = HKSampleQuery(
                    sampleType: Self.hkType(type), predicate: predicate.nsPredicate, limit: limit,
                    sortDescriptors: [NSSortDescriptor(key: key, ascending: ascending)]
                ) { _, samples, error in
                    if let error { return continuation.resume(throwing: error) }
                    continuation.resume(returning: samples!)
                }
                healthStore.execute(query)
            }
            #expect(got.map(\.uuid.uuidString) == expected.map(\.uuid.description), "seed \(seed), \(type), \(predicate), \(key) \(ascending), limit \(limit)")
        }
    }

    @Test("Statistics collection queries return the library's intervals and figures", arguments: seeds)
    func statisticsCollections(seed: UInt64) async throws {
        let random = try RandomStore(seed: seed)
        defer { random.directory.remove() }
        let healthStore = HKHealthStore(directory: random.store.directory)
        var generator = SeededGenerator(state: seed &* 41)
        for _ in 0..<4 {
            let cumulative = Bool.random(using: &generator)
            let type = cumulative ? "HKQuantityTypeIdentifierStepCount" : "HKQuantityTypeIdentifierHeartRate"
            let options: HKStatisticsOptions = cumulative ? [.cumulativeSum, .duration] : [.discreteAverage, .discreteMin, .discreteMax, .mostRecent]
            let predicate = PredicateSpec.random(using: &generator)
            let hour = Int.random(in: 0...23, using: &generator)
            let anchorDate = Date(timeIntervalSince1970: Double(RandomStore.origin) / 1_000_000 + Double(hour) * 3_600)
            let components = [DateComponents(day: 1), DateComponents(hour: 6), DateComponents(day: 7)].randomElement(using: &generator)!
            let query = try StatisticsRequest.query(
                type: HKQuantityType(HKQuantityTypeIdentifier(rawValue: type)), predicate: predicate.nsPredicate, options: options,
                anchorDate: anchorDate, intervalComponents: components)
            let expected = try random.store.statistics(
                StatisticsQuery(
                    type: SampleType(type)!, predicate: predicate.stored,
                    anchorDate: Timestamp(microseconds: Int64(anchorDate.timeIntervalSince1970 * 1_000_000)),
                    intervalComponents: IntervalComponents(days: components.day ?? 0, hours: components.hour ?? 0), options: query.options,
                    timeZone: StatisticsRequest.zone))
            let got = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HKStatisticsCollection, any Error>) in
                let collectionQuery = HKStatisticsCollectionQuery(
                    quantityType: HKQuantityType(HKQuantityTypeIdentifier(rawValue: type)), quantitySamplePredicate: predicate.nsPredicate,
                    options: options, anchorDate: anchorDate, intervalComponents: components)
                collectionQuery.initialResultsHandler = { _, collection, error in
                    if let error { return continuation.resume(throwing: error) }
                    continuation.resume(returning: collection!)
                }
                healthStore.execute(collectionQuery)
            }
            #expect(got.storedRows == expected, "seed \(seed), \(type), \(predicate), anchor hour \(hour), \(components)")
        }
    }
}

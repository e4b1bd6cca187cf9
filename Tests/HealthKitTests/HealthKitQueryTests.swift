import Foundation
@testable import HealthKit
import HealthLog
import HealthLogTestSupport
import Testing

/// Running HealthKit-shaped code against a store: saves, deletes, long-running queries,
/// statistics intervals, the async descriptors, errors.
@Suite struct HealthKitQueryTests {
    private static let start = Date(timeIntervalSince1970: 1_709_251_200)  // 2024-03-01T00:00Z

    private static func steps(_ value: Double, hour: Double) -> HKQuantitySample {
        let date = start.addingTimeInterval(hour * 3_600)
        return HKQuantitySample(type: HKQuantityType(.stepCount), quantity: HKQuantity(unit: .count(), doubleValue: value), start: date, end: date.addingTimeInterval(60))
    }

    private static func anchored(_ store: HKHealthStore, anchor: HKQueryAnchor?) async throws -> ([HKSample], [HKDeletedObject], HKQueryAnchor) {
        try await withCheckedThrowingContinuation { continuation in
            let query = HKAnchoredObjectQuery(type: HKQuantityType(.stepCount), predicate: nil, anchor: anchor, limit: HKObjectQueryNoLimit) {
                _, samples, deleted, newAnchor, error in
                if let error { return continuation.resume(throwing: error) }
                continuation.resume(returning: (samples!, deleted!, newAnchor!))
            }
            store.execute(query)
        }
    }

    @Test("A directory without a store reads as empty; the first save creates it")
    func missingStore() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = HKHealthStore(directory: directory.file("none.store"))
        let (samples, deleted, _) = try await Self.anchored(store, anchor: nil)
        #expect(samples.isEmpty && deleted.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: directory.file("none.store")))
        try await store.save(Self.steps(10, hour: 1))
        #expect(try await Self.anchored(store, anchor: nil).0.count == 1)
    }

    @Test("Metadata given as NSNumbers keeps numbers as numbers and booleans as booleans")
    func numberMetadata() {
        let stored = MetadataConversion.stored([
            "one": NSNumber(value: 1), "zero": NSNumber(value: 0), "half": NSNumber(value: 0.5), "yes": NSNumber(value: true),
            "swiftBool": true, "swiftInt": 1,
        ])
        #expect(stored["one"] == .number(1))
        #expect(stored["zero"] == .number(0))
        #expect(stored["half"] == .number(0.5))
        #expect(stored["yes"] == .bool(true))
        #expect(stored["swiftBool"] == .bool(true))
        #expect(stored["swiftInt"] == .number(1))
    }

    @Test("Saves and deletes complete through their handlers and come back through anchored queries")
    func saveAndDelete() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = HKHealthStore(directory: directory.file("h.store"))
        let samples = [Self.steps(10, hour: 1), Self.steps(20, hour: 2)]
        let saved: Bool = await withCheckedContinuation { continuation in store.save(samples) { ok, _ in continuation.resume(returning: ok) } }
        #expect(saved)
        let (first, _, anchor) = try await Self.anchored(store, anchor: nil)
        #expect(first.map(\.uuid) == samples.map(\.uuid))
        #expect((first[1] as? HKQuantitySample)?.quantity.doubleValue(for: .count()) == 20)
        try await store.delete(samples[0])
        let (after, deleted, _) = try await Self.anchored(store, anchor: anchor)
        #expect(after.isEmpty)
        #expect(deleted.map(\.uuid) == [samples[0].uuid])
        let failed: (any Error)? = await withCheckedContinuation { continuation in store.delete(samples[0]) { _, error in continuation.resume(returning: error) } }
        #expect((failed as? HKError)?.code == .errorInvalidArgument)
    }

    @Test("An update handler set after init gets the changes appended later")
    func updateHandlerAfterInit() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = HKHealthStore(directory: directory.file("h.store"))
        try await store.save(Self.steps(1, hour: 0))
        let (stream, continuation) = AsyncStream.makeStream(of: [UUID].self)
        let query = HKAnchoredObjectQuery(type: HKQuantityType(.stepCount), predicate: nil, anchor: nil, limit: HKObjectQueryNoLimit) {
            _, samples, _, _, _ in continuation.yield(samples?.map(\.uuid) ?? [])
        }
        query.updateHandler = { _, samples, _, _, _ in continuation.yield(samples?.map(\.uuid) ?? []) }
        store.execute(query)
        defer { store.stop(query) }
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next()?.count == 1)
        let later = Self.steps(5, hour: 3)
        try await store.save(later)
        #expect(await iterator.next() == [later.uuid])
    }

    @Test("A statistics collection enumerates every interval from its anchor's time of day, empty ones included")
    func statisticsCollection() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = HKHealthStore(directory: directory.file("h.store"))
        try await store.save([Self.steps(100, hour: 7), Self.steps(50, hour: 8), Self.steps(10, hour: 40)])
        let anchor = Self.start.addingTimeInterval(6 * 3_600)
        let descriptor = HKStatisticsCollectionQueryDescriptor(
            predicate: .quantitySample(type: HKQuantityType(.stepCount)), options: .cumulativeSum, anchorDate: anchor,
            intervalComponents: DateComponents(day: 1))
        let collection = try await descriptor.result(for: store)
        var sums: [Double?] = []
        collection.enumerateStatistics(from: anchor, to: anchor.addingTimeInterval(3 * 86_400 - 1)) { statistics, _ in
            sums.append(statistics.sumQuantity()?.doubleValue(for: .count()))
        }
        let utcOffset = Double(TimeZone.current.secondsFromGMT(for: anchor))
        if utcOffset == 0 { #expect(sums == [150, 10, nil]) }
        #expect(sums.count == 3)
        #expect(collection.statistics(for: anchor.addingTimeInterval(2.5 * 86_400))?.sumQuantity() == nil)
    }

    @Test("Enumerating a statistics collection ends with the interval that holds the end date, as HealthKit's does")
    func enumerationHoldsEndDate() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = HKHealthStore(directory: directory.file("h.store"))
        try await store.save([Self.steps(100, hour: 1), Self.steps(30, hour: 49)])
        let descriptor = HKStatisticsCollectionQueryDescriptor(
            predicate: .quantitySample(type: HKQuantityType(.stepCount)), options: .cumulativeSum, anchorDate: Self.start,
            intervalComponents: DateComponents(hour: 24))
        let collection = try await descriptor.result(for: store)
        var starts: [Date] = []
        var sums: [Double?] = []
        // The end date is the third interval's start: that interval is enumerated too.
        collection.enumerateStatistics(from: Self.start, to: Self.start.addingTimeInterval(2 * 86_400)) { statistics, _ in
            starts.append(statistics.startDate)
            sums.append(statistics.sumQuantity()?.doubleValue(for: .count()))
        }
        #expect(starts == (0..<3).map { Self.start.addingTimeInterval(Double($0) * 86_400) })
        #expect(sums == [100, nil, 30])
    }

    @Test("A statistics collection query's update handler gets the collection recomputed after an append")
    func statisticsUpdates() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = HKHealthStore(directory: directory.file("h.store"))
        try await store.save(Self.steps(100, hour: 1))
        let (stream, continuation) = AsyncStream.makeStream(of: Double?.self)
        let query = HKStatisticsCollectionQuery(
            quantityType: HKQuantityType(.stepCount), quantitySamplePredicate: nil, options: .cumulativeSum, anchorDate: Self.start,
            intervalComponents: DateComponents(day: 1))
        let total: @Sendable (HKStatisticsCollection?) -> Double? = { collection in
            collection?.statistics().compactMap { $0.sumQuantity()?.doubleValue(for: .count()) }.reduce(0, +)
        }
        query.initialResultsHandler = { _, collection, _ in continuation.yield(total(collection)) }
        query.statisticsUpdateHandler = { _, _, collection, _ in continuation.yield(total(collection)) }
        store.execute(query)
        defer { store.stop(query) }
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == 100)
        try await store.save(Self.steps(50, hour: 2))
        #expect(await iterator.next() == 150)
    }

    @Test("deleteObjects(of:predicate:) deletes the matching samples of the type and counts them")
    func deleteObjectsMatching() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = HKHealthStore(directory: directory.file("h.store"))
        try await store.save([Self.steps(10, hour: 1), Self.steps(20, hour: 30), Self.steps(30, hour: 31)])
        let secondDay = HKQuery.predicateForSamples(withStart: Self.start.addingTimeInterval(86_400), end: Self.start.addingTimeInterval(2 * 86_400))
        let count: Int = await withCheckedContinuation { continuation in
            store.deleteObjects(of: HKQuantityType(.stepCount), predicate: secondDay) { _, count, _ in continuation.resume(returning: count) }
        }
        #expect(count == 2)
        #expect(try await Self.anchored(store, anchor: nil).0.map { ($0 as! HKQuantitySample).quantity.doubleValue(for: .count()) } == [10])
    }

    @Test("A statistics query over nothing fails with errorNoData; over samples it sums them")
    func statisticsQuery() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = HKHealthStore(directory: directory.file("h.store"))
        func sum() async -> (Double?, HKError.Code?) {
            await withCheckedContinuation { continuation in
                store.execute(HKStatisticsQuery(quantityType: HKQuantityType(.stepCount), quantitySamplePredicate: nil, options: .cumulativeSum) {
                    _, statistics, error in
                    continuation.resume(returning: (statistics?.sumQuantity()?.doubleValue(for: .count()), (error as? HKError)?.code))
                })
            }
        }
        #expect(await sum().1 == .errorNoData)
        try await store.save([Self.steps(100, hour: 7), Self.steps(50, hour: 30)])
        #expect(await sum().0 == 150)
    }

    @Test("The most recent sample's date interval comes with its value, merged and per source")
    func mostRecentInterval() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = HKHealthStore(directory: directory.file("h.store"))
        let unit = HKUnit(from: "count/min")
        func rate(_ value: Double, hour: Double, minutes: Double) -> HKQuantitySample {
            let date = Self.start.addingTimeInterval(hour * 3_600)
            return HKQuantitySample(
                type: HKQuantityType(.heartRate), quantity: HKQuantity(unit: unit, doubleValue: value), start: date, end: date.addingTimeInterval(minutes * 60))
        }
        try await store.save([rate(60, hour: 1, minutes: 1), rate(72, hour: 5, minutes: 2), rate(65, hour: 3, minutes: 1)])
        let statistics: HKStatistics? = await withCheckedContinuation { continuation in
            store.execute(HKStatisticsQuery(quantityType: HKQuantityType(.heartRate), quantitySamplePredicate: nil, options: .mostRecent) { _, statistics, _ in
                continuation.resume(returning: statistics)
            })
        }
        let latest = Self.start.addingTimeInterval(5 * 3_600)
        #expect(statistics?.mostRecentQuantity()?.doubleValue(for: unit) == 72)
        #expect(statistics?.mostRecentQuantityDateInterval() == DateInterval(start: latest, end: latest.addingTimeInterval(120)))
    }

    @Test("An observer query fires when it starts and after each matching append")
    func observer() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = HKHealthStore(directory: directory.file("h.store"))
        let (stream, continuation) = AsyncStream.makeStream(of: Bool.self)
        let query = HKObserverQuery(sampleType: HKQuantityType(.stepCount), predicate: nil) { _, completion, error in
            continuation.yield(error == nil)
            completion()
        }
        store.execute(query)
        defer { store.stop(query) }
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == true)
        try await store.save(Self.steps(3, hour: 1))
        #expect(await iterator.next() == true)
    }

    @Test("The async anchored descriptor pages by its limit until the anchor stops moving")
    func anchoredDescriptor() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = HKHealthStore(directory: directory.file("h.store"))
        try await store.save((0..<5).map { Self.steps(Double($0), hour: Double($0)) })
        var anchor: HKQueryAnchor?
        var pages: [Int] = []
        while true {
            let result = try await HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: HKQuantityType(.stepCount))], anchor: anchor, limit: 2)
                .result(for: store)
            if result.addedSamples.isEmpty && result.deletedObjects.isEmpty { break }
            pages.append(result.addedSamples.count)
            anchor = result.newAnchor
        }
        #expect(pages == [2, 2, 1])
        let newest = try await HKSampleQueryDescriptor(
            predicates: [.quantitySample(type: HKQuantityType(.stepCount))], sortDescriptors: [SortDescriptor(\.endDate, order: .reverse)], limit: 2
        ).result(for: store)
        #expect(newest.map { $0.quantity.doubleValue(for: .count()) } == [4, 3])
    }

    @Test("Compound predicates translate to the store's AND, OR and NOT; others are refused with a reason")
    func predicateTranslation() throws {
        let day = HKQuery.predicateForSamples(withStart: Date(timeIntervalSince1970: 0), end: Date(timeIntervalSince1970: 86_400))
        let watch = HKQuery.predicateForObjects(withMetadataKey: HKMetadataKeyWasUserEntered)
        let both = NSCompoundPredicate(andPredicateWithSubpredicates: [day, NSCompoundPredicate(notPredicateWithSubpredicate: watch)])
        _ = try PredicateTranslation.translate(both)
        _ = try PredicateTranslation.translate(NSCompoundPredicate(orPredicateWithSubpredicates: [day, watch]))
        #expect(throws: HKError.self) { try PredicateTranslation.translate(NSPredicate(value: true)) }
        let refused = HKQuery.predicateForCategorySamples(with: .greaterThan, value: 2)
        #expect(throws: HKError.self) { try PredicateTranslation.translate(refused) }
    }

    @Test("A predicate healthlog cannot evaluate reaches the handler as errorInvalidArgument")
    func untranslatablePredicate() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = HKHealthStore(directory: directory.file("h.store"))
        let error: (any Error)? = await withCheckedContinuation { continuation in
            store.execute(HKSampleQuery(sampleType: HKQuantityType(.stepCount), predicate: NSPredicate(value: true), limit: 0, sortDescriptors: nil) {
                _, _, error in continuation.resume(returning: error)
            })
        }
        #expect((error as? HKError)?.code == .errorInvalidArgument)
    }

    @Test("predicateForWorkouts(with:) returns the workouts of that activity only")
    func workoutActivityPredicate() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = HKHealthStore(directory: directory.file("h.store"))
        let run = HKWorkout(activityType: .running, start: Self.start, end: Self.start.addingTimeInterval(1_800))
        let ride = HKWorkout(activityType: .cycling, start: Self.start, end: Self.start.addingTimeInterval(3_600))
        try await store.save([run, ride])
        let found: [HKSample] = await withCheckedContinuation { continuation in
            store.execute(HKSampleQuery(sampleType: HKObjectType.workoutType(), predicate: HKQuery.predicateForWorkouts(with: .running), limit: 0, sortDescriptors: nil) {
                _, samples, _ in continuation.resume(returning: samples ?? [])
            })
        }
        #expect(found.map(\.uuid) == [run.uuid])
        #expect((found.first as? HKWorkout)?.workoutActivityType == .running)
    }

    @Test("Authorization and background delivery complete as granted")
    func authorization() async throws {
        let store = HKHealthStore(directory: "/nonexistent/healthlog.store")
        #expect(HKHealthStore.isHealthDataAvailable())
        let granted: Bool = await withCheckedContinuation { continuation in
            store.requestAuthorization(toShare: [HKQuantityType(.stepCount)], read: [HKObjectType.workoutType()]) { ok, _ in continuation.resume(returning: ok) }
        }
        #expect(granted)
        #expect(store.authorizationStatus(for: HKQuantityType(.stepCount)) == .sharingAuthorized)
        try await store.enableBackgroundDelivery(for: HKQuantityType(.stepCount), frequency: .immediate)
    }
}

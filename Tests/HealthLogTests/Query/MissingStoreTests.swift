import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// ``StoreOptions/missingStoreIsEmpty``: reading a directory without a store answers as an
/// empty store and creates nothing; writing creates the store; without the option a read
/// still fails with `noStore`.
@Suite("Missing store read as empty")
struct MissingStoreTests {
    private static func emptyIfMissing() -> StoreOptions {
        var options = StoreOptions()
        options.missingStoreIsEmpty = true
        return options
    }

    private static let heartRate = SampleType.quantity("HeartRate")

    private static func sample(_ value: Double) -> QuantitySample {
        QuantitySample(type: heartRate, quantity: Quantity(value, "count/min"), fields: SampleFields(start: Timestamp(iso8601: "2024-03-01T08:00:00Z")!))
    }

    @Test("Queries, sorted samples and statistics of a missing directory are empty, and nothing is created")
    func readsAreEmpty() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("absent/store")
        let store = HealthStore(directory: path, options: Self.emptyIfMissing())
        let result = try await AnchoredObjectQueryDescriptor(types: [Self.heartRate]).result(for: store)
        #expect(result.addedSamples.isEmpty && result.deletedObjects.isEmpty && result.newAnchor == .beginning)
        #expect(try store.samples(types: [Self.heartRate], sortedBy: [SampleOrder(.startDate, ascending: false)], limit: 5).isEmpty)
        let daily = StatisticsQuery(type: Self.heartRate, interval: .day, options: .maximum)
        #expect(try store.statistics(daily).isEmpty)
        let week = try store.statistics(daily, from: Timestamp(commandLine: "2024-03-04")!, to: Timestamp(commandLine: "2024-03-11")!)
        #expect(week.map(\.count) == Array(repeating: 0, count: 7))
        #expect(try store.headAnchor() == .beginning)
        #expect(try store.typesPresent().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: dir.file("absent")))

        let strict = HealthStore(directory: path)
        #expect { try strict.statistics(daily) } throws: { ($0 as? HealthLogError)?.code == .noStore }
        await #expect { _ = try await AnchoredObjectQueryDescriptor(types: [Self.heartRate]).result(for: strict) } throws: {
            ($0 as? HealthLogError)?.code == .noStore
        }
    }

    @Test("Writing creates the store, and what was written reads back")
    func writingCreates() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"), options: Self.emptyIfMissing())
        #expect(try store.samples(types: [Self.heartRate]).isEmpty)
        let saved = Self.sample(72)
        try store.save([saved])
        #expect(store.exists)
        #expect(try store.samples(types: [Self.heartRate]).map(\.uuid) == [saved.uuid])
    }

    @Test("A long-running query over a missing store delivers an empty first result, then the samples once a writer creates it")
    func followsCreation() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("store")
        let reader = HealthStore(directory: path, options: Self.emptyIfMissing())
        let saved = Self.sample(80)
        var results: [QueryResult] = []
        for try await result in AnchoredObjectQueryDescriptor(types: [Self.heartRate]).results(for: reader) {
            results.append(result)
            if results.count == 1 { try HealthStore(directory: path).save([saved]) }
            if results.count == 2 { break }
        }
        #expect(results[0].addedSamples.isEmpty && results[0].newAnchor == .beginning)
        #expect(results[1].addedSamples.map(\.uuid) == [saved.uuid])
    }

    #if os(Linux)
    @Test("A live query's watcher on a directory that does not exist yet waits on its parent, not by polling, and watches the store alone once it appears")
    func watcherWaitsForCreation() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let watcher = LogWatcher(StoreLayout(directory: dir.file("store")))
        #expect(watcher.isNotified && !watcher.watchesStore && watcher.parentWatch >= 0)
        try FileManager.default.createDirectory(atPath: dir.file("store"), withIntermediateDirectories: false)
        let stop = try StopSignal()
        watcher.wait(stop: stop)
        watcher.wait(stop: stop)
        #expect(watcher.watchesStore && watcher.parentWatch == -1, "the parent's watch is dropped once the store is watched")
    }
    #endif
}

import HealthLogTestSupport
import Testing
@testable import HealthLog

/// The long-running statistics query: first results, then the
/// statistics again after each append or delete of the type, until stopped.
@Suite("Statistics collection query")
struct StatisticsCollectionQueryTests {
    private static func steps(_ value: Double, _ start: String, _ end: String, _ source: String) -> QuantitySample {
        QuantitySample(
            type: .quantity("StepCount"), quantity: Quantity(value, "count"),
            fields: SampleFields(start: Timestamp(iso8601: start)!, end: Timestamp(iso8601: end)!, source: source))
    }

    @Test("The update handler gets the merged daily sums again after each append and delete of the type")
    func updatesAfterAppends() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        try store.save([Self.steps(1000, "2024-03-01T08:00:00Z", "2024-03-01T09:00:00Z", "iPhone")])
        let seen = WatchedValue<[[Double]]>([])
        let query = StatisticsCollectionQuery(StatisticsQuery(type: .quantity("StepCount"), interval: .day, options: .sum)) { _, rows, error in
            seen.update { $0.append(rows?.map { $0.sum ?? -1 } ?? [error == nil ? -2 : -3]) }
        }
        query.statisticsUpdateHandler = { _, rows, error in
            seen.update { $0.append(rows?.map { $0.sum ?? -1 } ?? [error == nil ? -2 : -3]) }
        }
        try store.execute(query)
        #expect(await seen.wait { $0.count == 1 })
        let watch = Self.steps(1000, "2024-03-01T08:00:00Z", "2024-03-01T09:00:00Z", "Apple Watch")
        try store.save([watch])
        #expect(await seen.wait { $0.count >= 2 })
        #expect(seen.value.last == [1000], "the Watch's hour replaces the iPhone's, it does not add to it")
        let later = Self.steps(400, "2024-03-01T09:00:00Z", "2024-03-01T09:30:00Z", "Apple Watch")
        try store.save([later])
        #expect(await seen.wait { $0.last == [1400] })
        try store.delete([later])
        #expect(await seen.wait { $0.count >= 4 && $0.last == [1000] }, "\(seen.value)")
        store.stop(query)
        #expect(seen.value.first == [1000])
    }

    @Test("A query the type's aggregation style refuses is refused by execute")
    func refusedQuery() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        let query = StatisticsCollectionQuery(StatisticsQuery(type: .quantity("HeartRate"), interval: .day, options: .sum)) { _, _, _ in }
        #expect(throws: HealthLogError.self) { try store.execute(query) }
    }
}

import Foundation
import HealthKit
import HealthLogTestSupport
import Testing

/// An anchor another store issued: HealthKit starts the query over.
@Suite struct OtherStoreAnchorTests {
    private static func steps(_ value: Double, minute: Double) -> HKQuantitySample {
        let date = Date(timeIntervalSince1970: 1_709_251_200 + minute * 60)
        return HKQuantitySample(type: HKQuantityType(.stepCount), quantity: HKQuantity(unit: .count(), doubleValue: value), start: date, end: date)
    }

    private static func changes(_ store: HKHealthStore, after anchor: HKQueryAnchor?) async throws -> [Double] {
        let result = try await HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: HKQuantityType(.stepCount))], anchor: anchor)
            .result(for: store)
        return result.addedSamples.map { $0.quantity.doubleValue(for: .count()) }
    }

    @Test("An anchor from another store starts the query over; one from the same store resumes")
    func startsOver() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let first = HKHealthStore(directory: directory.file("first.store"))
        let second = HKHealthStore(directory: directory.file("second.store"))
        try await first.save([Self.steps(1, minute: 0), Self.steps(2, minute: 1), Self.steps(3, minute: 2)])
        try await second.save([Self.steps(10, minute: 0), Self.steps(20, minute: 1)])
        let foreign = try await HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: HKQuantityType(.stepCount))], anchor: nil)
            .result(for: first).newAnchor
        #expect(try await Self.changes(second, after: foreign) == [10, 20])
        #expect(try await Self.changes(first, after: foreign).isEmpty)

        let delivered: [Double] = try await withCheckedThrowingContinuation { continuation in
            second.execute(HKAnchoredObjectQuery(type: HKQuantityType(.stepCount), predicate: nil, anchor: foreign, limit: HKObjectQueryNoLimit) {
                _, samples, _, _, error in
                if let error { return continuation.resume(throwing: error) }
                continuation.resume(returning: (samples ?? []).compactMap { ($0 as? HKQuantitySample)?.quantity.doubleValue(for: .count()) })
            })
        }
        #expect(delivered == [10, 20])
    }
}

import Foundation
import HealthKit

/// A fitness app's reader of HealthKit data with Swift concurrency: pages of heart rate and
/// step changes after an anchor, the latest step samples, and daily step totals.
final class HealthDataClient: Sendable {
    /// One page of an anchored sync.
    struct Page: Sendable {
        let added: [HKQuantitySample]
        let deleted: [HKDeletedObject]
    }

    let healthStore: HKHealthStore
    let heartRateType = HKQuantityType(.heartRate)
    let stepCountType = HKQuantityType(.stepCount)

    /// Step samples below this many steps are noise to this app, and are not synced.
    let minimumSteps = 100.0

    init(healthStore: HKHealthStore) {
        self.healthStore = healthStore
    }

    /// The unit the app shows `type` in.
    func unit(for type: HKQuantityType) -> HKUnit {
        type == heartRateType ? HKUnit.count().unitDivided(by: .minute()) : .count()
    }

    /// Every change to heart rate and to step samples of at least ``minimumSteps`` after
    /// `anchor`, `pageSize` samples a page, in order, and the anchor to start from next time.
    func sync(after anchor: HKQueryAnchor?, pageSize: Int) async throws -> (pages: [Page], anchor: HKQueryAnchor?) {
        let enoughSteps = HKQuery.predicateForQuantitySamples(with: .greaterThanOrEqualTo,
                                                              quantity: HKQuantity(unit: .count(), doubleValue: minimumSteps))
        var descriptor = HKAnchoredObjectQueryDescriptor(
            predicates: [
                .quantitySample(type: heartRateType),
                .quantitySample(type: stepCountType, predicate: enoughSteps),
            ],
            anchor: anchor,
            limit: pageSize)
        var pages: [Page] = []
        var newAnchor = anchor
        while true {
            let result = try await descriptor.result(for: healthStore)
            newAnchor = result.newAnchor
            if result.addedSamples.isEmpty && result.deletedObjects.isEmpty {
                break
            }
            pages.append(Page(added: result.addedSamples, deleted: result.deletedObjects))
            descriptor.anchor = result.newAnchor
        }
        return (pages, newAnchor)
    }

    /// The `count` step samples that ended last, newest first.
    func latestSteps(count: Int) async throws -> [HKQuantitySample] {
        let descriptor = HKSampleQueryDescriptor(
            predicates: [.quantitySample(type: stepCountType)],
            sortDescriptors: [SortDescriptor(\.endDate, order: .reverse)],
            limit: count)
        return try await descriptor.result(for: healthStore)
    }

    /// The step total of each day with steps in the week of seven days from `weekStart`.
    func dailySteps(weekStarting weekStart: Date, calendar: Calendar = .current) async throws -> [(day: Date, steps: Double)] {
        let weekEnd = calendar.date(byAdding: .day, value: 7, to: weekStart)!
        let thisWeek = HKQuery.predicateForSamples(withStart: weekStart, end: weekEnd)
        let descriptor = HKStatisticsCollectionQueryDescriptor(
            predicate: .quantitySample(type: stepCountType, predicate: thisWeek),
            options: .cumulativeSum,
            anchorDate: weekStart,
            intervalComponents: DateComponents(day: 1))
        let collection = try await descriptor.result(for: healthStore)
        return collection.statistics().map { statistics in
            (statistics.startDate, statistics.sumQuantity()?.doubleValue(for: .count()) ?? 0)
        }
    }
}

import Foundation
import HealthKit

/// One bar of the chart: a day and its figure (nil for a day without samples).
struct ChartValue: Sendable, Equatable {
    let day: Date
    let value: Double?
}

/// The model behind a weekly bar chart: one statistics collection query over the week
/// that starts on a Monday at 00:00, by day, kept current by the query's update handler.
@MainActor
final class ChartModel {
    let kind: ChartKind
    let weekStart: Date
    private let healthStore: HKHealthStore
    private var query: HKStatisticsCollectionQuery?

    /// The week's seven values, Monday first; empty until the first results arrive.
    private(set) var values: [ChartValue] = []

    /// Called on the main actor whenever `values` change.
    var onChange: (@MainActor ([ChartValue]) -> Void)?

    init(kind: ChartKind, weekContaining date: Date, healthStore: HKHealthStore, calendar: Calendar = .current) {
        self.kind = kind
        self.healthStore = healthStore
        self.weekStart = ChartModel.monday(startingWeekOf: date, calendar: calendar)
    }

    /// Midnight at the start of the Monday on or before `date`.
    nonisolated static func monday(startingWeekOf date: Date, calendar: Calendar) -> Date {
        let startOfDay = calendar.startOfDay(for: date)
        let weekday = calendar.component(.weekday, from: startOfDay)   // 1 is Sunday, 2 Monday
        let daysSinceMonday = (weekday + 5) % 7
        return calendar.date(byAdding: .day, value: -daysSinceMonday, to: startOfDay)!
    }

    /// Starts the query: its first results, then every change to the week's samples.
    func start(calendar: Calendar = .current) {
        let kind = self.kind
        let weekStart = self.weekStart
        let lastDay = calendar.date(byAdding: .day, value: 6, to: weekStart)!
        let weekEnd = calendar.date(byAdding: .day, value: 7, to: weekStart)!
        let predicate = HKQuery.predicateForSamples(withStart: weekStart, end: weekEnd, options: .strictStartDate)

        let query = HKStatisticsCollectionQuery(quantityType: kind.quantityType,
                                                quantitySamplePredicate: predicate,
                                                options: kind.statisticsOptions,
                                                anchorDate: weekStart,
                                                intervalComponents: DateComponents(day: 1))
        query.initialResultsHandler = { [weak self] _, collection, error in
            guard let collection else {
                print("chart query failed: \(error?.localizedDescription ?? "no results")")
                return
            }
            let values = ChartModel.values(of: collection, kind: kind, from: weekStart, to: lastDay)
            Task { @MainActor in self?.show(values) }
        }
        query.statisticsUpdateHandler = { [weak self] _, _, collection, error in
            guard let collection else {
                print("chart update failed: \(error?.localizedDescription ?? "no results")")
                return
            }
            let values = ChartModel.values(of: collection, kind: kind, from: weekStart, to: lastDay)
            Task { @MainActor in self?.show(values) }
        }
        self.query = query
        healthStore.execute(query)
    }

    /// Stops the query.
    func stop() {
        if let query { healthStore.stop(query) }
        query = nil
    }

    /// A value for every day from `start` through `end`, empty days included.
    nonisolated static func values(of collection: HKStatisticsCollection, kind: ChartKind, from start: Date, to end: Date) -> [ChartValue] {
        var values: [ChartValue] = []
        collection.enumerateStatistics(from: start, to: end) { statistics, _ in
            values.append(ChartValue(day: statistics.startDate, value: kind.value(of: statistics)))
        }
        return values
    }

    private func show(_ newValues: [ChartValue]) {
        values = newValues
        onChange?(newValues)
    }
}

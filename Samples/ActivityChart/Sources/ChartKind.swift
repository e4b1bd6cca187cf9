import Foundation
import HealthKit

/// The charts the app draws: what each reads, in which unit, and how a day is summed up.
enum ChartKind: String, CaseIterable, Sendable {
    case steps
    case heartRate

    /// The quantity type behind the chart.
    var quantityType: HKQuantityType {
        switch self {
        case .steps: return HKQuantityType(.stepCount)
        case .heartRate: return HKQuantityType(.heartRate)
        }
    }

    /// The unit the chart's values are in.
    var unit: HKUnit {
        switch self {
        case .steps: return .count()
        case .heartRate: return HKUnit.count().unitDivided(by: .minute())
        }
    }

    /// A day's total for cumulative types (steps), its average for discrete ones (heart rate).
    var statisticsOptions: HKStatisticsOptions {
        quantityType.aggregationStyle == .cumulative ? .cumulativeSum : .discreteAverage
    }

    /// The figure the chart shows for one interval, nil when it holds no samples.
    func value(of statistics: HKStatistics) -> Double? {
        let quantity = statisticsOptions.contains(.cumulativeSum) ? statistics.sumQuantity() : statistics.averageQuantity()
        return quantity?.doubleValue(for: unit)
    }
}

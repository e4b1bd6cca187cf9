#if !canImport(Darwin)
internal import HealthLog

/// The statistics of every matching sample of a quantity type, as HealthKit's
/// `HKStatisticsQuery`: one interval, cut to the predicate's date range. With no matching samples the handler gets `errorNoData`, as in HealthKit.
public final class HKStatisticsQuery: HKQuery, @unchecked Sendable {
    private let options: HKStatisticsOptions
    private let completionHandler: @Sendable (HKStatisticsQuery, HKStatistics?, (any Error)?) -> Void

    /// A query for `quantityType`.
    public init(
        quantityType: HKQuantityType, quantitySamplePredicate: NSPredicate?, options: HKStatisticsOptions = [],
        completionHandler handler: @escaping @Sendable (HKStatisticsQuery, HKStatistics?, (any Error)?) -> Void
    ) {
        self.options = options
        completionHandler = handler
        super.init(objectType: quantityType, predicate: quantitySamplePredicate)
    }

    override func start(in healthStore: HKHealthStore) {
        healthStore.background {
            do {
                let type = self.objectType as! HKQuantityType
                let statistics = try Self.statistics(type: type, predicate: self.predicate, options: self.options, store: healthStore.store)
                self.completionHandler(self, statistics, nil)
            } catch {
                self.completionHandler(self, nil, HKError.from(error))
            }
        }
    }

    /// The one interval's statistics; throws `errorNoData` when no sample matches.
    static func statistics(type: HKQuantityType, predicate: NSPredicate?, options: HKStatisticsOptions, store: HealthStore) throws -> HKStatistics {
        // One interval from the year 1000 to 3000, cut to the predicate's date range.
        var query = try StatisticsRequest.query(
            type: type, predicate: predicate, options: options, anchorDate: Date(timeIntervalSince1970: -30_610_224_000),
            intervalComponents: DateComponents(year: 2000))
        query.timeZone = .fixed(offsetMinutes: 0)
        let rows = try store.statistics(query).filter { $0.count > 0 }
        guard let row = rows.first, rows.count == 1 else {
            throw HKError(.errorNoData, "No data available for the specified predicate.")
        }
        let bySource = try StatisticsRequest.bySource(query, options, store)
        return HKStatistics(type: type, merged: row, bySource: bySource)
    }
}

#endif

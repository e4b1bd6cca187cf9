#if !canImport(Darwin)
internal import HealthLog

/// A statistics collection query for Swift concurrency, as HealthKit's
/// `HKStatisticsCollectionQueryDescriptor`.
public struct HKStatisticsCollectionQueryDescriptor: @unchecked Sendable {
    /// One element of ``results(for:)``.
    public struct Result: @unchecked Sendable {
        /// The statistics of every interval.
        public let statisticsCollection: HKStatisticsCollection
        /// The statistics that changed: `nil` (the whole collection is recomputed).
        public let updatedStatistics: [HKStatistics]?
    }

    /// The elements of ``results(for:)``.
    public typealias Results = AsyncThrowingStream<Result, any Error>

    /// The type and predicate.
    public var predicate: HKSamplePredicate<HKQuantitySample>
    /// The figures asked for.
    public var options: HKStatisticsOptions
    /// The first interval's start (or any interval's).
    public var anchorDate: Date
    /// The intervals' length.
    public var intervalComponents: DateComponents

    /// A descriptor.
    public init(predicate: HKSamplePredicate<HKQuantitySample>, options: HKStatisticsOptions, anchorDate: Date, intervalComponents: DateComponents) {
        self.predicate = predicate
        self.options = options
        self.anchorDate = anchorDate
        self.intervalComponents = intervalComponents
    }

    private func query() -> HKStatisticsCollectionQuery {
        HKStatisticsCollectionQuery(
            quantityType: predicate.sampleType as! HKQuantityType, quantitySamplePredicate: predicate.nsPredicate, options: options,
            anchorDate: anchorDate, intervalComponents: intervalComponents)
    }

    /// The statistics, once.
    public func result(for healthStore: HKHealthStore) async throws -> HKStatisticsCollection {
        let query = query()
        return try await withCheckedThrowingContinuation { continuation in
            query.initialResultsHandler = { _, collection, error in
                if let collection { continuation.resume(returning: collection) } else { continuation.resume(throwing: error ?? HKError(.unknownError)) }
            }
            healthStore.execute(query)
        }
    }

    /// The statistics, then the statistics again after each change, until the consuming
    /// task stops.
    public func results(for healthStore: HKHealthStore) -> Results {
        let query = query()
        return Results { continuation in
            query.initialResultsHandler = { _, collection, error in
                if let collection { continuation.yield(Result(statisticsCollection: collection, updatedStatistics: nil)) } else { continuation.finish(throwing: error) }
            }
            query.statisticsUpdateHandler = { _, _, collection, error in
                if let collection { continuation.yield(Result(statisticsCollection: collection, updatedStatistics: nil)) } else { continuation.finish(throwing: error) }
            }
            continuation.onTermination = { _ in healthStore.stop(query) }
            healthStore.execute(query)
        }
    }
}

/// A statistics query for Swift concurrency, as HealthKit's `HKStatisticsQueryDescriptor`.
public struct HKStatisticsQueryDescriptor: @unchecked Sendable {
    /// The type and predicate.
    public var predicate: HKSamplePredicate<HKQuantitySample>
    /// The figures asked for.
    public var options: HKStatisticsOptions

    /// A descriptor.
    public init(predicate: HKSamplePredicate<HKQuantitySample>, options: HKStatisticsOptions = []) {
        self.predicate = predicate
        self.options = options
    }

    /// The statistics of every matching sample; `nil` when none matches.
    public func result(for healthStore: HKHealthStore) async throws -> HKStatistics? {
        let descriptor = self
        return try await withCheckedThrowingContinuation { continuation in
            healthStore.background {
                do {
                    continuation.resume(returning: try HKStatisticsQuery.statistics(
                        type: descriptor.predicate.sampleType as! HKQuantityType, predicate: descriptor.predicate.nsPredicate,
                        options: descriptor.options, store: healthStore.store))
                } catch let error as HKError where error.code == .errorNoData {
                    continuation.resume(returning: nil)
                } catch {
                    continuation.resume(throwing: HKError.from(error))
                }
            }
        }
    }
}
#endif

#if !canImport(Darwin)
internal import HealthLog

/// The live samples of a type, sorted and limited, as HealthKit's `HKSampleQuery`. Sorts
/// by `HKSampleSortIdentifierStartDate` and `HKSampleSortIdentifierEndDate` are the
/// store's: the newest N samples read only the batches that can hold them.
public final class HKSampleQuery: HKQuery, @unchecked Sendable {
    /// The most samples to return; 0 for all.
    public let limit: Int
    /// The order of the results.
    public let sortDescriptors: [NSSortDescriptor]?
    private let resultsHandler: @Sendable (HKSampleQuery, [HKSample]?, (any Error)?) -> Void
    private let selection: Result<StoreSelection, any Error>

    /// A query for `sampleType`.
    public init(
        sampleType: HKSampleType, predicate: NSPredicate?, limit: Int, sortDescriptors: [NSSortDescriptor]?,
        resultsHandler: @escaping @Sendable (HKSampleQuery, [HKSample]?, (any Error)?) -> Void
    ) {
        self.limit = limit
        self.sortDescriptors = sortDescriptors
        self.resultsHandler = resultsHandler
        selection = Result { try StoreSelection(type: sampleType, predicate: predicate) }
        super.init(objectType: sampleType, predicate: predicate)
    }

    /// A query for any of `queryDescriptors`.
    public convenience init(
        queryDescriptors: [HKQueryDescriptor], limit: Int, resultsHandler: @escaping @Sendable (HKSampleQuery, [HKSample]?, (any Error)?) -> Void
    ) {
        self.init(queryDescriptors: queryDescriptors, limit: limit, sortDescriptors: [], resultsHandler: resultsHandler)
    }

    /// A query for any of `queryDescriptors`, sorted.
    public init(
        queryDescriptors: [HKQueryDescriptor], limit: Int, sortDescriptors: [NSSortDescriptor],
        resultsHandler: @escaping @Sendable (HKSampleQuery, [HKSample]?, (any Error)?) -> Void
    ) {
        self.limit = limit
        self.sortDescriptors = sortDescriptors
        self.resultsHandler = resultsHandler
        selection = Result { try StoreSelection(queryDescriptors.map { ($0.sampleType, $0.predicate) }) }
        super.init(objectType: queryDescriptors.count == 1 ? queryDescriptors[0].sampleType : nil, predicate: queryDescriptors.first?.predicate)
    }

    override func start(in healthStore: HKHealthStore) {
        healthStore.background {
            do {
                let selection = try self.selection.get()
                let order = try (self.sortDescriptors ?? []).map(Self.order)
                let samples = try selection.samples(in: healthStore.store, sortedBy: order, limit: self.limit)
                self.resultsHandler(self, try SampleConversion.samples(samples, store: healthStore.store), nil)
            } catch {
                self.resultsHandler(self, nil, HKError.from(error))
            }
        }
    }

    /// The store's order for a sort descriptor by start or end date.
    static func order(_ descriptor: NSSortDescriptor) throws -> SampleOrder {
        switch descriptor.keyPath {
        case \HKSample.startDate: return SampleOrder(.startDate, ascending: descriptor.ascending)
        case \HKSample.endDate: return SampleOrder(.endDate, ascending: descriptor.ascending)
        default: throw HKError(.errorInvalidArgument, "healthlog sorts samples by startDate and endDate only")
        }
    }
}
#endif

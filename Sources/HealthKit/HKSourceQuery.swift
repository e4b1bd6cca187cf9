#if !canImport(Darwin)
internal import HealthLog

/// The sources that recorded matching samples of a type, as HealthKit's `HKSourceQuery`:
/// how a program gets the ``HKSource``s that `HKQuery.predicateForObjects(from:)` takes.
public final class HKSourceQuery: HKQuery, @unchecked Sendable {
    private let completionHandler: @Sendable (HKSourceQuery, Set<HKSource>?, (any Error)?) -> Void

    /// A query for the sources of `sampleType`'s samples that `objectPredicate` matches.
    public init(
        sampleType: HKSampleType, samplePredicate objectPredicate: NSPredicate?,
        completionHandler: @escaping @Sendable (HKSourceQuery, Set<HKSource>?, (any Error)?) -> Void
    ) {
        self.completionHandler = completionHandler
        super.init(objectType: sampleType, predicate: objectPredicate)
    }

    override func start(in healthStore: HKHealthStore) {
        healthStore.background {
            do {
                let selection = try StoreSelection(type: self.objectType, predicate: self.predicate)
                let samples = try healthStore.store.samples(types: selection.types, predicate: selection.predicate)
                self.completionHandler(self, Set(samples.compactMap(\.source).map { HKSource(name: $0) }), nil)
            } catch {
                self.completionHandler(self, nil, HKError.from(error))
            }
        }
    }
}
#endif

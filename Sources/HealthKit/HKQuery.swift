#if !canImport(Darwin)
internal import HealthLog

/// A query, as HealthKit's `HKQuery`: built, then run by ``HKHealthStore/execute(_:)``
/// and, when long-running, ended by ``HKHealthStore/stop(_:)``.
public class HKQuery: NSObject, @unchecked Sendable {
    /// The type asked for.
    public let objectType: HKObjectType?
    /// The predicate.
    public let predicate: NSPredicate?
    /// Guards the state subclasses keep.
    let lock = NSLock()

    init(objectType: HKObjectType?, predicate: NSPredicate?) {
        self.objectType = objectType
        self.predicate = predicate
    }

    /// The sample type asked for.
    public var sampleType: HKSampleType? { objectType as? HKSampleType }

    /// Starts the query on `store`; subclasses run it.
    func start(in store: HKHealthStore) {}

    /// Stops a long-running query; subclasses end it.
    func end(in store: HKHealthStore) {}
}

extension HKHealthStore {
    /// Runs `query`: its handler gets the results on a background queue; a long-running
    /// query keeps running until ``stop(_:)``.
    public func execute(_ query: HKQuery) {
        query.start(in: self)
    }

    /// Stops a long-running query; it calls no handler after the call in hand.
    public func stop(_ query: HKQuery) {
        query.end(in: self)
    }
}
#endif

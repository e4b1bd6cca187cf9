#if !canImport(Darwin)
internal import HealthLog

/// A healthlog store seen through HealthKit's API, as HealthKit's `HKHealthStore`.
/// `HKHealthStore()` opens the store `$HEALTHLOG_STORE` names, else `./healthlog.store`;
/// `HKHealthStore(directory:)` opens another. A directory that holds no store reads as an
/// empty one; the first save creates it.
///
/// Completion and results handlers run on a background queue, as in HealthKit.
public final class HKHealthStore: NSObject, @unchecked Sendable {
    /// The store.
    let store: HealthStore

    /// The store `$HEALTHLOG_STORE` names, else `./healthlog.store`.
    public override convenience init() {
        let environment = ProcessInfo.processInfo.environment["HEALTHLOG_STORE"]
        self.init(directory: environment.flatMap { $0.isEmpty ? nil : $0 } ?? "healthlog.store")
    }

    /// The store in `directory`.
    public init(directory: String) {
        var options = StoreOptions()
        options.missingStoreIsEmpty = true
        store = HealthStore(directory: directory, options: options)
        DefaultsAtExit.register()
    }

    /// The directory of the store.
    public var directory: String { store.directory }

    /// Whether health data is available: always, on Linux.
    public class func isHealthDataAvailable() -> Bool { true }

    /// Whether health records are available: no.
    public func supportsHealthRecords() -> Bool { false }

    /// Runs `work` on a background queue, as HealthKit runs handlers.
    func background(_ work: @escaping @Sendable () -> Void) {
        DispatchQueue.global().async { HandlerCalls.run(work) }
    }
}

/// Saving and deleting.
extension HKHealthStore {
    /// Saves `object` (see ``save(_:withCompletion:)-([HKObject],_)``).
    public func save(_ object: HKObject, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        save([object], withCompletion: completion)
    }

    /// Saves `objects` in one all-or-nothing append; the completion gets `true`, or `false`
    /// and the error (`errorInvalidArgument` for a sample the store refuses, naming it).
    public func save(_ objects: [HKObject], withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        background {
            do {
                try self.saveNow(objects)
                completion(true, nil)
            } catch {
                completion(false, HKError.from(error))
            }
        }
    }

    /// Saves `object`.
    public func save(_ object: HKObject) async throws {
        try await save([object])
    }

    /// Saves `objects`.
    public func save(_ objects: [HKObject]) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            save(objects) { _, error in continuation.resume(with: error.map { .failure($0) } ?? .success(())) }
        }
    }

    private func saveNow(_ objects: [HKObject]) throws {
        var samples: [any HealthLog.Sample] = []
        for object in objects {
            if let correlation = object as? HKCorrelation {
                samples += correlation.objects.compactMap(\.stored)
            }
            guard let sample = (object as? HKSample)?.stored else {
                throw HKError(.errorInvalidArgument, "\(type(of: object)) objects are not saved by healthlog")
            }
            samples.append(sample)
        }
        try store.save(samples)
    }

    /// Deletes `object` (see ``delete(_:withCompletion:)-([HKObject],_)``).
    public func delete(_ object: HKObject, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        delete([object], withCompletion: completion)
    }

    /// Deletes `objects` in one all-or-nothing append; each becomes an ``HKDeletedObject``
    /// for anchored queries. An empty list, or an object that is not live in the store,
    /// fails with `errorInvalidArgument`.
    public func delete(_ objects: [HKObject], withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        background {
            do {
                try self.store.delete(objects.map(\.storedUUID))
                completion(true, nil)
            } catch {
                completion(false, HKError.from(error))
            }
        }
    }

    /// Deletes `object`.
    public func delete(_ object: HKObject) async throws {
        try await delete([object])
    }

    /// Deletes `objects`.
    public func delete(_ objects: [HKObject]) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            delete(objects) { _, error in continuation.resume(with: error.map { .failure($0) } ?? .success(())) }
        }
    }

    /// Deletes the live samples of `objectType` that `predicate` matches; the completion
    /// gets how many.
    public func deleteObjects(
        of objectType: HKObjectType, predicate: NSPredicate, withCompletion completion: @escaping @Sendable (Bool, Int, (any Error)?) -> Void
    ) {
        let translated = Result { try PredicateTranslation.translate(predicate) }
        let type = SampleType(objectType.identifier) ?? .quantity(objectType.identifier)
        background {
            do {
                let matching = try self.store.samples(types: [type], predicate: try translated.get())
                if !matching.isEmpty { try self.store.delete(matching.map(\.uuid)) }
                completion(true, matching.count, nil)
            } catch {
                completion(false, 0, HKError.from(error))
            }
        }
    }
}

extension HKObject {
    /// The UUID as healthlog spells it.
    var storedUUID: SampleUUID { fields.uuid }
}
#endif

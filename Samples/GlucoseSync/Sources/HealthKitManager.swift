import Foundation
import HealthKit

/// A glucose app's HealthKit data store: asks for access, keeps heart rate, steps and blood
/// glucose in sync by anchored queries whose anchors live in `UserDefaults`, finds the
/// latest reading of a type, and saves the glucose readings a person enters.
final class HealthKitManager {
    /// What a sync delivered for one type: new samples and deletions, in the store's order.
    typealias SyncHandler = (HKQuantityType, [HKQuantitySample], [HKDeletedObject]) -> Void

    let healthStore = HKHealthStore()
    private let defaults: UserDefaults
    private var runningQueries: [HKAnchoredObjectQuery] = []

    let heartRateType = HKQuantityType.quantityType(forIdentifier: .heartRate)!
    let stepCountType = HKObjectType.quantityType(forIdentifier: .stepCount)!
    let glucoseType = HKQuantityType(.bloodGlucose)

    /// Milligrams per decilitre, the unit glucose is entered and shown in.
    let glucoseUnit = HKUnit(from: "mg/dL")

    init(defaults: UserDefaults = .standard) {
        self.defaults = defaults
    }

    /// The types this app reads and the ones it writes.
    var readTypes: Set<HKObjectType> { [heartRateType, stepCountType, glucoseType] }
    var shareTypes: Set<HKSampleType> { [glucoseType] }

    /// Asks for access to the app's types; `completion` gets whether it may go on.
    func requestAuthorization(completion: @escaping (Bool) -> Void) {
        guard HKHealthStore.isHealthDataAvailable() else {
            completion(false)
            return
        }
        healthStore.requestAuthorization(toShare: shareTypes, read: readTypes) { success, error in
            if let error = error {
                print("authorization failed: \(error.localizedDescription)")
            }
            completion(success)
        }
    }

    // MARK: - Anchored sync

    /// Starts an anchored query for `type` from the anchor saved last time: `handler` gets the
    /// changes since then, then every later change while the query runs. Each delivery's
    /// anchor is saved after the handler has taken the changes.
    func startSync(of type: HKQuantityType, handler: @escaping SyncHandler) {
        let query = HKAnchoredObjectQuery(type: type,
                                          predicate: nil,
                                          anchor: savedAnchor(for: type),
                                          limit: HKObjectQueryNoLimit) { [weak self] query, samples, deletedObjects, newAnchor, error in
            self?.deliver(type, samples, deletedObjects, newAnchor, error, to: handler)
        }
        query.updateHandler = { [weak self] query, samples, deletedObjects, newAnchor, error in
            self?.deliver(type, samples, deletedObjects, newAnchor, error, to: handler)
        }
        runningQueries.append(query)
        healthStore.execute(query)
    }

    /// Stops every running sync query.
    func stopSyncing() {
        for query in runningQueries {
            healthStore.stop(query)
        }
        runningQueries.removeAll()
    }

    private func deliver(_ type: HKQuantityType, _ samples: [HKSample]?, _ deletedObjects: [HKDeletedObject]?,
                         _ newAnchor: HKQueryAnchor?, _ error: Error?, to handler: SyncHandler) {
        if let error = error {
            print("sync of \(type.identifier) failed: \(error.localizedDescription)")
            return
        }
        let quantitySamples = (samples ?? []).compactMap { $0 as? HKQuantitySample }
        handler(type, quantitySamples, deletedObjects ?? [])
        if let newAnchor = newAnchor {
            saveAnchor(newAnchor, for: type)
        }
    }

    // MARK: - Anchors in UserDefaults

    private func anchorKey(for type: HKQuantityType) -> String {
        "HealthKitManager.anchor.\(type.identifier)"
    }

    /// The anchor saved for `type`, or nil the first time (everything is new).
    func savedAnchor(for type: HKQuantityType) -> HKQueryAnchor? {
        guard let data = defaults.data(forKey: anchorKey(for: type)) else { return nil }
        do {
            return try NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: data)
        } catch {
            print("could not read the saved anchor of \(type.identifier): \(error.localizedDescription)")
            return nil
        }
    }

    private func saveAnchor(_ anchor: HKQueryAnchor, for type: HKQuantityType) {
        do {
            let data = try NSKeyedArchiver.archivedData(withRootObject: anchor, requiringSecureCoding: true)
            defaults.set(data, forKey: anchorKey(for: type))
        } catch {
            print("could not save the anchor of \(type.identifier): \(error.localizedDescription)")
        }
    }

    // MARK: - Latest reading

    /// The most recent sample of `type` (by end date), or nil when there is none.
    func fetchLatestSample(of type: HKQuantityType, completion: @escaping (HKQuantitySample?) -> Void) {
        let sortByEndDate = NSSortDescriptor(key: HKSampleSortIdentifierEndDate, ascending: false)
        let query = HKSampleQuery(sampleType: type,
                                  predicate: nil,
                                  limit: 1,
                                  sortDescriptors: [sortByEndDate]) { _, samples, error in
            if let error = error {
                print("latest \(type.identifier) failed: \(error.localizedDescription)")
            }
            completion(samples?.first as? HKQuantitySample)
        }
        healthStore.execute(query)
    }

    /// The `count` most recent samples of `type` in the last `days` days before `date`, newest first.
    func fetchRecentSamples(of type: HKQuantityType, days: Int, before date: Date, count: Int,
                            completion: @escaping ([HKQuantitySample]) -> Void) {
        let start = Calendar.current.date(byAdding: .day, value: -days, to: date)!
        let predicate = HKQuery.predicateForSamples(withStart: start, end: date, options: .strictStartDate)
        let sortDescriptors = [NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: false)]
        let query = HKSampleQuery(sampleType: type, predicate: predicate, limit: count,
                                  sortDescriptors: sortDescriptors) { _, samples, _ in
            completion(samples as? [HKQuantitySample] ?? [])
        }
        healthStore.execute(query)
    }

    // MARK: - Saving

    /// Saves a glucose reading a person typed in, taken at `date`.
    func saveGlucose(milligramsPerDeciliter value: Double, at date: Date,
                     completion: @escaping (Bool, Error?) -> Void) {
        let quantity = HKQuantity(unit: glucoseUnit, doubleValue: value)
        let sample = HKQuantitySample(type: glucoseType,
                                      quantity: quantity,
                                      start: date,
                                      end: date,
                                      metadata: [HKMetadataKeyWasUserEntered: true])
        healthStore.save(sample) { success, error in
            completion(success, error)
        }
    }
}

import HealthLog
import HealthLogTestSupport

/// Random changes to a store, of every kind a mirror must follow: samples added (quantity
/// and category, with metadata), samples deleted, and samples replaced through their sync
/// identifier (which the store records as a delete and an add).
struct StoreChanges {
    private var generator: SeededRandom
    private var syncVersions: [Int] = []

    /// Changes drawn from `seed`.
    init(seed: UInt64) {
        generator = SeededRandom(state: seed)
    }

    /// Saves `adds` new samples (some of them new versions of earlier synced samples) in one
    /// append, then deletes `deletes` random live samples in another.
    mutating func apply(to store: HealthStore, adds: Int, deletes: Int) throws {
        var samples: [any Sample] = []
        for _ in 0..<adds {
            samples.append(nextSample())
        }
        try store.save(samples)
        let live = try store.result(ReplayRequest()).addedSamples.map(\.uuid)
        let doomed = live.shuffled(using: &generator).prefix(deletes)
        if !doomed.isEmpty { try store.delete(Array(doomed)) }
    }

    private mutating func nextSample() -> any Sample {
        let start = Timestamp(microseconds: 1_700_000_000_000_000 + Int64.random(in: 0..<10_000_000_000_000, using: &generator))
        let uuid = SampleUUID.random(using: &generator)
        switch Int.random(in: 0..<4, using: &generator) {
        case 0:
            return CategorySample(
                type: .category("SleepAnalysis"), value: .name("HKCategoryValueSleepAnalysisAsleepCore"),
                fields: SampleFields(uuid: uuid, start: start, end: Timestamp(microseconds: start.microseconds + 1_800_000_000)))
        case 1:
            // A new synced sample, or a higher version of one synced before.
            if syncVersions.isEmpty || Bool.random(using: &generator) { syncVersions.append(0) }
            let identifier = Int.random(in: 0..<syncVersions.count, using: &generator)
            syncVersions[identifier] += 1
            let metadata: [String: MetadataValue] = [
                "HKMetadataKeySyncIdentifier": .string("scale-\(identifier)"),
                "HKMetadataKeySyncVersion": .number(Double(syncVersions[identifier])),
            ]
            return QuantitySample(
                type: .quantity("BodyMass"), quantity: Quantity(Double(Int.random(in: 600...900, using: &generator)) / 10, "kg"),
                fields: SampleFields(uuid: uuid, start: start, source: "Scale", metadata: metadata))
        default:
            return QuantitySample(
                type: .quantity("HeartRate"), quantity: Quantity(Double(Int.random(in: 40...180, using: &generator)), "count/min"),
                fields: SampleFields(uuid: uuid, start: start, source: "Watch", device: "Watch7,1", metadata: ["HKMetadataKeyHeartRateMotionContext": 1]))
        }
    }
}

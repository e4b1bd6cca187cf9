import HealthLogTestSupport
@testable import HealthLog

/// A store of random heart-rate and step samples, appended out of time order across many
/// small batches with random deletes, and the model of what it holds, for tests that
/// compare a query with a computation over every sample.
struct RandomSampleStore {
    /// One sample as the model knows it.
    struct Entry {
        var sample: QuantitySample
        /// The sequence number of its add, and of its delete when deleted.
        var added: UInt64
        var deleted: UInt64?
    }

    static let heartRate = SampleType.quantity("HeartRate")
    static let steps = SampleType.quantity("StepCount")
    static let sources: [String?] = [nil, "Apple Watch", "iPhone"]
    /// The first instant samples start at, 2024-03-01T00:00Z.
    static let origin = Timestamp(commandLine: "2024-03-01")!.microseconds

    let store: HealthStore
    private(set) var entries: [Entry] = []

    /// Fills a store at `directory` with `appends` appends from `seed`.
    init(directory: String, seed: UInt64, appends: Int = 14) throws {
        var options = StoreOptions()
        options.sync = false
        options.batchBytes = 1_500
        options.segmentBytes = 12_000
        store = HealthStore(directory: directory, options: options)
        var rng = SeededRandom(state: seed)
        var seq: UInt64 = 0
        for _ in 0..<appends {
            var batch: [any Sample] = []
            for _ in 0..<rng.int(10...40) {
                let type = rng.chance(70) ? Self.heartRate : Self.steps
                // Mostly later as appends go on, some far back: late arrivals with old dates.
                let hours = rng.chance(20) ? rng.int(0...600) : min(719, entries.count / 2 + rng.int(0...48))
                let start = Self.origin + Int64(hours) * 3_600_000_000 + Int64(rng.int(0...3_599)) * 1_000_000
                let length = rng.chance(40) ? 0 : Int64(rng.int(1...10_800)) * 1_000_000
                var metadata: [String: MetadataValue] = [:]
                if rng.chance(30) { metadata["Mood"] = .string(rng.pick(["good", "bad"])) }
                let value = type == Self.heartRate ? Double(rng.int(40...180)) : Double(rng.int(0...2_000))
                let sample = QuantitySample(
                    type: type, quantity: Quantity(value, type == Self.heartRate ? "count/min" : "count"),
                    fields: SampleFields(
                        start: Timestamp(microseconds: start), end: Timestamp(microseconds: start + length), source: rng.pick(Self.sources),
                        metadata: metadata))
                batch.append(sample)
                seq += 1
                entries.append(Entry(sample: sample, added: seq))
            }
            try store.save(batch)
            let live = entries.indices.filter { entries[$0].deleted == nil }
            if rng.chance(60), !live.isEmpty {
                var doomed: [Int] = []
                for _ in 0..<rng.int(1...6) { doomed.append(rng.pick(live)) }
                doomed = Array(Set(doomed)).sorted()
                try store.delete(doomed.map { entries[$0].sample.uuid })
                for index in doomed {
                    seq += 1
                    entries[index].deleted = seq
                }
            }
        }
    }

    /// The samples not deleted, in the order they were added.
    var live: [QuantitySample] { entries.filter { $0.deleted == nil }.map(\.sample) }
}

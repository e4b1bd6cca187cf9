// Times each query through the HealthKit layer against the same query through HealthLog
// on one store, and prints a Markdown table: what the layer costs. Run by tools/bench-healthkit.
//   HealthKitBench DIRECTORY [SAMPLES] [RUNS]
import Foundation
import HealthKit
import HealthLog

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: HealthKitBench DIRECTORY [SAMPLES] [RUNS]\n".utf8))
    exit(2)
}
let directory = arguments[1]
let sampleCount = arguments.count > 2 ? Int(arguments[2]) ?? 200_000 : 200_000
let runs = arguments.count > 3 ? Int(arguments[3]) ?? 11 : 11
let store = HealthStore(directory: directory)
let healthStore = HKHealthStore(directory: directory)
let steps = SampleType("HKQuantityTypeIdentifierStepCount")!
let year2024: Int64 = 1_704_067_200_000_000

if !store.exists {
    var random = SystemRandomNumberGenerator()
    var made = 0
    while made < sampleCount {
        var batch: [any HealthLog.Sample] = []
        for _ in 0..<min(20_000, sampleCount - made) {
            let start = year2024 + Int64.random(in: 0..<(365 * 86_400), using: &random) * 1_000_000
            let fields = SampleFields(start: Timestamp(microseconds: start), end: Timestamp(microseconds: start + 60_000_000),
                                      source: Bool.random(using: &random) ? "Apple Watch" : "iPhone")
            if Bool.random(using: &random) {
                batch.append(QuantitySample(type: steps, quantity: Quantity(Double(Int.random(in: 1...200, using: &random)), "count"), fields: fields))
            } else {
                batch.append(QuantitySample(type: SampleType("HKQuantityTypeIdentifierHeartRate")!, quantity: Quantity(Double(Int.random(in: 50...150, using: &random)), "count/min"), fields: fields))
            }
        }
        try store.save(batch)
        made += batch.count
    }
}

/// The process's CPU time so far (every thread), in milliseconds: on a loaded machine a
/// steadier measure than the wall clock.
func cpuMilliseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) / 1e6
}

/// `runs` alternating runs of `library` and `layer`: the median wall and CPU milliseconds
/// of each, and their result counts.
func timeBoth(_ library: @escaping () async throws -> Int, _ layer: @escaping () async throws -> Int) async throws -> [(wall: Double, cpu: Double, size: Int)] {
    var walls: [[Double]] = [[], []], cpus: [[Double]] = [[], []], sizes = [0, 0]
    for _ in 0..<runs {
        for (index, work) in [library, layer].enumerated() {
            let (start, cpu) = (DispatchTime.now().uptimeNanoseconds, cpuMilliseconds())
            sizes[index] = try await work()
            cpus[index].append(cpuMilliseconds() - cpu)
            walls[index].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
    }
    return (0..<2).map { (walls[$0].sorted()[runs / 2], cpus[$0].sorted()[runs / 2], sizes[$0]) }
}

let month = Date(timeIntervalSince1970: 1_717_200_000)  // 2024-06-01T00:00Z
let zone = StatisticsTimeZone.named(try TimeZoneRules(named: TimeZone.current.identifier))
let cases: [(String, () async throws -> Int, () async throws -> Int)] = [
    (
        "anchored query, every StepCount sample",
        { try await AnchoredObjectQueryDescriptor(types: [steps]).result(for: store).addedSamples.count },
        { try await HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: HKQuantityType(.stepCount))], anchor: nil).result(for: healthStore).addedSamples.count }
    ),
    (
        "anchored query, one month (date predicate)",
        {
            try await AnchoredObjectQueryDescriptor(
                types: [steps], predicate: .samples(withStart: Timestamp(microseconds: 1_717_200_000_000_000), end: Timestamp(microseconds: 1_719_792_000_000_000))
            ).result(for: store).addedSamples.count
        },
        {
            try await HKAnchoredObjectQueryDescriptor(
                predicates: [.quantitySample(type: HKQuantityType(.stepCount), predicate: HKQuery.predicateForSamples(withStart: month, end: month.addingTimeInterval(30 * 86_400)))],
                anchor: nil
            ).result(for: healthStore).addedSamples.count
        }
    ),
    (
        "newest 100 StepCount samples",
        { try store.samples(types: [steps], sortedBy: [SampleOrder(.endDate, ascending: false)], limit: 100).count },
        {
            try await HKSampleQueryDescriptor(
                predicates: [.quantitySample(type: HKQuantityType(.stepCount))], sortDescriptors: [SortDescriptor(\.endDate, order: .reverse)], limit: 100
            ).result(for: healthStore).count
        }
    ),
    (
        "daily StepCount sums over the year",
        {
            try store.statistics(
                StatisticsQuery(type: steps, anchorDate: Timestamp(microseconds: year2024), intervalComponents: IntervalComponents(days: 1), options: .sum, timeZone: zone)
            ).count
        },
        {
            try await HKStatisticsCollectionQueryDescriptor(
                predicate: .quantitySample(type: HKQuantityType(.stepCount)), options: .cumulativeSum, anchorDate: Date(timeIntervalSince1970: 1_704_067_200),
                intervalComponents: DateComponents(day: 1)
            ).result(for: healthStore).statistics().count
        }
    ),
]

print("| query | results | HealthLog: CPU / wall (ms) | HealthKit layer: CPU / wall (ms) | layer / library, CPU |")
print("|---|---:|---:|---:|---:|")
for (name, library, layer) in cases {
    _ = try await library()
    _ = try await layer()
    let times = try await timeBoth(library, layer)
    guard times[0].size == times[1].size else {
        FileHandle.standardError.write(Data("\(name): the library returned \(times[0].size) results, the layer \(times[1].size)\n".utf8))
        exit(1)
    }
    func cell(_ time: (wall: Double, cpu: Double, size: Int)) -> String { String(format: "%.1f / %.1f", time.cpu, time.wall) }
    print("| \(name) | \(times[0].size) | \(cell(times[0])) | \(cell(times[1])) | \(String(format: "%.2f", times[1].cpu / times[0].cpu)) |")
}

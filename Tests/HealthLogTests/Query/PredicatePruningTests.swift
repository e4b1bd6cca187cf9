import HealthLogTestSupport
import Testing
@testable import HealthLog

/// A query narrowed by type and dates decompresses only the groups that can match.
@Suite("Predicate pruning")
struct PredicatePruningTests {
    @Test("A date range reads only the groups whose time span overlaps it; the result equals filtering everything")
    func dateRangeSkipsGroups() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        for month in 1...6 {
            var samples: [any Sample] = []
            for day in 1...20 {
                let start = Timestamp(commandLine: "2024-0\(month)-\(day < 10 ? "0" : "")\(day)")!
                samples.append(QuantitySample(type: .quantity("HeartRate"), quantity: Quantity(Double(60 + day), "count/min"), fields: SampleFields(start: start)))
                samples.append(QuantitySample(type: .quantity("StepCount"), quantity: Quantity(Double(day), "count"), fields: SampleFields(start: start)))
            }
            try store.save(samples)
        }
        let march = QueryPredicate.samples(withStart: Timestamp(commandLine: "2024-03-01"), end: Timestamp(commandLine: "2024-04-01"))
        let request = ReplayRequest(types: ["HKQuantityTypeIdentifierHeartRate"], predicate: march)
        var lines = 0
        let outcome = try store.replay(request) { _ in lines += 1 }
        #expect(lines == 20)
        #expect(outcome.groupsRead == 1)
        let everything = try store.replay(ReplayRequest(types: ["HKQuantityTypeIdentifierHeartRate"])) { _ in }
        #expect(everything.groupsRead == 6)
        let all = try store.result(ReplayRequest(types: ["HKQuantityTypeIdentifierHeartRate"]))
        let filtered = all.addedSamples.filter { $0.start >= Timestamp(commandLine: "2024-03-01")! && $0.start < Timestamp(commandLine: "2024-04-01")! }
        #expect(try store.result(request).addedSamples.map(\.uuid) == filtered.map(\.uuid))
    }
}

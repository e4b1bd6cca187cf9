import Foundation
import HealthLog
import HealthLogTestSupport
import Testing

/// `HealthDataClient`, an async descriptor client in Swift 6 language mode, run against an
/// imported export: anchored pages with a predicate per type, the anchor kept in a file,
/// the latest samples by a sort descriptor, and a week's daily totals, each as the library
/// answers them.
@Suite("HealthDataClient sample")
struct HealthDataClientTests {
    static let heartRate = SampleType.quantity("HeartRate")
    static let steps = SampleType.quantity("StepCount")

    /// The unit the client shows a type in.
    static func unit(_ type: SampleType) -> String { type == heartRate ? "count/min" : "count" }

    /// The library's heart rate and step changes after `anchor` that the client's per-type
    /// predicates keep (steps of at least 100), as it prints them.
    static func expectedChanges(_ export: ExportStore, after anchor: QueryAnchor?) async throws -> (samples: [PrintedSample], deleted: [String]) {
        let heartRates = try await export.changes([heartRate], after: anchor)
        let enoughSteps = try await export.changes([steps], predicate: .quantity(.greaterThanOrEqual, 100), after: anchor)
        let samples = try (heartRates.addedSamples + enoughSteps.addedSamples).map { try PrintedSample($0, unit: unit($0.sampleType), withType: true) }
        let deleted = (heartRates.deletedObjects + enoughSteps.deletedObjects).map { $0.uuid.description.uppercased() }
        return (samples, deleted)
    }

    /// The pages `output` shows: their headers, samples and deletions.
    static func printedPages(_ output: String) -> (headers: [Substring], samples: [PrintedSample], deleted: [String]) {
        let lines = output.split(separator: "\n")
        let samples = lines.filter { $0.hasPrefix("  + ") }.compactMap { PrintedSample($0.dropFirst(4), withType: true) }
        let deleted = lines.filter { $0.hasPrefix("  - ") }.map { String($0.dropFirst(4)) }
        return (lines.filter { $0.hasPrefix("page ") }, samples, deleted)
    }

    @Test("Pages of per-type-filtered changes, resumed from the archived anchor; the latest steps; the week's daily sums")
    func pagesLatestAndDailySums() async throws {
        let export = try ExportStore()
        defer { export.remove() }
        try await Self.checkPagesLatestAndDailySums(export)
    }

    /// The test's body: the client's three runs and the library's answers.
    static func checkPagesLatestAndDailySums(_ export: ExportStore) async throws {
        let arguments = ["--anchor-file", export.dir.file("anchor"), "--page-size", "2"]

        let first = try export.run("HealthDataClient", arguments + ["--week-of", "2014-09-13"])
        #expect(first.status == 0, "\(first.stderr)")
        let expected = try await expectedChanges(export, after: nil)
        let shown = printedPages(first.stdout)
        #expect(expected.samples.count == 11)   // 3 heart rates, 8 of the 10 step samples
        #expect(shown.samples.sorted { $0.uuid < $1.uuid } == expected.samples.sorted { $0.uuid < $1.uuid })
        #expect(shown.deleted == expected.deleted)
        #expect(shown.headers.count == 6)
        #expect(shown.headers.allSatisfy { $0.hasSuffix(": 2 added, 0 deleted") || $0 == "page 6: 1 added, 0 deleted" })
        #expect(first.stdout.contains("synced 11 added, 0 deleted in 6 pages\n"))

        let allSteps = try await export.changes([steps]).addedSamples
        let newest = try allSteps.sorted { $0.end > $1.end }.prefix(3).map { try PrintedSample($0, unit: "count", withType: true) }
        let latest = first.stdout.block(after: "latest steps:").compactMap { PrintedSample($0.dropFirst(2), withType: true) }
        #expect(latest == newest)

        let week = first.stdout.block(after: "steps by day, week of 2014-09-08:")
        let daySums = try export.store.statistics(StatisticsQuery(type: steps, interval: .day, options: .sum, timeZone: .fixed(offsetMinutes: 0)))
            .filter { $0.start.microseconds >= 1_410_134_400_000_000 && $0.start.microseconds < 1_410_739_200_000_000 }
        #expect(week.map(String.init) == daySums.map { "  \($0.label) \($0.sum!)" })
        #expect(week == ["  2014-09-13 2517.0"])

        // Nothing new after the kept anchor; then a heart rate, a step sample below the
        // client's threshold, and a deletion.
        let second = try export.run("HealthDataClient", arguments)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.hasPrefix("synced 0 added, 0 deleted in 0 pages\n"))

        let head = try export.store.headAnchor()
        let start = try #require(Timestamp(iso8601: "2024-02-01T10:00:00Z"))
        try export.store.save([
            QuantitySample(type: heartRate, quantity: Quantity(80, "count/min"), fields: SampleFields(start: start, source: "test")),
            QuantitySample(type: steps, quantity: Quantity(50, "count"), fields: SampleFields(start: start, source: "test")),
        ])
        let deleted = try #require(allSteps.first { ($0 as? QuantitySample)?.quantity.value == 329 })
        try export.store.delete([deleted.uuid])
        let third = try export.run("HealthDataClient", arguments)
        #expect(third.status == 0, "\(third.stderr)")
        let changes = try await expectedChanges(export, after: head)
        #expect(changes.samples.count == 1 && changes.deleted == [deleted.uuid.description.uppercased()])
        let shownChanges = printedPages(third.stdout)
        #expect(shownChanges.samples == changes.samples)
        #expect(shownChanges.deleted == changes.deleted)
        #expect(third.stdout.hasPrefix("page 1: 1 added, 1 deleted\n"))
    }
}

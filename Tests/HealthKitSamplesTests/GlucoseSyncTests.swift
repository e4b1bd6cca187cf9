import Foundation
import HealthLog
import HealthLogTestSupport
import Testing

/// `GlucoseSync`, a HealthKit manager class in Swift 5 language mode, run against an
/// imported export: its anchored syncs, the anchors it keeps in `UserDefaults`, its save
/// and the update handler that delivers it, and its latest-sample queries give what the
/// library gives.
@Suite("GlucoseSync sample")
struct GlucoseSyncTests {
    static let heartRate = SampleType.quantity("HeartRate")
    static let steps = SampleType.quantity("StepCount")
    static let glucose = SampleType.quantity("BloodGlucose")
    static let units = [heartRate: "count/min", steps: "count", glucose: "mg/dL"]

    /// The samples and deletions one type's block of `output` lists.
    static func printed(_ output: String, _ title: String, _ type: SampleType) -> (samples: [PrintedSample], deleted: [String], header: Substring?) {
        let block = output.block(after: "\(title) \(type.identifier):")
        let samples = block.filter { $0.hasPrefix("  + ") }.compactMap { PrintedSample($0.dropFirst(4), withType: false) }
        let deleted = block.filter { $0.hasPrefix("  - ") }.map { String($0.dropFirst(4)) }
        return (samples, deleted, output.line(startingWith: "\(title) \(type.identifier):"))
    }

    /// The library's changes of `type` after `anchor`, as the program prints them.
    static func expected(_ export: ExportStore, _ type: SampleType, after anchor: QueryAnchor?) async throws -> (samples: [PrintedSample], deleted: [String]) {
        let result = try await export.changes([type], after: anchor)
        let samples = try result.addedSamples.map { try PrintedSample($0, unit: units[type]!, withType: false) }
        return (samples, result.deletedObjects.map { $0.uuid.description.uppercased() })
    }

    @Test("Each run syncs from the anchors the last one saved, a save reaches the update handler, and the latest samples are the newest")
    func syncsSavesAndFindsLatest() async throws {
        let export = try ExportStore()
        defer { export.remove() }

        let first = try export.run("GlucoseSync")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("authorized: true\n"))
        for type in [Self.heartRate, Self.steps, Self.glucose] {
            let shown = Self.printed(first.stdout, "sync", type)
            let expected = try await Self.expected(export, type, after: nil)
            #expect(shown.header == "sync \(type.identifier): \(expected.samples.count) new, \(expected.deleted.count) deleted")
            #expect(shown.samples == expected.samples, "\(type)")
            #expect(shown.deleted == expected.deleted)
        }
        #expect(Self.printed(first.stdout, "sync", Self.heartRate).samples.count == 3)
        #expect(Self.printed(first.stdout, "sync", Self.steps).samples.count == 10)
        let newestHeartRate = try await export.changes([Self.heartRate]).addedSamples.max { $0.end < $1.end }
        let latest = try #require(first.stdout.line(startingWith: "latest \(Self.heartRate.identifier): "))
        #expect(latest.split(separator: " ").dropFirst(2).first.map(String.init) == newestHeartRate?.uuid.description.uppercased())
        #expect(first.stdout.contains("latest \(Self.glucose.identifier): none\n"))

        // The anchors were saved: nothing is new. Then a glucose reading is saved, and the
        // running query's update handler delivers it.
        let head = try export.store.headAnchor()
        let second = try export.run("GlucoseSync", ["--save-glucose", "105", "2024-01-02T08:30:00Z"])
        #expect(second.status == 0, "\(second.stderr)")
        for type in [Self.heartRate, Self.steps, Self.glucose] {
            #expect(second.stdout.contains("sync \(type.identifier): 0 new, 0 deleted\n"))
        }
        #expect(second.stdout.contains("saved glucose 105.0 mg/dL at 2024-01-02T08:30:00Z: true\n"))
        let saved = try await Self.expected(export, Self.glucose, after: head)
        #expect(saved.samples.count == 1)
        #expect(saved.samples.first?.value == 105)
        #expect(saved.samples.first?.start == 1_704_184_200_000_000)
        #expect(Self.printed(second.stdout, "update", Self.glucose).samples == saved.samples)
        let stored = try #require(try await export.changes([Self.glucose], after: head).addedSamples.first)
        #expect(stored.metadata["HKWasUserEntered"] == .bool(true))
        #expect(second.stdout.contains("latest \(Self.glucose.identifier): \(saved.samples[0].uuid) 2024-01-02T08:30:00Z 105.0 mg/dL\n"))

        // A deletion reaches the next run, and only it.
        let deletedUUID = try #require(try await export.changes([Self.heartRate]).addedSamples.first?.uuid)
        try export.store.delete([deletedUUID])
        let third = try export.run("GlucoseSync")
        #expect(third.status == 0, "\(third.stderr)")
        #expect(Self.printed(third.stdout, "sync", Self.heartRate).deleted == [deletedUUID.description.uppercased()])
        #expect(third.stdout.contains("sync \(Self.heartRate.identifier): 0 new, 1 deleted\n  - \(deletedUUID.description.uppercased())\n"))
        #expect(third.stdout.contains("sync \(Self.glucose.identifier): 0 new, 0 deleted\n"))
        #expect(third.stdout.contains("sync \(Self.steps.identifier): 0 new, 0 deleted\n"))
    }
}

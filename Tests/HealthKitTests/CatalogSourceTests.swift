import Foundation
import HealthLog
import Testing

/// The `HealthKit` module's generated catalog file matches healthlog's catalog.
@Suite struct CatalogSourceTests {
    /// The package's root.
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("The generated identifiers, category values and metadata keys are current (tools/generate-healthkit)")
    func generatedFileIsCurrent() throws {
        let url = Self.root.appendingPathComponent(CatalogSource.path)
        let expected = CatalogSource.text()
        if ProcessInfo.processInfo.environment["HEALTHKIT_CATALOG"] == "write" {
            try expected.write(to: url, atomically: true, encoding: .utf8)
        }
        let actual = try String(contentsOf: url, encoding: .utf8)
        #expect(actual == expected, "\(CatalogSource.path) is stale: run tools/generate-healthkit")
    }

    @Test("Swift's spelling of constant names lowers the leading capitals up to the next word")
    func swiftNames() {
        #expect(CatalogSource.swiftName("StepCount") == "stepCount")
        #expect(CatalogSource.swiftName("UVExposure") == "uvExposure")
        #expect(CatalogSource.swiftName("VO2Max") == "vo2Max")
        #expect(CatalogSource.swiftName("AsleepREM") == "asleepREM")
        #expect(CatalogSource.swiftName("HeartRateVariabilitySDNN") == "heartRateVariabilitySDNN")
    }

    @Test("Every quantity and category type of the catalog has its identifier")
    func everyTypeIsGenerated() {
        let text = CatalogSource.text()
        for type in HealthKitCatalog.quantityTypes {
            #expect(text.contains("\"HKQuantityTypeIdentifier\(type.name)\""))
        }
        for type in HealthKitCatalog.categoryTypes {
            #expect(text.contains("\"HKCategoryTypeIdentifier\(type.name)\""))
        }
    }
}

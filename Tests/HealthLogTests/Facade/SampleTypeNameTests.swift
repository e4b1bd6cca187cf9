import HealthLog
import HealthLogTestSupport
import Testing

/// `HealthStore.sampleType(named:)`: the public way to turn a type name a person typed into
/// a sample type, as the mirror sample does with its `--type` values.
@Suite("Sample type names")
struct SampleTypeNameTests {
    @Test("Known types resolve by full or short name in any case; near misses and unknown names are refused")
    func knownNames() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        #expect(try store.sampleType(named: "heartrate") == .quantity("HeartRate"))
        #expect(try store.sampleType(named: "HKCategoryTypeIdentifierSleepAnalysis") == .category("SleepAnalysis"))
        #expect(try store.sampleType(named: "Workout") == .workout)
        let nearMiss = #expect(throws: HealthLogError.self) { try store.sampleType(named: "HeartRat") }
        #expect(nearMiss?.code == .badUsage)
        #expect(nearMiss?.message.contains("did you mean HeartRate") == true)
        #expect(throws: HealthLogError.self) { try store.sampleType(named: "ZebraCount") }
    }

    @Test("A type healthlog does not know resolves by its short name once the store holds it")
    func typesInTheStore() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"))
        try store.save([QuantitySample(type: .quantity("ZebraCount"), quantity: Quantity(3, "count"), fields: SampleFields(start: .now()))])
        #expect(try store.sampleType(named: "zebracount") == .quantity("ZebraCount"))
    }
}

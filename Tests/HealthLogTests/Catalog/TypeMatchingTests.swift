import Testing

@testable import HealthLog

/// `HealthKitTypes.matching`, which answers a quantity type's full identifier from the
/// quantity table without building the set of every identifier: the same answers as the set.
@Suite("Type matching")
struct TypeMatchingTests {
    @Test("Every known identifier matches itself alone; other spellings match as the lower-cased table says")
    func sameAnswersAsTheSet() throws {
        let quantities = QuantityTypeTable.entries.flatMap { $0.1.map { "HKQuantityTypeIdentifier" + $0.0 } }
        #expect(quantities.count > 50)
        for identifier in HealthKitTypes.known.sorted() {
            #expect(HealthKitTypes.matching(identifier) == [identifier], "\(identifier)")
        }
        #expect(Set(quantities).isSubset(of: HealthKitTypes.known), "the quick answer never names an identifier the set lacks")
        for name in ["HKQuantityTypeIdentifierheartRate", "hkquantitytypeidentifierheartrate", "HeartRate", "heartrate"] {
            #expect(HealthKitTypes.matching(name) == ["HKQuantityTypeIdentifierHeartRate"], "\(name)")
        }
        for name in ["HKQuantityTypeIdentifierHeartRat", "HKQuantityTypeIdentifier", "HKQuantityTypeIdentifierHeartRateX", "HKCategoryTypeIdentifierHeartRate"] {
            #expect(HealthKitTypes.matching(name).isEmpty, "\(name)")
        }
        #expect(try TypeNames.resolve("HKQuantityTypeIdentifierHeartRate", present: { Issue.record("a known identifier needs no store"); return [] }) == "HKQuantityTypeIdentifierHeartRate")
    }

    @Test("A quantity type's short name as written matches its type alone, as the lower-cased table would")
    func quantityShortNames() throws {
        let shortNames = QuantityTypeTable.entries.flatMap { $0.1.map(\.0) }
        #expect(shortNames.count > 50)
        for short in shortNames {
            let lower = short.lowercased()
            let spelled = HealthKitTypes.known.filter { $0.lowercased() == lower || TypeNames.shortForm($0).lowercased() == lower }
            #expect(spelled == ["HKQuantityTypeIdentifier" + short], "\(short) is also spelled by \(spelled.sorted())")
            #expect(HealthKitTypes.matching(short) == ["HKQuantityTypeIdentifier" + short], "\(short)")
        }
        #expect(try TypeNames.resolve("HeartRate", present: { Issue.record("a known short name needs no store"); return [] }) == "HKQuantityTypeIdentifierHeartRate")
    }
}

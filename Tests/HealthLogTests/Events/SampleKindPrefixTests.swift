import Testing
@testable import HealthLog

/// The parser takes a type's kind from its prefix (``SampleKind/init(identifierBytes:)``),
/// with a shortcut for the quantity prefix, which most lines carry: the kind must be the
/// one the prefix table gives, for every known identifier and for near misses.
@Suite("Sample kinds from type prefixes")
struct SampleKindPrefixTests {
    /// The kind the prefix table alone gives `name` (the rule the shortcut must agree with).
    static func kindByTable(_ name: String) -> SampleKind? {
        guard !name.isEmpty, name.utf8.count <= 255,
            name.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || $0 == 95 })
        else { return nil }
        for entry in SampleKind.prefixes where name.hasPrefix(entry.prefix) {
            if entry.exact ? name == entry.prefix : name.count > entry.prefix.count { return entry.kind }
        }
        return nil
    }

    @Test("Every known identifier, and near misses of the quantity prefix, get the table's kind")
    func kindsAgree() {
        let nearMisses = [
            "HKQuantityTypeIdentifier", "HKQuantityTypeIdentifierX", "HKQuantityTypeIdentifie", "HKQuantityTypeidentifierHeartRate",
            "hKQuantityTypeIdentifierHeartRate", "HKQuantityTypeIdentifier-HeartRate", "HKQuantityTypeIdentifierHeartRate ",
            "HKQuantityTypeIdentifierBodyMass", "HKCategoryTypeIdentifierSleepAnalysis", "HeartRate",
        ]
        for name in HealthKitTypes.known.sorted() + nearMisses {
            let bytes = Array(name.utf8)
            let kind = bytes.withUnsafeBytes { SampleKind(identifierBytes: $0) }
            #expect(kind == Self.kindByTable(name), "\(name)")
        }
        #expect(Array("HKQuantityTypeIdentifierHeartRate".utf8).withUnsafeBytes { SampleKind(identifierBytes: $0) } == .quantity)
    }
}

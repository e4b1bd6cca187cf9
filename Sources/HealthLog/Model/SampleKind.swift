#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The kind of a sample, decided by its type identifier's prefix.
public enum SampleKind: String, Sendable, CaseIterable {
    /// `HKQuantityTypeIdentifier…`: a number with a unit.
    case quantity
    /// `HKCategoryTypeIdentifier…`: an integer or a constant's name.
    case category
    /// `HKWorkoutTypeIdentifier`.
    case workout
    /// `HKCorrelationTypeIdentifier…`: a group of samples added in the same append.
    case correlation
    /// `HKDataType…`: other data Apple's export carries (goals, audiograms,
    /// electrocardiograms and the like); also `HKClinicalTypeIdentifier…` (clinical
    /// records) and `HKVisionPrescriptionTypeIdentifier`.
    case dataType
    /// `HKActivitySummaryTypeIdentifier`: one day's activity rings.
    case activitySummary
    /// `HKCharacteristicTypeIdentifier…`: date of birth, biological sex, blood type, …
    case characteristic
    /// `HKWorkoutRouteTypeIdentifier`: a series sample of location points, linked to its workout.
    case workoutRoute

    /// The identifier prefixes, longest match first; an `exact` prefix must be the whole name.
    static let prefixes: [(prefix: String, kind: SampleKind, exact: Bool)] = [
        ("HKQuantityTypeIdentifier", .quantity, false),
        ("HKCategoryTypeIdentifier", .category, false),
        ("HKCorrelationTypeIdentifier", .correlation, false),
        ("HKCharacteristicTypeIdentifier", .characteristic, false),
        ("HKWorkoutTypeIdentifier", .workout, true),
        ("HKWorkoutRouteTypeIdentifier", .workoutRoute, true),
        ("HKActivitySummaryTypeIdentifier", .activitySummary, true),
        ("HKDataType", .dataType, false),
        ("HKClinicalTypeIdentifier", .dataType, false),
        ("HKVisionPrescriptionTypeIdentifier", .dataType, true),
    ]

    /// The kind of a full type identifier, or `nil` when it has no HealthKit prefix or holds
    /// characters other than ASCII letters, digits and `_`.
    public init?(typeIdentifier name: String) {
        var name = name
        guard let kind = name.withUTF8({ SampleKind(identifierBytes: UnsafeRawBufferPointer($0)) }) else { return nil }
        self = kind
    }

    /// The kind of an identifier given as UTF-8 bytes.
    init?(identifierBytes b: UnsafeRawBufferPointer) {
        guard !b.isEmpty, b.count <= 255 else { return nil }
        for c in b {
            let ok = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 95
            guard ok else { return nil }
        }
        // Most lines are quantities: `HKQuantityTypeIdentifier` as three little-endian words.
        if b.count > 24, b.loadUnaligned(fromByteOffset: 0, as: UInt64.self) == UInt64(littleEndian: 0x6974_6E61_7551_4B48),
            b.loadUnaligned(fromByteOffset: 8, as: UInt64.self) == UInt64(littleEndian: 0x6449_6570_7954_7974),
            b.loadUnaligned(fromByteOffset: 16, as: UInt64.self) == UInt64(littleEndian: 0x7265_6966_6974_6E65)
        {
            self = .quantity
            return
        }
        for entry in SampleKind.prefixes {
            let p = entry.prefix.utf8
            guard b.count >= p.count, Self.starts(b, with: p) else { continue }
            if entry.exact ? b.count == p.count : b.count > p.count {
                self = entry.kind
                return
            }
        }
        return nil
    }

    /// Whether `bytes` starts with `prefix` (compared with `memcmp(3)` when the prefix is
    /// stored contiguously, as a literal's is).
    private static func starts(_ bytes: UnsafeRawBufferPointer, with prefix: String.UTF8View) -> Bool {
        let same = prefix.withContiguousStorageIfAvailable { p in memcmp(bytes.baseAddress!, p.baseAddress!, p.count) == 0 }
        return same ?? zip(bytes, prefix).allSatisfy { $0 == $1 }
    }
}

/// A HealthKit type identifier with the kind its prefix names: HealthKit's
/// `HKSampleType` for healthlog.
///
/// ```swift
/// let heartRate = SampleType.quantity("HeartRate")   // HKQuantityTypeIdentifierHeartRate
/// let sleep = SampleType("HKCategoryTypeIdentifierSleepAnalysis")!
/// ```
public struct SampleType: Hashable, Sendable, CustomStringConvertible {
    /// The full identifier, e.g. `HKQuantityTypeIdentifierHeartRate`.
    public let identifier: String
    /// The kind the identifier's prefix names.
    public let kind: SampleKind

    /// The type with the full identifier `identifier`, or `nil` when it has no HealthKit
    /// prefix (``SampleKind``).
    public init?(_ identifier: String) {
        guard let kind = SampleKind(typeIdentifier: identifier) else { return nil }
        self.identifier = identifier
        self.kind = kind
    }

    /// `HKQuantityTypeIdentifier` + `name`; `name` must be letters, digits or `_`.
    public static func quantity(_ name: String) -> SampleType { named("HKQuantityTypeIdentifier", name) }
    /// `HKCategoryTypeIdentifier` + `name`.
    public static func category(_ name: String) -> SampleType { named("HKCategoryTypeIdentifier", name) }
    /// `HKCorrelationTypeIdentifier` + `name`.
    public static func correlation(_ name: String) -> SampleType { named("HKCorrelationTypeIdentifier", name) }
    /// `HKWorkoutTypeIdentifier`.
    public static let workout = SampleType("HKWorkoutTypeIdentifier")!

    private static func named(_ prefix: String, _ name: String) -> SampleType {
        guard let type = SampleType(prefix + name) else { preconditionFailure("'\(name)' is not a type name: use letters, digits and _") }
        return type
    }

    /// The full identifier.
    public var description: String { identifier }
}

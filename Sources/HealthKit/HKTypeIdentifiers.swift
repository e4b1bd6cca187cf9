#if !canImport(Darwin)
/// A quantity type's identifier (`HKQuantityTypeIdentifier.stepCount`); the known ones are
/// generated from healthlog's catalog.
public struct HKQuantityTypeIdentifier: RawRepresentable, Hashable, Sendable {
    /// The full identifier, `HKQuantityTypeIdentifierStepCount`.
    public let rawValue: String
    /// An identifier, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// An identifier, known or not.
    public init(_ rawValue: String) { self.rawValue = rawValue }
}

/// A category type's identifier (`HKCategoryTypeIdentifier.sleepAnalysis`).
public struct HKCategoryTypeIdentifier: RawRepresentable, Hashable, Sendable {
    /// The full identifier.
    public let rawValue: String
    /// An identifier, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// An identifier, known or not.
    public init(_ rawValue: String) { self.rawValue = rawValue }
}

/// A correlation type's identifier (`HKCorrelationTypeIdentifier.bloodPressure`).
public struct HKCorrelationTypeIdentifier: RawRepresentable, Hashable, Sendable {
    /// The full identifier.
    public let rawValue: String
    /// An identifier, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// An identifier, known or not.
    public init(_ rawValue: String) { self.rawValue = rawValue }
}

/// A characteristic type's identifier (`HKCharacteristicTypeIdentifier.dateOfBirth`).
public struct HKCharacteristicTypeIdentifier: RawRepresentable, Hashable, Sendable {
    /// The full identifier.
    public let rawValue: String
    /// An identifier, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// An identifier, known or not.
    public init(_ rawValue: String) { self.rawValue = rawValue }
}

/// The identifier of workouts, `HKWorkoutTypeIdentifier`.
public let HKWorkoutTypeIdentifier = "HKWorkoutTypeIdentifier"
/// The identifier of workout routes, `HKWorkoutRouteTypeIdentifier`.
public let HKWorkoutRouteTypeIdentifier = "HKWorkoutRouteTypeIdentifier"
#endif

#if !canImport(Darwin)
internal import HealthLog

/// A type of data, as HealthKit's `HKObjectType`: equal when the identifiers are.
public class HKObjectType: NSObject, @unchecked Sendable {
    /// The full identifier (`HKQuantityTypeIdentifierHeartRate`).
    public let identifier: String

    init(identifier: String) {
        self.identifier = identifier
    }

    /// Equal objects hash alike.
    public override var hash: Int { identifier.hashValue }
    /// Whether `object` is equal to this one.
    public override func isEqual(_ object: Any?) -> Bool { (object as? HKObjectType)?.identifier == identifier }
    /// A description, for logs.
    public override var description: String { identifier }

    /// The quantity type `identifier` names, or `nil` when it is not a quantity type's.
    public class func quantityType(forIdentifier identifier: HKQuantityTypeIdentifier) -> HKQuantityType? {
        identifier.rawValue.hasPrefix("HKQuantityTypeIdentifier") ? HKQuantityType(identifier) : nil
    }

    /// The category type `identifier` names, or `nil` when it is not a category type's.
    public class func categoryType(forIdentifier identifier: HKCategoryTypeIdentifier) -> HKCategoryType? {
        identifier.rawValue.hasPrefix("HKCategoryTypeIdentifier") ? HKCategoryType(identifier) : nil
    }

    /// The correlation type `identifier` names, or `nil` when it is not a correlation type's.
    public class func correlationType(forIdentifier identifier: HKCorrelationTypeIdentifier) -> HKCorrelationType? {
        identifier.rawValue.hasPrefix("HKCorrelationTypeIdentifier") ? HKCorrelationType(identifier) : nil
    }

    /// The characteristic type `identifier` names, or `nil` when it is not a characteristic type's.
    public class func characteristicType(forIdentifier identifier: HKCharacteristicTypeIdentifier) -> HKCharacteristicType? {
        identifier.rawValue.hasPrefix("HKCharacteristicTypeIdentifier") ? HKCharacteristicType(identifier) : nil
    }

    /// The workout type.
    public class func workoutType() -> HKWorkoutType { HKWorkoutType() }

    /// The type of the samples of `identifier`, by its prefix (a quantity type for
    /// `HKQuantityTypeIdentifier…`, and so on).
    static func sampleType(identifier: String) -> HKSampleType {
        switch SampleKind(typeIdentifier: identifier) {
        case .quantity: HKQuantityType(HKQuantityTypeIdentifier(rawValue: identifier))
        case .category: HKCategoryType(HKCategoryTypeIdentifier(rawValue: identifier))
        case .correlation: HKCorrelationType(HKCorrelationTypeIdentifier(rawValue: identifier))
        case .workout: HKWorkoutType()
        default: HKSampleType(identifier: identifier)
        }
    }
}

/// A type of samples, as HealthKit's `HKSampleType`.
public class HKSampleType: HKObjectType, @unchecked Sendable {
    /// The type as healthlog names it.
    var sampleType: SampleType { SampleType(identifier) ?? .quantity(identifier) }
}

/// How a quantity type's samples combine, as HealthKit's `HKQuantityAggregationStyle`.
public enum HKQuantityAggregationStyle: Int, Sendable {
    /// Values add up (steps, energy).
    case cumulative = 0
    /// Independent readings averaged arithmetically.
    case discreteArithmetic = 1
    /// Readings averaged over time.
    case discreteTemporallyWeighted = 2
    /// Sound levels.
    case discreteEquivalentContinuousLevel = 3
}

/// A quantity type, as HealthKit's `HKQuantityType`: `HKQuantityType(.heartRate)`.
public final class HKQuantityType: HKSampleType, @unchecked Sendable {
    /// The type of `identifier`.
    public init(_ identifier: HKQuantityTypeIdentifier) {
        super.init(identifier: identifier.rawValue)
    }

    /// How the type's samples combine (cumulative for a type healthlog does not know).
    public var aggregationStyle: HKQuantityAggregationStyle {
        switch QuantityTypeInfo.of(identifier)?.style {
        case .discreteArithmetic: .discreteArithmetic
        case .discreteTemporallyWeighted: .discreteTemporallyWeighted
        case .discreteEquivalentContinuousLevel: .discreteEquivalentContinuousLevel
        case .cumulative, nil: .cumulative
        }
    }

    /// Whether quantities in `unit` fit the type (any unit for a type healthlog does not know).
    public func `is`(compatibleWith unit: HKUnit) -> Bool {
        guard let info = QuantityTypeInfo.of(identifier), let parsed = unit.healthUnit else { return true }
        return parsed.isCompatible(with: info.unit)
    }
}

/// A category type, as HealthKit's `HKCategoryType`: `HKCategoryType(.sleepAnalysis)`.
public final class HKCategoryType: HKSampleType, @unchecked Sendable {
    /// The type of `identifier`.
    public init(_ identifier: HKCategoryTypeIdentifier) {
        super.init(identifier: identifier.rawValue)
    }
}

/// A correlation type, as HealthKit's `HKCorrelationType`.
public final class HKCorrelationType: HKSampleType, @unchecked Sendable {
    /// The type of `identifier`.
    public init(_ identifier: HKCorrelationTypeIdentifier) {
        super.init(identifier: identifier.rawValue)
    }
}

/// The workout type, as HealthKit's `HKWorkoutType`.
public final class HKWorkoutType: HKSampleType, @unchecked Sendable {
    /// The workout type.
    public init() {
        super.init(identifier: HKWorkoutTypeIdentifier)
    }
}

/// A characteristic type, as HealthKit's `HKCharacteristicType` (a store holds no
/// characteristics; the type exists so authorization requests naming one compile).
public final class HKCharacteristicType: HKObjectType, @unchecked Sendable {
    /// The type of `identifier`.
    public init(_ identifier: HKCharacteristicTypeIdentifier) {
        super.init(identifier: identifier.rawValue)
    }
}
#endif

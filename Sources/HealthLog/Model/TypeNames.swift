/// Resolves the type names people type (`HeartRate`, `SleepAnalysis`, `Workout`) to
/// HealthKit's full identifiers, as SPEC §4 allows "when unambiguous".
public enum TypeNames {
    /// Returns the full identifier for `name`: unchanged when it already has a HealthKit
    /// prefix; otherwise the one prefixed form that is a known HealthKit identifier or a
    /// type present in the store. `present` (the store's types) is asked only when the
    /// known identifiers alone do not settle it.
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` when no form or several forms match.
    public static func resolve(_ name: String, present: () throws -> Set<String>) throws -> String {
        if SampleKind(typeIdentifier: name) != nil { return name }
        let forms = SampleKind.prefixes.compactMap { entry -> String? in
            if entry.exact { return shortForm(entry.prefix) == name ? entry.prefix : nil }
            return entry.prefix + name
        }
        var candidates = forms.filter { known.contains($0) }
        if candidates.count != 1 {
            let types = try present()
            candidates = forms.filter { known.contains($0) || types.contains($0) }
        }
        switch candidates.count {
        case 1: return candidates[0]
        case 0: throw HealthLogError(.badUsage, "unknown type '\(name)': give a full identifier such as HKQuantityTypeIdentifier\(name)")
        default: throw HealthLogError(.badUsage, "type '\(name)' is ambiguous: \(candidates.joined(separator: ", "))")
        }
    }

    /// The short form of a full identifier (`HKQuantityTypeIdentifierHeartRate` → `HeartRate`,
    /// `HKWorkoutTypeIdentifier` → `Workout`).
    static func shortForm(_ identifier: String) -> String {
        for entry in SampleKind.prefixes where identifier.hasPrefix(entry.prefix) {
            if entry.exact { return String(entry.prefix.dropFirst(2).dropLast("TypeIdentifier".count)) }
            return String(identifier.dropFirst(entry.prefix.count))
        }
        return identifier
    }

    /// HealthKit identifiers this build knows by name (more are accepted in full).
    static let known: Set<String> = Set(
        quantity.map { "HKQuantityTypeIdentifier" + $0 } + category.map { "HKCategoryTypeIdentifier" + $0 }
            + ["BloodPressure", "Food"].map { "HKCorrelationTypeIdentifier" + $0 }
            + ["DateOfBirth", "BiologicalSex", "BloodType", "FitzpatrickSkinType", "WheelchairUse", "ActivityMoveMode"].map {
                "HKCharacteristicTypeIdentifier" + $0
            }
            + ["HKWorkoutTypeIdentifier", "HKWorkoutRouteTypeIdentifier", "HKActivitySummaryTypeIdentifier", "HKDataTypeSleepDurationGoal"])

    private static let quantity = [
        "ActiveEnergyBurned", "AppleExerciseTime", "AppleMoveTime", "AppleStandTime", "AppleSleepingWristTemperature",
        "AppleWalkingSteadiness", "BasalBodyTemperature", "BasalEnergyBurned", "BloodAlcoholContent", "BloodGlucose",
        "BloodPressureDiastolic", "BloodPressureSystolic", "BodyFatPercentage", "BodyMass", "BodyMassIndex", "BodyTemperature",
        "DietaryCaffeine", "DietaryCarbohydrates", "DietaryEnergyConsumed", "DietaryFatTotal", "DietaryProtein", "DietarySugar",
        "DietaryWater", "DistanceCycling", "DistanceSwimming", "DistanceWalkingRunning", "DistanceWheelchair", "DistanceDownhillSnowSports",
        "ElectrodermalActivity", "EnvironmentalAudioExposure", "EnvironmentalSoundReduction", "FlightsClimbed", "ForcedVitalCapacity",
        "HeadphoneAudioExposure", "HeartRate", "HeartRateRecoveryOneMinute", "HeartRateVariabilitySDNN", "Height", "InhalerUsage",
        "InsulinDelivery", "LeanBodyMass", "NumberOfAlcoholicBeverages", "NumberOfTimesFallen", "OxygenSaturation",
        "PeakExpiratoryFlowRate", "PhysicalEffort", "PushCount", "RespiratoryRate", "RestingHeartRate", "RunningGroundContactTime",
        "RunningPower", "RunningSpeed", "RunningStrideLength", "RunningVerticalOscillation", "SixMinuteWalkTestDistance",
        "StairAscentSpeed", "StairDescentSpeed", "StepCount", "SwimmingStrokeCount", "TimeInDaylight", "UVExposure",
        "VO2Max", "WaistCircumference", "WalkingAsymmetryPercentage", "WalkingDoubleSupportPercentage", "WalkingHeartRateAverage",
        "WalkingSpeed", "WalkingStepLength", "WaterTemperature", "CyclingCadence", "CyclingPower", "CyclingSpeed",
        "CyclingFunctionalThresholdPower", "AtrialFibrillationBurden", "NikeFuel", "UnderwaterDepth",
    ]

    private static let category = [
        "SleepAnalysis", "AppleStandHour", "MindfulSession", "HighHeartRateEvent", "LowHeartRateEvent",
        "IrregularHeartRhythmEvent", "AudioExposureEvent", "HeadphoneAudioExposureEvent", "EnvironmentalAudioExposureEvent",
        "ToothbrushingEvent", "HandwashingEvent", "MenstrualFlow", "IntermenstrualBleeding", "OvulationTestResult",
        "CervicalMucusQuality", "SexualActivity", "LowCardioFitnessEvent", "AppleWalkingSteadinessEvent", "PregnancyTestResult",
        "Headache", "Fatigue", "Nausea", "Dizziness", "Coughing", "Fever", "AbdominalCramps", "Bloating", "MoodChanges",
        "SleepChanges", "ShortnessOfBreath", "RapidPoundingOrFlutteringHeartbeat", "SkippedHeartbeat", "ChestTightnessOrPain",
        "LossOfSmell", "LossOfTaste", "RunnyNose", "SoreThroat", "Wheezing", "AppetiteChanges", "HotFlashes", "Lactation",
        "Pregnancy", "Contraceptive", "ProgesteroneTestResult", "IrregularMenstrualCycles", "InfrequentMenstrualCycles",
        "ProlongedMenstrualPeriods", "PersistentIntermenstrualBleeding", "BleedingDuringPregnancy", "BleedingAfterPregnancy",
        "SleepApneaEvent",
    ]
}

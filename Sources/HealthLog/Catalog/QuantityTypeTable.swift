/// HealthKit's quantity types by aggregation style, each with the unit Apple's exports
/// write for it (a table: see ``QuantityTypeInfo``).
enum QuantityTypeTable {
    /// The types, by style: short name and unit.
    static let entries: [(AggregationStyle, [(String, String)])] = [
        (
            .cumulative,
            [
                ("ActiveEnergyBurned", "kcal"), ("BasalEnergyBurned", "kcal"), ("AppleExerciseTime", "min"), ("AppleMoveTime", "min"),
                ("AppleStandTime", "min"), ("TimeInDaylight", "min"), ("StepCount", "count"), ("FlightsClimbed", "count"),
                ("PushCount", "count"), ("SwimmingStrokeCount", "count"), ("NikeFuel", "count"), ("NumberOfTimesFallen", "count"),
                ("NumberOfAlcoholicBeverages", "count"), ("InhalerUsage", "count"), ("InsulinDelivery", "IU"),
                ("DistanceWalkingRunning", "km"), ("DistanceCycling", "km"), ("DistanceWheelchair", "km"), ("DistanceSwimming", "m"),
                ("DistanceDownhillSnowSports", "m"), ("DistanceCrossCountrySkiing", "m"), ("DistancePaddleSports", "m"),
                ("DistanceRowing", "m"), ("DistanceSkatingSports", "m"), ("DietaryEnergyConsumed", "kcal"),
                ("DietaryCarbohydrates", "g"), ("DietaryFatTotal", "g"), ("DietaryFatSaturated", "g"),
                ("DietaryFatMonounsaturated", "g"), ("DietaryFatPolyunsaturated", "g"), ("DietaryFiber", "g"), ("DietaryProtein", "g"),
                ("DietarySugar", "g"), ("DietaryCholesterol", "mg"), ("DietaryCaffeine", "mg"), ("DietaryCalcium", "mg"),
                ("DietaryChloride", "mg"), ("DietaryCopper", "mg"), ("DietaryIron", "mg"), ("DietaryMagnesium", "mg"),
                ("DietaryManganese", "mg"), ("DietaryNiacin", "mg"), ("DietaryPantothenicAcid", "mg"), ("DietaryPhosphorus", "mg"),
                ("DietaryPotassium", "mg"), ("DietaryRiboflavin", "mg"), ("DietarySodium", "mg"), ("DietaryThiamin", "mg"),
                ("DietaryVitaminB6", "mg"), ("DietaryVitaminC", "mg"), ("DietaryVitaminE", "mg"), ("DietaryZinc", "mg"),
                ("DietaryBiotin", "mcg"), ("DietaryChromium", "mcg"), ("DietaryFolate", "mcg"), ("DietaryIodine", "mcg"),
                ("DietaryMolybdenum", "mcg"), ("DietarySelenium", "mcg"), ("DietaryVitaminA", "mcg"), ("DietaryVitaminB12", "mcg"),
                ("DietaryVitaminD", "mcg"), ("DietaryVitaminK", "mcg"), ("DietaryWater", "mL"), ("UVExposure", "count"),
            ]
        ),
        (
            .discreteArithmetic,
            [
                ("BodyMass", "kg"), ("LeanBodyMass", "kg"), ("BodyMassIndex", "count"), ("BodyFatPercentage", "%"), ("Height", "cm"),
                ("WaistCircumference", "cm"), ("BloodGlucose", "mg/dL"), ("BloodAlcoholContent", "%"),
                ("BloodPressureSystolic", "mmHg"), ("BloodPressureDiastolic", "mmHg"), ("BodyTemperature", "degC"),
                ("BasalBodyTemperature", "degC"), ("AppleSleepingWristTemperature", "degC"), ("WaterTemperature", "degC"),
                ("ElectrodermalActivity", "µS"), ("ForcedExpiratoryVolume1", "L"), ("ForcedVitalCapacity", "L"),
                ("PeakExpiratoryFlowRate", "L/min"), ("OxygenSaturation", "%"), ("PeripheralPerfusionIndex", "%"),
                ("RespiratoryRate", "count/min"), ("VO2Max", "mL/kg·min"), ("HeartRateVariabilitySDNN", "ms"),
                ("RestingHeartRate", "count/min"), ("WalkingHeartRateAverage", "count/min"), ("HeartRateRecoveryOneMinute", "count/min"),
                ("SixMinuteWalkTestDistance", "m"), ("StairAscentSpeed", "m/s"), ("StairDescentSpeed", "m/s"), ("WalkingSpeed", "km/hr"),
                ("WalkingStepLength", "cm"), ("WalkingAsymmetryPercentage", "%"), ("WalkingDoubleSupportPercentage", "%"),
                ("AppleWalkingSteadiness", "%"), ("RunningSpeed", "m/s"), ("RunningPower", "W"), ("RunningStrideLength", "m"),
                ("RunningVerticalOscillation", "cm"), ("RunningGroundContactTime", "ms"), ("CyclingCadence", "count/min"),
                ("CyclingPower", "W"), ("CyclingSpeed", "m/s"), ("CyclingFunctionalThresholdPower", "W"), ("UnderwaterDepth", "m"),
                ("AtrialFibrillationBurden", "%"), ("AppleSleepingBreathingDisturbances", "count"), ("PaddleSportsSpeed", "m/s"),
                ("RowingSpeed", "m/s"), ("CrossCountrySkiingSpeed", "m/s"), ("WorkoutEffortScore", "appleEffortScore"),
                ("EstimatedWorkoutEffortScore", "appleEffortScore"),
            ]
        ),
        (.discreteTemporallyWeighted, [("HeartRate", "count/min"), ("PhysicalEffort", "kcal/hr·kg")]),
        (
            .discreteEquivalentContinuousLevel,
            [("EnvironmentalAudioExposure", "dBASPL"), ("HeadphoneAudioExposure", "dBASPL"), ("EnvironmentalSoundReduction", "dBASPL")]
        ),
    ]
}

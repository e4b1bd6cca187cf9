// Generated from healthlog's catalog (Sources/HealthLog/Catalog) by tools/generate-healthkit;
// do not edit: change the catalog and run the tool.
#if !canImport(Darwin)

extension HKQuantityTypeIdentifier {
    /// `HKQuantityTypeIdentifierActiveEnergyBurned`.
    public static let activeEnergyBurned = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierActiveEnergyBurned")
    /// `HKQuantityTypeIdentifierAppleExerciseTime`.
    public static let appleExerciseTime = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierAppleExerciseTime")
    /// `HKQuantityTypeIdentifierAppleMoveTime`.
    public static let appleMoveTime = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierAppleMoveTime")
    /// `HKQuantityTypeIdentifierAppleSleepingBreathingDisturbances`.
    public static let appleSleepingBreathingDisturbances = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierAppleSleepingBreathingDisturbances")
    /// `HKQuantityTypeIdentifierAppleSleepingWristTemperature`.
    public static let appleSleepingWristTemperature = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierAppleSleepingWristTemperature")
    /// `HKQuantityTypeIdentifierAppleStandTime`.
    public static let appleStandTime = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierAppleStandTime")
    /// `HKQuantityTypeIdentifierAppleWalkingSteadiness`.
    public static let appleWalkingSteadiness = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierAppleWalkingSteadiness")
    /// `HKQuantityTypeIdentifierAtrialFibrillationBurden`.
    public static let atrialFibrillationBurden = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierAtrialFibrillationBurden")
    /// `HKQuantityTypeIdentifierBasalBodyTemperature`.
    public static let basalBodyTemperature = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierBasalBodyTemperature")
    /// `HKQuantityTypeIdentifierBasalEnergyBurned`.
    public static let basalEnergyBurned = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierBasalEnergyBurned")
    /// `HKQuantityTypeIdentifierBloodAlcoholContent`.
    public static let bloodAlcoholContent = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierBloodAlcoholContent")
    /// `HKQuantityTypeIdentifierBloodGlucose`.
    public static let bloodGlucose = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierBloodGlucose")
    /// `HKQuantityTypeIdentifierBloodPressureDiastolic`.
    public static let bloodPressureDiastolic = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierBloodPressureDiastolic")
    /// `HKQuantityTypeIdentifierBloodPressureSystolic`.
    public static let bloodPressureSystolic = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierBloodPressureSystolic")
    /// `HKQuantityTypeIdentifierBodyFatPercentage`.
    public static let bodyFatPercentage = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierBodyFatPercentage")
    /// `HKQuantityTypeIdentifierBodyMass`.
    public static let bodyMass = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierBodyMass")
    /// `HKQuantityTypeIdentifierBodyMassIndex`.
    public static let bodyMassIndex = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierBodyMassIndex")
    /// `HKQuantityTypeIdentifierBodyTemperature`.
    public static let bodyTemperature = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierBodyTemperature")
    /// `HKQuantityTypeIdentifierCrossCountrySkiingSpeed`.
    public static let crossCountrySkiingSpeed = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierCrossCountrySkiingSpeed")
    /// `HKQuantityTypeIdentifierCyclingCadence`.
    public static let cyclingCadence = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierCyclingCadence")
    /// `HKQuantityTypeIdentifierCyclingFunctionalThresholdPower`.
    public static let cyclingFunctionalThresholdPower = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierCyclingFunctionalThresholdPower")
    /// `HKQuantityTypeIdentifierCyclingPower`.
    public static let cyclingPower = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierCyclingPower")
    /// `HKQuantityTypeIdentifierCyclingSpeed`.
    public static let cyclingSpeed = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierCyclingSpeed")
    /// `HKQuantityTypeIdentifierDietaryBiotin`.
    public static let dietaryBiotin = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryBiotin")
    /// `HKQuantityTypeIdentifierDietaryCaffeine`.
    public static let dietaryCaffeine = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryCaffeine")
    /// `HKQuantityTypeIdentifierDietaryCalcium`.
    public static let dietaryCalcium = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryCalcium")
    /// `HKQuantityTypeIdentifierDietaryCarbohydrates`.
    public static let dietaryCarbohydrates = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryCarbohydrates")
    /// `HKQuantityTypeIdentifierDietaryChloride`.
    public static let dietaryChloride = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryChloride")
    /// `HKQuantityTypeIdentifierDietaryCholesterol`.
    public static let dietaryCholesterol = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryCholesterol")
    /// `HKQuantityTypeIdentifierDietaryChromium`.
    public static let dietaryChromium = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryChromium")
    /// `HKQuantityTypeIdentifierDietaryCopper`.
    public static let dietaryCopper = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryCopper")
    /// `HKQuantityTypeIdentifierDietaryEnergyConsumed`.
    public static let dietaryEnergyConsumed = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryEnergyConsumed")
    /// `HKQuantityTypeIdentifierDietaryFatMonounsaturated`.
    public static let dietaryFatMonounsaturated = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryFatMonounsaturated")
    /// `HKQuantityTypeIdentifierDietaryFatPolyunsaturated`.
    public static let dietaryFatPolyunsaturated = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryFatPolyunsaturated")
    /// `HKQuantityTypeIdentifierDietaryFatSaturated`.
    public static let dietaryFatSaturated = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryFatSaturated")
    /// `HKQuantityTypeIdentifierDietaryFatTotal`.
    public static let dietaryFatTotal = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryFatTotal")
    /// `HKQuantityTypeIdentifierDietaryFiber`.
    public static let dietaryFiber = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryFiber")
    /// `HKQuantityTypeIdentifierDietaryFolate`.
    public static let dietaryFolate = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryFolate")
    /// `HKQuantityTypeIdentifierDietaryIodine`.
    public static let dietaryIodine = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryIodine")
    /// `HKQuantityTypeIdentifierDietaryIron`.
    public static let dietaryIron = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryIron")
    /// `HKQuantityTypeIdentifierDietaryMagnesium`.
    public static let dietaryMagnesium = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryMagnesium")
    /// `HKQuantityTypeIdentifierDietaryManganese`.
    public static let dietaryManganese = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryManganese")
    /// `HKQuantityTypeIdentifierDietaryMolybdenum`.
    public static let dietaryMolybdenum = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryMolybdenum")
    /// `HKQuantityTypeIdentifierDietaryNiacin`.
    public static let dietaryNiacin = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryNiacin")
    /// `HKQuantityTypeIdentifierDietaryPantothenicAcid`.
    public static let dietaryPantothenicAcid = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryPantothenicAcid")
    /// `HKQuantityTypeIdentifierDietaryPhosphorus`.
    public static let dietaryPhosphorus = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryPhosphorus")
    /// `HKQuantityTypeIdentifierDietaryPotassium`.
    public static let dietaryPotassium = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryPotassium")
    /// `HKQuantityTypeIdentifierDietaryProtein`.
    public static let dietaryProtein = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryProtein")
    /// `HKQuantityTypeIdentifierDietaryRiboflavin`.
    public static let dietaryRiboflavin = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryRiboflavin")
    /// `HKQuantityTypeIdentifierDietarySelenium`.
    public static let dietarySelenium = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietarySelenium")
    /// `HKQuantityTypeIdentifierDietarySodium`.
    public static let dietarySodium = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietarySodium")
    /// `HKQuantityTypeIdentifierDietarySugar`.
    public static let dietarySugar = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietarySugar")
    /// `HKQuantityTypeIdentifierDietaryThiamin`.
    public static let dietaryThiamin = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryThiamin")
    /// `HKQuantityTypeIdentifierDietaryVitaminA`.
    public static let dietaryVitaminA = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryVitaminA")
    /// `HKQuantityTypeIdentifierDietaryVitaminB12`.
    public static let dietaryVitaminB12 = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryVitaminB12")
    /// `HKQuantityTypeIdentifierDietaryVitaminB6`.
    public static let dietaryVitaminB6 = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryVitaminB6")
    /// `HKQuantityTypeIdentifierDietaryVitaminC`.
    public static let dietaryVitaminC = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryVitaminC")
    /// `HKQuantityTypeIdentifierDietaryVitaminD`.
    public static let dietaryVitaminD = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryVitaminD")
    /// `HKQuantityTypeIdentifierDietaryVitaminE`.
    public static let dietaryVitaminE = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryVitaminE")
    /// `HKQuantityTypeIdentifierDietaryVitaminK`.
    public static let dietaryVitaminK = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryVitaminK")
    /// `HKQuantityTypeIdentifierDietaryWater`.
    public static let dietaryWater = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryWater")
    /// `HKQuantityTypeIdentifierDietaryZinc`.
    public static let dietaryZinc = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryZinc")
    /// `HKQuantityTypeIdentifierDistanceCrossCountrySkiing`.
    public static let distanceCrossCountrySkiing = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDistanceCrossCountrySkiing")
    /// `HKQuantityTypeIdentifierDistanceCycling`.
    public static let distanceCycling = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDistanceCycling")
    /// `HKQuantityTypeIdentifierDistanceDownhillSnowSports`.
    public static let distanceDownhillSnowSports = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDistanceDownhillSnowSports")
    /// `HKQuantityTypeIdentifierDistancePaddleSports`.
    public static let distancePaddleSports = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDistancePaddleSports")
    /// `HKQuantityTypeIdentifierDistanceRowing`.
    public static let distanceRowing = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDistanceRowing")
    /// `HKQuantityTypeIdentifierDistanceSkatingSports`.
    public static let distanceSkatingSports = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDistanceSkatingSports")
    /// `HKQuantityTypeIdentifierDistanceSwimming`.
    public static let distanceSwimming = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDistanceSwimming")
    /// `HKQuantityTypeIdentifierDistanceWalkingRunning`.
    public static let distanceWalkingRunning = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDistanceWalkingRunning")
    /// `HKQuantityTypeIdentifierDistanceWheelchair`.
    public static let distanceWheelchair = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDistanceWheelchair")
    /// `HKQuantityTypeIdentifierElectrodermalActivity`.
    public static let electrodermalActivity = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierElectrodermalActivity")
    /// `HKQuantityTypeIdentifierEnvironmentalAudioExposure`.
    public static let environmentalAudioExposure = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierEnvironmentalAudioExposure")
    /// `HKQuantityTypeIdentifierEnvironmentalSoundReduction`.
    public static let environmentalSoundReduction = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierEnvironmentalSoundReduction")
    /// `HKQuantityTypeIdentifierEstimatedWorkoutEffortScore`.
    public static let estimatedWorkoutEffortScore = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierEstimatedWorkoutEffortScore")
    /// `HKQuantityTypeIdentifierFlightsClimbed`.
    public static let flightsClimbed = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierFlightsClimbed")
    /// `HKQuantityTypeIdentifierForcedExpiratoryVolume1`.
    public static let forcedExpiratoryVolume1 = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierForcedExpiratoryVolume1")
    /// `HKQuantityTypeIdentifierForcedVitalCapacity`.
    public static let forcedVitalCapacity = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierForcedVitalCapacity")
    /// `HKQuantityTypeIdentifierHeadphoneAudioExposure`.
    public static let headphoneAudioExposure = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierHeadphoneAudioExposure")
    /// `HKQuantityTypeIdentifierHeartRate`.
    public static let heartRate = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierHeartRate")
    /// `HKQuantityTypeIdentifierHeartRateRecoveryOneMinute`.
    public static let heartRateRecoveryOneMinute = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierHeartRateRecoveryOneMinute")
    /// `HKQuantityTypeIdentifierHeartRateVariabilitySDNN`.
    public static let heartRateVariabilitySDNN = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierHeartRateVariabilitySDNN")
    /// `HKQuantityTypeIdentifierHeight`.
    public static let height = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierHeight")
    /// `HKQuantityTypeIdentifierInhalerUsage`.
    public static let inhalerUsage = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierInhalerUsage")
    /// `HKQuantityTypeIdentifierInsulinDelivery`.
    public static let insulinDelivery = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierInsulinDelivery")
    /// `HKQuantityTypeIdentifierLeanBodyMass`.
    public static let leanBodyMass = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierLeanBodyMass")
    /// `HKQuantityTypeIdentifierNikeFuel`.
    public static let nikeFuel = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierNikeFuel")
    /// `HKQuantityTypeIdentifierNumberOfAlcoholicBeverages`.
    public static let numberOfAlcoholicBeverages = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierNumberOfAlcoholicBeverages")
    /// `HKQuantityTypeIdentifierNumberOfTimesFallen`.
    public static let numberOfTimesFallen = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierNumberOfTimesFallen")
    /// `HKQuantityTypeIdentifierOxygenSaturation`.
    public static let oxygenSaturation = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierOxygenSaturation")
    /// `HKQuantityTypeIdentifierPaddleSportsSpeed`.
    public static let paddleSportsSpeed = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierPaddleSportsSpeed")
    /// `HKQuantityTypeIdentifierPeakExpiratoryFlowRate`.
    public static let peakExpiratoryFlowRate = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierPeakExpiratoryFlowRate")
    /// `HKQuantityTypeIdentifierPeripheralPerfusionIndex`.
    public static let peripheralPerfusionIndex = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierPeripheralPerfusionIndex")
    /// `HKQuantityTypeIdentifierPhysicalEffort`.
    public static let physicalEffort = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierPhysicalEffort")
    /// `HKQuantityTypeIdentifierPushCount`.
    public static let pushCount = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierPushCount")
    /// `HKQuantityTypeIdentifierRespiratoryRate`.
    public static let respiratoryRate = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierRespiratoryRate")
    /// `HKQuantityTypeIdentifierRestingHeartRate`.
    public static let restingHeartRate = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierRestingHeartRate")
    /// `HKQuantityTypeIdentifierRowingSpeed`.
    public static let rowingSpeed = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierRowingSpeed")
    /// `HKQuantityTypeIdentifierRunningGroundContactTime`.
    public static let runningGroundContactTime = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierRunningGroundContactTime")
    /// `HKQuantityTypeIdentifierRunningPower`.
    public static let runningPower = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierRunningPower")
    /// `HKQuantityTypeIdentifierRunningSpeed`.
    public static let runningSpeed = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierRunningSpeed")
    /// `HKQuantityTypeIdentifierRunningStrideLength`.
    public static let runningStrideLength = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierRunningStrideLength")
    /// `HKQuantityTypeIdentifierRunningVerticalOscillation`.
    public static let runningVerticalOscillation = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierRunningVerticalOscillation")
    /// `HKQuantityTypeIdentifierSixMinuteWalkTestDistance`.
    public static let sixMinuteWalkTestDistance = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierSixMinuteWalkTestDistance")
    /// `HKQuantityTypeIdentifierStairAscentSpeed`.
    public static let stairAscentSpeed = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierStairAscentSpeed")
    /// `HKQuantityTypeIdentifierStairDescentSpeed`.
    public static let stairDescentSpeed = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierStairDescentSpeed")
    /// `HKQuantityTypeIdentifierStepCount`.
    public static let stepCount = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierStepCount")
    /// `HKQuantityTypeIdentifierSwimmingStrokeCount`.
    public static let swimmingStrokeCount = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierSwimmingStrokeCount")
    /// `HKQuantityTypeIdentifierTimeInDaylight`.
    public static let timeInDaylight = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierTimeInDaylight")
    /// `HKQuantityTypeIdentifierUVExposure`.
    public static let uvExposure = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierUVExposure")
    /// `HKQuantityTypeIdentifierUnderwaterDepth`.
    public static let underwaterDepth = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierUnderwaterDepth")
    /// `HKQuantityTypeIdentifierVO2Max`.
    public static let vo2Max = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierVO2Max")
    /// `HKQuantityTypeIdentifierWaistCircumference`.
    public static let waistCircumference = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierWaistCircumference")
    /// `HKQuantityTypeIdentifierWalkingAsymmetryPercentage`.
    public static let walkingAsymmetryPercentage = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierWalkingAsymmetryPercentage")
    /// `HKQuantityTypeIdentifierWalkingDoubleSupportPercentage`.
    public static let walkingDoubleSupportPercentage = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierWalkingDoubleSupportPercentage")
    /// `HKQuantityTypeIdentifierWalkingHeartRateAverage`.
    public static let walkingHeartRateAverage = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierWalkingHeartRateAverage")
    /// `HKQuantityTypeIdentifierWalkingSpeed`.
    public static let walkingSpeed = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierWalkingSpeed")
    /// `HKQuantityTypeIdentifierWalkingStepLength`.
    public static let walkingStepLength = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierWalkingStepLength")
    /// `HKQuantityTypeIdentifierWaterTemperature`.
    public static let waterTemperature = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierWaterTemperature")
    /// `HKQuantityTypeIdentifierWorkoutEffortScore`.
    public static let workoutEffortScore = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierWorkoutEffortScore")
}

extension HKCategoryTypeIdentifier {
    /// `HKCategoryTypeIdentifierAbdominalCramps`.
    public static let abdominalCramps = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierAbdominalCramps")
    /// `HKCategoryTypeIdentifierAcne`.
    public static let acne = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierAcne")
    /// `HKCategoryTypeIdentifierAppetiteChanges`.
    public static let appetiteChanges = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierAppetiteChanges")
    /// `HKCategoryTypeIdentifierAppleStandHour`.
    public static let appleStandHour = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierAppleStandHour")
    /// `HKCategoryTypeIdentifierAppleWalkingSteadinessEvent`.
    public static let appleWalkingSteadinessEvent = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierAppleWalkingSteadinessEvent")
    /// `HKCategoryTypeIdentifierAudioExposureEvent`.
    public static let audioExposureEvent = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierAudioExposureEvent")
    /// `HKCategoryTypeIdentifierBladderIncontinence`.
    public static let bladderIncontinence = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierBladderIncontinence")
    /// `HKCategoryTypeIdentifierBleedingAfterPregnancy`.
    public static let bleedingAfterPregnancy = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierBleedingAfterPregnancy")
    /// `HKCategoryTypeIdentifierBleedingDuringPregnancy`.
    public static let bleedingDuringPregnancy = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierBleedingDuringPregnancy")
    /// `HKCategoryTypeIdentifierBloating`.
    public static let bloating = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierBloating")
    /// `HKCategoryTypeIdentifierBreastPain`.
    public static let breastPain = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierBreastPain")
    /// `HKCategoryTypeIdentifierCervicalMucusQuality`.
    public static let cervicalMucusQuality = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierCervicalMucusQuality")
    /// `HKCategoryTypeIdentifierChestTightnessOrPain`.
    public static let chestTightnessOrPain = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierChestTightnessOrPain")
    /// `HKCategoryTypeIdentifierChills`.
    public static let chills = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierChills")
    /// `HKCategoryTypeIdentifierConstipation`.
    public static let constipation = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierConstipation")
    /// `HKCategoryTypeIdentifierContraceptive`.
    public static let contraceptive = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierContraceptive")
    /// `HKCategoryTypeIdentifierCoughing`.
    public static let coughing = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierCoughing")
    /// `HKCategoryTypeIdentifierDiarrhea`.
    public static let diarrhea = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierDiarrhea")
    /// `HKCategoryTypeIdentifierDizziness`.
    public static let dizziness = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierDizziness")
    /// `HKCategoryTypeIdentifierDrySkin`.
    public static let drySkin = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierDrySkin")
    /// `HKCategoryTypeIdentifierEnvironmentalAudioExposureEvent`.
    public static let environmentalAudioExposureEvent = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierEnvironmentalAudioExposureEvent")
    /// `HKCategoryTypeIdentifierFainting`.
    public static let fainting = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierFainting")
    /// `HKCategoryTypeIdentifierFatigue`.
    public static let fatigue = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierFatigue")
    /// `HKCategoryTypeIdentifierFever`.
    public static let fever = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierFever")
    /// `HKCategoryTypeIdentifierGeneralizedBodyAche`.
    public static let generalizedBodyAche = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierGeneralizedBodyAche")
    /// `HKCategoryTypeIdentifierHairLoss`.
    public static let hairLoss = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierHairLoss")
    /// `HKCategoryTypeIdentifierHandwashingEvent`.
    public static let handwashingEvent = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierHandwashingEvent")
    /// `HKCategoryTypeIdentifierHeadache`.
    public static let headache = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierHeadache")
    /// `HKCategoryTypeIdentifierHeadphoneAudioExposureEvent`.
    public static let headphoneAudioExposureEvent = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierHeadphoneAudioExposureEvent")
    /// `HKCategoryTypeIdentifierHeartburn`.
    public static let heartburn = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierHeartburn")
    /// `HKCategoryTypeIdentifierHighHeartRateEvent`.
    public static let highHeartRateEvent = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierHighHeartRateEvent")
    /// `HKCategoryTypeIdentifierHotFlashes`.
    public static let hotFlashes = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierHotFlashes")
    /// `HKCategoryTypeIdentifierInfrequentMenstrualCycles`.
    public static let infrequentMenstrualCycles = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierInfrequentMenstrualCycles")
    /// `HKCategoryTypeIdentifierIntermenstrualBleeding`.
    public static let intermenstrualBleeding = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierIntermenstrualBleeding")
    /// `HKCategoryTypeIdentifierIrregularHeartRhythmEvent`.
    public static let irregularHeartRhythmEvent = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierIrregularHeartRhythmEvent")
    /// `HKCategoryTypeIdentifierIrregularMenstrualCycles`.
    public static let irregularMenstrualCycles = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierIrregularMenstrualCycles")
    /// `HKCategoryTypeIdentifierLactation`.
    public static let lactation = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierLactation")
    /// `HKCategoryTypeIdentifierLossOfSmell`.
    public static let lossOfSmell = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierLossOfSmell")
    /// `HKCategoryTypeIdentifierLossOfTaste`.
    public static let lossOfTaste = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierLossOfTaste")
    /// `HKCategoryTypeIdentifierLowCardioFitnessEvent`.
    public static let lowCardioFitnessEvent = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierLowCardioFitnessEvent")
    /// `HKCategoryTypeIdentifierLowHeartRateEvent`.
    public static let lowHeartRateEvent = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierLowHeartRateEvent")
    /// `HKCategoryTypeIdentifierLowerBackPain`.
    public static let lowerBackPain = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierLowerBackPain")
    /// `HKCategoryTypeIdentifierMemoryLapse`.
    public static let memoryLapse = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierMemoryLapse")
    /// `HKCategoryTypeIdentifierMenstrualFlow`.
    public static let menstrualFlow = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierMenstrualFlow")
    /// `HKCategoryTypeIdentifierMindfulSession`.
    public static let mindfulSession = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierMindfulSession")
    /// `HKCategoryTypeIdentifierMoodChanges`.
    public static let moodChanges = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierMoodChanges")
    /// `HKCategoryTypeIdentifierNausea`.
    public static let nausea = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierNausea")
    /// `HKCategoryTypeIdentifierNightSweats`.
    public static let nightSweats = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierNightSweats")
    /// `HKCategoryTypeIdentifierOvulationTestResult`.
    public static let ovulationTestResult = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierOvulationTestResult")
    /// `HKCategoryTypeIdentifierPelvicPain`.
    public static let pelvicPain = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierPelvicPain")
    /// `HKCategoryTypeIdentifierPersistentIntermenstrualBleeding`.
    public static let persistentIntermenstrualBleeding = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierPersistentIntermenstrualBleeding")
    /// `HKCategoryTypeIdentifierPregnancy`.
    public static let pregnancy = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierPregnancy")
    /// `HKCategoryTypeIdentifierPregnancyTestResult`.
    public static let pregnancyTestResult = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierPregnancyTestResult")
    /// `HKCategoryTypeIdentifierProgesteroneTestResult`.
    public static let progesteroneTestResult = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierProgesteroneTestResult")
    /// `HKCategoryTypeIdentifierProlongedMenstrualPeriods`.
    public static let prolongedMenstrualPeriods = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierProlongedMenstrualPeriods")
    /// `HKCategoryTypeIdentifierRapidPoundingOrFlutteringHeartbeat`.
    public static let rapidPoundingOrFlutteringHeartbeat = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierRapidPoundingOrFlutteringHeartbeat")
    /// `HKCategoryTypeIdentifierRunnyNose`.
    public static let runnyNose = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierRunnyNose")
    /// `HKCategoryTypeIdentifierSexualActivity`.
    public static let sexualActivity = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierSexualActivity")
    /// `HKCategoryTypeIdentifierShortnessOfBreath`.
    public static let shortnessOfBreath = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierShortnessOfBreath")
    /// `HKCategoryTypeIdentifierSinusCongestion`.
    public static let sinusCongestion = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierSinusCongestion")
    /// `HKCategoryTypeIdentifierSkippedHeartbeat`.
    public static let skippedHeartbeat = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierSkippedHeartbeat")
    /// `HKCategoryTypeIdentifierSleepAnalysis`.
    public static let sleepAnalysis = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierSleepAnalysis")
    /// `HKCategoryTypeIdentifierSleepApneaEvent`.
    public static let sleepApneaEvent = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierSleepApneaEvent")
    /// `HKCategoryTypeIdentifierSleepChanges`.
    public static let sleepChanges = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierSleepChanges")
    /// `HKCategoryTypeIdentifierSoreThroat`.
    public static let soreThroat = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierSoreThroat")
    /// `HKCategoryTypeIdentifierToothbrushingEvent`.
    public static let toothbrushingEvent = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierToothbrushingEvent")
    /// `HKCategoryTypeIdentifierVaginalDryness`.
    public static let vaginalDryness = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierVaginalDryness")
    /// `HKCategoryTypeIdentifierVomiting`.
    public static let vomiting = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierVomiting")
    /// `HKCategoryTypeIdentifierWheezing`.
    public static let wheezing = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierWheezing")
}

extension HKCorrelationTypeIdentifier {
    /// `HKCorrelationTypeIdentifierBloodPressure`.
    public static let bloodPressure = HKCorrelationTypeIdentifier(rawValue: "HKCorrelationTypeIdentifierBloodPressure")
    /// `HKCorrelationTypeIdentifierFood`.
    public static let food = HKCorrelationTypeIdentifier(rawValue: "HKCorrelationTypeIdentifierFood")
}

extension HKCharacteristicTypeIdentifier {
    /// `HKCharacteristicTypeIdentifierActivityMoveMode`.
    public static let activityMoveMode = HKCharacteristicTypeIdentifier(rawValue: "HKCharacteristicTypeIdentifierActivityMoveMode")
    /// `HKCharacteristicTypeIdentifierBiologicalSex`.
    public static let biologicalSex = HKCharacteristicTypeIdentifier(rawValue: "HKCharacteristicTypeIdentifierBiologicalSex")
    /// `HKCharacteristicTypeIdentifierBloodType`.
    public static let bloodType = HKCharacteristicTypeIdentifier(rawValue: "HKCharacteristicTypeIdentifierBloodType")
    /// `HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse`.
    public static let cardioFitnessMedicationsUse = HKCharacteristicTypeIdentifier(rawValue: "HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse")
    /// `HKCharacteristicTypeIdentifierDateOfBirth`.
    public static let dateOfBirth = HKCharacteristicTypeIdentifier(rawValue: "HKCharacteristicTypeIdentifierDateOfBirth")
    /// `HKCharacteristicTypeIdentifierFitzpatrickSkinType`.
    public static let fitzpatrickSkinType = HKCharacteristicTypeIdentifier(rawValue: "HKCharacteristicTypeIdentifierFitzpatrickSkinType")
    /// `HKCharacteristicTypeIdentifierWheelchairUse`.
    public static let wheelchairUse = HKCharacteristicTypeIdentifier(rawValue: "HKCharacteristicTypeIdentifierWheelchairUse")
}

/// `HKCategoryValue…` constants.
public enum HKCategoryValue: Int, Sendable, CaseIterable {
    /// `HKCategoryValueNotApplicable`.
    case notApplicable = 0
}

/// `HKCategoryValueAppetiteChanges…` constants.
public enum HKCategoryValueAppetiteChanges: Int, Sendable, CaseIterable {
    /// `HKCategoryValueAppetiteChangesUnspecified`.
    case unspecified = 0
    /// `HKCategoryValueAppetiteChangesNoChange`.
    case noChange = 1
    /// `HKCategoryValueAppetiteChangesDecreased`.
    case decreased = 2
    /// `HKCategoryValueAppetiteChangesIncreased`.
    case increased = 3
}

/// `HKCategoryValueAppleStandHour…` constants.
public enum HKCategoryValueAppleStandHour: Int, Sendable, CaseIterable {
    /// `HKCategoryValueAppleStandHourStood`.
    case stood = 0
    /// `HKCategoryValueAppleStandHourIdle`.
    case idle = 1
}

/// `HKCategoryValueAppleWalkingSteadinessEvent…` constants.
public enum HKCategoryValueAppleWalkingSteadinessEvent: Int, Sendable, CaseIterable {
    /// `HKCategoryValueAppleWalkingSteadinessEventInitialLow`.
    case initialLow = 1
    /// `HKCategoryValueAppleWalkingSteadinessEventInitialVeryLow`.
    case initialVeryLow = 2
    /// `HKCategoryValueAppleWalkingSteadinessEventRepeatLow`.
    case repeatLow = 3
    /// `HKCategoryValueAppleWalkingSteadinessEventRepeatVeryLow`.
    case repeatVeryLow = 4
}

/// `HKCategoryValueAudioExposureEvent…` constants.
public enum HKCategoryValueAudioExposureEvent: Int, Sendable, CaseIterable {
    /// `HKCategoryValueAudioExposureEventLoudEnvironment`.
    case loudEnvironment = 1
}

/// `HKCategoryValueCervicalMucusQuality…` constants.
public enum HKCategoryValueCervicalMucusQuality: Int, Sendable, CaseIterable {
    /// `HKCategoryValueCervicalMucusQualityDry`.
    case dry = 1
    /// `HKCategoryValueCervicalMucusQualitySticky`.
    case sticky = 2
    /// `HKCategoryValueCervicalMucusQualityCreamy`.
    case creamy = 3
    /// `HKCategoryValueCervicalMucusQualityWatery`.
    case watery = 4
    /// `HKCategoryValueCervicalMucusQualityEggWhite`.
    case eggWhite = 5
}

/// `HKCategoryValueContraceptive…` constants.
public enum HKCategoryValueContraceptive: Int, Sendable, CaseIterable {
    /// `HKCategoryValueContraceptiveUnspecified`.
    case unspecified = 1
    /// `HKCategoryValueContraceptiveImplant`.
    case implant = 2
    /// `HKCategoryValueContraceptiveInjection`.
    case injection = 3
    /// `HKCategoryValueContraceptiveIntrauterineDevice`.
    case intrauterineDevice = 4
    /// `HKCategoryValueContraceptiveIntravaginalRing`.
    case intravaginalRing = 5
    /// `HKCategoryValueContraceptiveOral`.
    case oral = 6
    /// `HKCategoryValueContraceptivePatch`.
    case patch = 7
}

/// `HKCategoryValueEnvironmentalAudioExposureEvent…` constants.
public enum HKCategoryValueEnvironmentalAudioExposureEvent: Int, Sendable, CaseIterable {
    /// `HKCategoryValueEnvironmentalAudioExposureEventMomentaryLimit`.
    case momentaryLimit = 1
}

/// `HKCategoryValueHeadphoneAudioExposureEvent…` constants.
public enum HKCategoryValueHeadphoneAudioExposureEvent: Int, Sendable, CaseIterable {
    /// `HKCategoryValueHeadphoneAudioExposureEventSevenDayLimit`.
    case sevenDayLimit = 1
}

/// `HKCategoryValueLowCardioFitnessEvent…` constants.
public enum HKCategoryValueLowCardioFitnessEvent: Int, Sendable, CaseIterable {
    /// `HKCategoryValueLowCardioFitnessEventLowFitness`.
    case lowFitness = 1
}

/// `HKCategoryValueMenstrualFlow…` constants.
public enum HKCategoryValueMenstrualFlow: Int, Sendable, CaseIterable {
    /// `HKCategoryValueMenstrualFlowUnspecified`.
    case unspecified = 1
    /// `HKCategoryValueMenstrualFlowLight`.
    case light = 2
    /// `HKCategoryValueMenstrualFlowMedium`.
    case medium = 3
    /// `HKCategoryValueMenstrualFlowHeavy`.
    case heavy = 4
    /// `HKCategoryValueMenstrualFlowNone`.
    case none = 5
}

/// `HKCategoryValueOvulationTestResult…` constants.
public enum HKCategoryValueOvulationTestResult: Int, Sendable, CaseIterable {
    /// `HKCategoryValueOvulationTestResultNegative`.
    case negative = 1
    /// `HKCategoryValueOvulationTestResultLuteinizingHormoneSurge`.
    case luteinizingHormoneSurge = 2
    /// `HKCategoryValueOvulationTestResultIndeterminate`.
    case indeterminate = 3
    /// `HKCategoryValueOvulationTestResultEstrogenSurge`.
    case estrogenSurge = 4
    /// `HKCategoryValueOvulationTestResultPositive`, the same value as ``luteinizingHormoneSurge``.
    public static var positive: HKCategoryValueOvulationTestResult { .luteinizingHormoneSurge }
}

/// `HKCategoryValuePregnancyTestResult…` constants.
public enum HKCategoryValuePregnancyTestResult: Int, Sendable, CaseIterable {
    /// `HKCategoryValuePregnancyTestResultNegative`.
    case negative = 1
    /// `HKCategoryValuePregnancyTestResultPositive`.
    case positive = 2
    /// `HKCategoryValuePregnancyTestResultIndeterminate`.
    case indeterminate = 3
}

/// `HKCategoryValuePresence…` constants.
public enum HKCategoryValuePresence: Int, Sendable, CaseIterable {
    /// `HKCategoryValuePresencePresent`.
    case present = 0
    /// `HKCategoryValuePresenceNotPresent`.
    case notPresent = 1
}

/// `HKCategoryValueProgesteroneTestResult…` constants.
public enum HKCategoryValueProgesteroneTestResult: Int, Sendable, CaseIterable {
    /// `HKCategoryValueProgesteroneTestResultNegative`.
    case negative = 1
    /// `HKCategoryValueProgesteroneTestResultPositive`.
    case positive = 2
    /// `HKCategoryValueProgesteroneTestResultIndeterminate`.
    case indeterminate = 3
}

/// `HKCategoryValueSeverity…` constants.
public enum HKCategoryValueSeverity: Int, Sendable, CaseIterable {
    /// `HKCategoryValueSeverityUnspecified`.
    case unspecified = 0
    /// `HKCategoryValueSeverityNotPresent`.
    case notPresent = 1
    /// `HKCategoryValueSeverityMild`.
    case mild = 2
    /// `HKCategoryValueSeverityModerate`.
    case moderate = 3
    /// `HKCategoryValueSeveritySevere`.
    case severe = 4
}

/// `HKCategoryValueSleepAnalysis…` constants.
public enum HKCategoryValueSleepAnalysis: Int, Sendable, CaseIterable {
    /// `HKCategoryValueSleepAnalysisInBed`.
    case inBed = 0
    /// `HKCategoryValueSleepAnalysisAsleepUnspecified`.
    case asleepUnspecified = 1
    /// `HKCategoryValueSleepAnalysisAwake`.
    case awake = 2
    /// `HKCategoryValueSleepAnalysisAsleepCore`.
    case asleepCore = 3
    /// `HKCategoryValueSleepAnalysisAsleepDeep`.
    case asleepDeep = 4
    /// `HKCategoryValueSleepAnalysisAsleepREM`.
    case asleepREM = 5
    /// `HKCategoryValueSleepAnalysisAsleep`, the same value as ``asleepUnspecified``.
    public static var asleep: HKCategoryValueSleepAnalysis { .asleepUnspecified }
}

/// `HKWorkoutActivityType…` constants.
public enum HKWorkoutActivityType: UInt, Sendable, CaseIterable {
    /// `HKWorkoutActivityTypeAmericanFootball`.
    case americanFootball = 1
    /// `HKWorkoutActivityTypeArchery`.
    case archery = 2
    /// `HKWorkoutActivityTypeAustralianFootball`.
    case australianFootball = 3
    /// `HKWorkoutActivityTypeBadminton`.
    case badminton = 4
    /// `HKWorkoutActivityTypeBaseball`.
    case baseball = 5
    /// `HKWorkoutActivityTypeBasketball`.
    case basketball = 6
    /// `HKWorkoutActivityTypeBowling`.
    case bowling = 7
    /// `HKWorkoutActivityTypeBoxing`.
    case boxing = 8
    /// `HKWorkoutActivityTypeClimbing`.
    case climbing = 9
    /// `HKWorkoutActivityTypeCricket`.
    case cricket = 10
    /// `HKWorkoutActivityTypeCrossTraining`.
    case crossTraining = 11
    /// `HKWorkoutActivityTypeCurling`.
    case curling = 12
    /// `HKWorkoutActivityTypeCycling`.
    case cycling = 13
    /// `HKWorkoutActivityTypeDance`.
    case dance = 14
    /// `HKWorkoutActivityTypeDanceInspiredTraining`.
    case danceInspiredTraining = 15
    /// `HKWorkoutActivityTypeElliptical`.
    case elliptical = 16
    /// `HKWorkoutActivityTypeEquestrianSports`.
    case equestrianSports = 17
    /// `HKWorkoutActivityTypeFencing`.
    case fencing = 18
    /// `HKWorkoutActivityTypeFishing`.
    case fishing = 19
    /// `HKWorkoutActivityTypeFunctionalStrengthTraining`.
    case functionalStrengthTraining = 20
    /// `HKWorkoutActivityTypeGolf`.
    case golf = 21
    /// `HKWorkoutActivityTypeGymnastics`.
    case gymnastics = 22
    /// `HKWorkoutActivityTypeHandball`.
    case handball = 23
    /// `HKWorkoutActivityTypeHiking`.
    case hiking = 24
    /// `HKWorkoutActivityTypeHockey`.
    case hockey = 25
    /// `HKWorkoutActivityTypeHunting`.
    case hunting = 26
    /// `HKWorkoutActivityTypeLacrosse`.
    case lacrosse = 27
    /// `HKWorkoutActivityTypeMartialArts`.
    case martialArts = 28
    /// `HKWorkoutActivityTypeMindAndBody`.
    case mindAndBody = 29
    /// `HKWorkoutActivityTypeMixedMetabolicCardioTraining`.
    case mixedMetabolicCardioTraining = 30
    /// `HKWorkoutActivityTypePaddleSports`.
    case paddleSports = 31
    /// `HKWorkoutActivityTypePlay`.
    case play = 32
    /// `HKWorkoutActivityTypePreparationAndRecovery`.
    case preparationAndRecovery = 33
    /// `HKWorkoutActivityTypeRacquetball`.
    case racquetball = 34
    /// `HKWorkoutActivityTypeRowing`.
    case rowing = 35
    /// `HKWorkoutActivityTypeRugby`.
    case rugby = 36
    /// `HKWorkoutActivityTypeRunning`.
    case running = 37
    /// `HKWorkoutActivityTypeSailing`.
    case sailing = 38
    /// `HKWorkoutActivityTypeSkatingSports`.
    case skatingSports = 39
    /// `HKWorkoutActivityTypeSnowSports`.
    case snowSports = 40
    /// `HKWorkoutActivityTypeSoccer`.
    case soccer = 41
    /// `HKWorkoutActivityTypeSoftball`.
    case softball = 42
    /// `HKWorkoutActivityTypeSquash`.
    case squash = 43
    /// `HKWorkoutActivityTypeStairClimbing`.
    case stairClimbing = 44
    /// `HKWorkoutActivityTypeSurfingSports`.
    case surfingSports = 45
    /// `HKWorkoutActivityTypeSwimming`.
    case swimming = 46
    /// `HKWorkoutActivityTypeTableTennis`.
    case tableTennis = 47
    /// `HKWorkoutActivityTypeTennis`.
    case tennis = 48
    /// `HKWorkoutActivityTypeTrackAndField`.
    case trackAndField = 49
    /// `HKWorkoutActivityTypeTraditionalStrengthTraining`.
    case traditionalStrengthTraining = 50
    /// `HKWorkoutActivityTypeVolleyball`.
    case volleyball = 51
    /// `HKWorkoutActivityTypeWalking`.
    case walking = 52
    /// `HKWorkoutActivityTypeWaterFitness`.
    case waterFitness = 53
    /// `HKWorkoutActivityTypeWaterPolo`.
    case waterPolo = 54
    /// `HKWorkoutActivityTypeWaterSports`.
    case waterSports = 55
    /// `HKWorkoutActivityTypeWrestling`.
    case wrestling = 56
    /// `HKWorkoutActivityTypeYoga`.
    case yoga = 57
    /// `HKWorkoutActivityTypeBarre`.
    case barre = 58
    /// `HKWorkoutActivityTypeCoreTraining`.
    case coreTraining = 59
    /// `HKWorkoutActivityTypeCrossCountrySkiing`.
    case crossCountrySkiing = 60
    /// `HKWorkoutActivityTypeDownhillSkiing`.
    case downhillSkiing = 61
    /// `HKWorkoutActivityTypeFlexibility`.
    case flexibility = 62
    /// `HKWorkoutActivityTypeHighIntensityIntervalTraining`.
    case highIntensityIntervalTraining = 63
    /// `HKWorkoutActivityTypeJumpRope`.
    case jumpRope = 64
    /// `HKWorkoutActivityTypeKickboxing`.
    case kickboxing = 65
    /// `HKWorkoutActivityTypePilates`.
    case pilates = 66
    /// `HKWorkoutActivityTypeSnowboarding`.
    case snowboarding = 67
    /// `HKWorkoutActivityTypeStairs`.
    case stairs = 68
    /// `HKWorkoutActivityTypeStepTraining`.
    case stepTraining = 69
    /// `HKWorkoutActivityTypeWheelchairWalkPace`.
    case wheelchairWalkPace = 70
    /// `HKWorkoutActivityTypeWheelchairRunPace`.
    case wheelchairRunPace = 71
    /// `HKWorkoutActivityTypeTaiChi`.
    case taiChi = 72
    /// `HKWorkoutActivityTypeMixedCardio`.
    case mixedCardio = 73
    /// `HKWorkoutActivityTypeHandCycling`.
    case handCycling = 74
    /// `HKWorkoutActivityTypeDiscSports`.
    case discSports = 75
    /// `HKWorkoutActivityTypeFitnessGaming`.
    case fitnessGaming = 76
    /// `HKWorkoutActivityTypeCardioDance`.
    case cardioDance = 77
    /// `HKWorkoutActivityTypeSocialDance`.
    case socialDance = 78
    /// `HKWorkoutActivityTypePickleball`.
    case pickleball = 79
    /// `HKWorkoutActivityTypeCooldown`.
    case cooldown = 80
    /// `HKWorkoutActivityTypeSwimBikeRun`.
    case swimBikeRun = 82
    /// `HKWorkoutActivityTypeTransition`.
    case transition = 83
    /// `HKWorkoutActivityTypeUnderwaterDiving`.
    case underwaterDiving = 84
    /// `HKWorkoutActivityTypeOther`.
    case other = 3000
}

extension HKWorkoutActivityType {
    /// The activity types by name after `HKWorkoutActivityType`.
    static let byName: [String: HKWorkoutActivityType] = [
        "AmericanFootball": .americanFootball,
        "Archery": .archery,
        "AustralianFootball": .australianFootball,
        "Badminton": .badminton,
        "Baseball": .baseball,
        "Basketball": .basketball,
        "Bowling": .bowling,
        "Boxing": .boxing,
        "Climbing": .climbing,
        "Cricket": .cricket,
        "CrossTraining": .crossTraining,
        "Curling": .curling,
        "Cycling": .cycling,
        "Dance": .dance,
        "DanceInspiredTraining": .danceInspiredTraining,
        "Elliptical": .elliptical,
        "EquestrianSports": .equestrianSports,
        "Fencing": .fencing,
        "Fishing": .fishing,
        "FunctionalStrengthTraining": .functionalStrengthTraining,
        "Golf": .golf,
        "Gymnastics": .gymnastics,
        "Handball": .handball,
        "Hiking": .hiking,
        "Hockey": .hockey,
        "Hunting": .hunting,
        "Lacrosse": .lacrosse,
        "MartialArts": .martialArts,
        "MindAndBody": .mindAndBody,
        "MixedMetabolicCardioTraining": .mixedMetabolicCardioTraining,
        "PaddleSports": .paddleSports,
        "Play": .play,
        "PreparationAndRecovery": .preparationAndRecovery,
        "Racquetball": .racquetball,
        "Rowing": .rowing,
        "Rugby": .rugby,
        "Running": .running,
        "Sailing": .sailing,
        "SkatingSports": .skatingSports,
        "SnowSports": .snowSports,
        "Soccer": .soccer,
        "Softball": .softball,
        "Squash": .squash,
        "StairClimbing": .stairClimbing,
        "SurfingSports": .surfingSports,
        "Swimming": .swimming,
        "TableTennis": .tableTennis,
        "Tennis": .tennis,
        "TrackAndField": .trackAndField,
        "TraditionalStrengthTraining": .traditionalStrengthTraining,
        "Volleyball": .volleyball,
        "Walking": .walking,
        "WaterFitness": .waterFitness,
        "WaterPolo": .waterPolo,
        "WaterSports": .waterSports,
        "Wrestling": .wrestling,
        "Yoga": .yoga,
        "Barre": .barre,
        "CoreTraining": .coreTraining,
        "CrossCountrySkiing": .crossCountrySkiing,
        "DownhillSkiing": .downhillSkiing,
        "Flexibility": .flexibility,
        "HighIntensityIntervalTraining": .highIntensityIntervalTraining,
        "JumpRope": .jumpRope,
        "Kickboxing": .kickboxing,
        "Pilates": .pilates,
        "Snowboarding": .snowboarding,
        "Stairs": .stairs,
        "StepTraining": .stepTraining,
        "WheelchairWalkPace": .wheelchairWalkPace,
        "WheelchairRunPace": .wheelchairRunPace,
        "TaiChi": .taiChi,
        "MixedCardio": .mixedCardio,
        "HandCycling": .handCycling,
        "DiscSports": .discSports,
        "FitnessGaming": .fitnessGaming,
        "CardioDance": .cardioDance,
        "SocialDance": .socialDance,
        "Pickleball": .pickleball,
        "Cooldown": .cooldown,
        "SwimBikeRun": .swimBikeRun,
        "Transition": .transition,
        "UnderwaterDiving": .underwaterDiving,
        "Other": .other,
    ]

    /// The name after `HKWorkoutActivityType` of each activity type.
    static let names: [HKWorkoutActivityType: String] = Dictionary(uniqueKeysWithValues: byName.map { ($0.value, $0.key) })
}

/// The metadata key `HKMetadataKeyActivityType`.
public let HKMetadataKeyActivityType = "HKMetadataKeyActivityType"
/// The metadata key `HKMetadataKeyAlgorithmVersion`.
public let HKMetadataKeyAlgorithmVersion = "HKMetadataKeyAlgorithmVersion"
/// The metadata key `HKAlpineSlopeGrade`.
public let HKMetadataKeyAlpineSlopeGrade = "HKAlpineSlopeGrade"
/// The metadata key `HKMetadataKeyAppleDeviceCalibrated`.
public let HKMetadataKeyAppleDeviceCalibrated = "HKMetadataKeyAppleDeviceCalibrated"
/// The metadata key `HKMetadataKeyAppleECGAlgorithmVersion`.
public let HKMetadataKeyAppleECGAlgorithmVersion = "HKMetadataKeyAppleECGAlgorithmVersion"
/// The metadata key `HKMetadataKeyAudioExposureDuration`.
public let HKMetadataKeyAudioExposureDuration = "HKMetadataKeyAudioExposureDuration"
/// The metadata key `HKMetadataKeyAudioExposureLevel`.
public let HKMetadataKeyAudioExposureLevel = "HKMetadataKeyAudioExposureLevel"
/// The metadata key `HKAverageMETs`.
public let HKMetadataKeyAverageMETs = "HKAverageMETs"
/// The metadata key `HKAverageSpeed`.
public let HKMetadataKeyAverageSpeed = "HKAverageSpeed"
/// The metadata key `HKMetadataKeyBarometricPressure`.
public let HKMetadataKeyBarometricPressure = "HKMetadataKeyBarometricPressure"
/// The metadata key `HKBloodGlucoseMealTime`.
public let HKMetadataKeyBloodGlucoseMealTime = "HKBloodGlucoseMealTime"
/// The metadata key `HKBodyTemperatureSensorLocation`.
public let HKMetadataKeyBodyTemperatureSensorLocation = "HKBodyTemperatureSensorLocation"
/// The metadata key `HKCoachedWorkout`.
public let HKMetadataKeyCoachedWorkout = "HKCoachedWorkout"
/// The metadata key `HKCrossTrainerDistance`.
public let HKMetadataKeyCrossTrainerDistance = "HKCrossTrainerDistance"
/// The metadata key `HKMetadataKeyCyclingFunctionalThresholdPowerTestType`.
public let HKMetadataKeyCyclingFunctionalThresholdPowerTestType = "HKMetadataKeyCyclingFunctionalThresholdPowerTestType"
/// The metadata key `HKMetadataKeyDateOfEarliestDataUsedForEstimate`.
public let HKMetadataKeyDateOfEarliestDataUsedForEstimate = "HKMetadataKeyDateOfEarliestDataUsedForEstimate"
/// The metadata key `HKDeviceManufacturerName`.
public let HKMetadataKeyDeviceManufacturerName = "HKDeviceManufacturerName"
/// The metadata key `HKDeviceName`.
public let HKMetadataKeyDeviceName = "HKDeviceName"
/// The metadata key `HKMetadataKeyDevicePlacementSide`.
public let HKMetadataKeyDevicePlacementSide = "HKMetadataKeyDevicePlacementSide"
/// The metadata key `HKDeviceSerialNumber`.
public let HKMetadataKeyDeviceSerialNumber = "HKDeviceSerialNumber"
/// The metadata key `HKDigitalSignature`.
public let HKMetadataKeyDigitalSignature = "HKDigitalSignature"
/// The metadata key `HKElevationAscended`.
public let HKMetadataKeyElevationAscended = "HKElevationAscended"
/// The metadata key `HKElevationDescended`.
public let HKMetadataKeyElevationDescended = "HKElevationDescended"
/// The metadata key `HKExternalUUID`.
public let HKMetadataKeyExternalUUID = "HKExternalUUID"
/// The metadata key `HKFitnessMachineDuration`.
public let HKMetadataKeyFitnessMachineDuration = "HKFitnessMachineDuration"
/// The metadata key `HKFoodType`.
public let HKMetadataKeyFoodType = "HKFoodType"
/// The metadata key `HKMetadataKeyGlassesPrescriptionDescription`.
public let HKMetadataKeyGlassesPrescriptionDescription = "HKMetadataKeyGlassesPrescriptionDescription"
/// The metadata key `HKGroupFitness`.
public let HKMetadataKeyGroupFitness = "HKGroupFitness"
/// The metadata key `HKMetadataKeyHeadphoneGain`.
public let HKMetadataKeyHeadphoneGain = "HKMetadataKeyHeadphoneGain"
/// The metadata key `HKHeartRateEventThreshold`.
public let HKMetadataKeyHeartRateEventThreshold = "HKHeartRateEventThreshold"
/// The metadata key `HKMetadataKeyHeartRateMotionContext`.
public let HKMetadataKeyHeartRateMotionContext = "HKMetadataKeyHeartRateMotionContext"
/// The metadata key `HKMetadataKeyHeartRateRecoveryActivityDuration`.
public let HKMetadataKeyHeartRateRecoveryActivityDuration = "HKMetadataKeyHeartRateRecoveryActivityDuration"
/// The metadata key `HKMetadataKeyHeartRateRecoveryActivityType`.
public let HKMetadataKeyHeartRateRecoveryActivityType = "HKMetadataKeyHeartRateRecoveryActivityType"
/// The metadata key `HKMetadataKeyHeartRateRecoveryMaxObservedRecoveryHeartRate`.
public let HKMetadataKeyHeartRateRecoveryMaxObservedRecoveryHeartRate = "HKMetadataKeyHeartRateRecoveryMaxObservedRecoveryHeartRate"
/// The metadata key `HKMetadataKeyHeartRateRecoveryTestType`.
public let HKMetadataKeyHeartRateRecoveryTestType = "HKMetadataKeyHeartRateRecoveryTestType"
/// The metadata key `HKHeartRateSensorLocation`.
public let HKMetadataKeyHeartRateSensorLocation = "HKHeartRateSensorLocation"
/// The metadata key `HKIndoorBikeDistance`.
public let HKMetadataKeyIndoorBikeDistance = "HKIndoorBikeDistance"
/// The metadata key `HKIndoorWorkout`.
public let HKMetadataKeyIndoorWorkout = "HKIndoorWorkout"
/// The metadata key `HKInsulinDeliveryReason`.
public let HKMetadataKeyInsulinDeliveryReason = "HKInsulinDeliveryReason"
/// The metadata key `HKLapLength`.
public let HKMetadataKeyLapLength = "HKLapLength"
/// The metadata key `HKMetadataKeyLowCardioFitnessEventThreshold`.
public let HKMetadataKeyLowCardioFitnessEventThreshold = "HKMetadataKeyLowCardioFitnessEventThreshold"
/// The metadata key `HKMetadataKeyMaximumLightIntensity`.
public let HKMetadataKeyMaximumLightIntensity = "HKMetadataKeyMaximumLightIntensity"
/// The metadata key `HKMaximumSpeed`.
public let HKMetadataKeyMaximumSpeed = "HKMaximumSpeed"
/// The metadata key `HKMenstrualCycleStart`.
public let HKMetadataKeyMenstrualCycleStart = "HKMenstrualCycleStart"
/// The metadata key `HKMetadataKeyPhysicalEffortEstimationType`.
public let HKMetadataKeyPhysicalEffortEstimationType = "HKMetadataKeyPhysicalEffortEstimationType"
/// The metadata key `HKMetadataKeyQuantityClampedToLowerBound`.
public let HKMetadataKeyQuantityClampedToLowerBound = "HKMetadataKeyQuantityClampedToLowerBound"
/// The metadata key `HKMetadataKeyQuantityClampedToUpperBound`.
public let HKMetadataKeyQuantityClampedToUpperBound = "HKMetadataKeyQuantityClampedToUpperBound"
/// The metadata key `HKReferenceRangeLowerLimit`.
public let HKMetadataKeyReferenceRangeLowerLimit = "HKReferenceRangeLowerLimit"
/// The metadata key `HKReferenceRangeUpperLimit`.
public let HKMetadataKeyReferenceRangeUpperLimit = "HKReferenceRangeUpperLimit"
/// The metadata key `HKMetadataKeySessionEstimate`.
public let HKMetadataKeySessionEstimate = "HKMetadataKeySessionEstimate"
/// The metadata key `HKSexualActivityProtectionUsed`.
public let HKMetadataKeySexualActivityProtectionUsed = "HKSexualActivityProtectionUsed"
/// The metadata key `HKSwimmingLocationType`.
public let HKMetadataKeySwimmingLocationType = "HKSwimmingLocationType"
/// The metadata key `HKSwimmingStrokeStyle`.
public let HKMetadataKeySwimmingStrokeStyle = "HKSwimmingStrokeStyle"
/// The metadata key `HKMetadataKeySyncIdentifier`.
public let HKMetadataKeySyncIdentifier = "HKMetadataKeySyncIdentifier"
/// The metadata key `HKMetadataKeySyncVersion`.
public let HKMetadataKeySyncVersion = "HKMetadataKeySyncVersion"
/// The metadata key `HKTimeZone`.
public let HKMetadataKeyTimeZone = "HKTimeZone"
/// The metadata key `HKUDIDeviceIdentifier`.
public let HKMetadataKeyUDIDeviceIdentifier = "HKUDIDeviceIdentifier"
/// The metadata key `HKUDIProductionIdentifier`.
public let HKMetadataKeyUDIProductionIdentifier = "HKUDIProductionIdentifier"
/// The metadata key `HKMetadataKeyUserMotionContext`.
public let HKMetadataKeyUserMotionContext = "HKMetadataKeyUserMotionContext"
/// The metadata key `HKVO2MaxTestType`.
public let HKMetadataKeyVO2MaxTestType = "HKVO2MaxTestType"
/// The metadata key `HKMetadataKeyVO2MaxValue`.
public let HKMetadataKeyVO2MaxValue = "HKMetadataKeyVO2MaxValue"
/// The metadata key `HKWasTakenInLab`.
public let HKMetadataKeyWasTakenInLab = "HKWasTakenInLab"
/// The metadata key `HKWasUserEntered`.
public let HKMetadataKeyWasUserEntered = "HKWasUserEntered"
/// The metadata key `HKMetadataKeyWaterSalinity`.
public let HKMetadataKeyWaterSalinity = "HKMetadataKeyWaterSalinity"
/// The metadata key `HKWeatherCondition`.
public let HKMetadataKeyWeatherCondition = "HKWeatherCondition"
/// The metadata key `HKWeatherHumidity`.
public let HKMetadataKeyWeatherHumidity = "HKWeatherHumidity"
/// The metadata key `HKWeatherTemperature`.
public let HKMetadataKeyWeatherTemperature = "HKWeatherTemperature"
/// The metadata key `HKWorkoutBrandName`.
public let HKMetadataKeyWorkoutBrandName = "HKWorkoutBrandName"
#endif

/// HealthKit's metadata keys: each `HKMetadataKey…` constant's name after that prefix and
/// the string it stands for, which is the key Apple's exports write (older keys are
/// `HK` and the name, `HKTimeZone`; newer ones keep the whole constant name).
enum MetadataKeyTable {
    /// Name after `HKMetadataKey`, and the key's string.
    static let entries: [(String, String)] =
        [
            "DeviceSerialNumber", "BodyTemperatureSensorLocation", "HeartRateSensorLocation", "UDIDeviceIdentifier",
            "UDIProductionIdentifier", "DigitalSignature", "ExternalUUID", "TimeZone", "DeviceName", "DeviceManufacturerName",
            "WasTakenInLab", "ReferenceRangeLowerLimit", "ReferenceRangeUpperLimit", "WasUserEntered", "WorkoutBrandName",
            "GroupFitness", "IndoorWorkout", "CoachedWorkout", "WeatherCondition", "WeatherTemperature", "WeatherHumidity",
            "SexualActivityProtectionUsed", "MenstrualCycleStart", "LapLength", "SwimmingLocationType", "SwimmingStrokeStyle",
            "InsulinDeliveryReason", "BloodGlucoseMealTime", "VO2MaxTestType", "AverageSpeed", "MaximumSpeed", "AlpineSlopeGrade",
            "ElevationAscended", "ElevationDescended", "FitnessMachineDuration", "IndoorBikeDistance", "CrossTrainerDistance",
            "HeartRateEventThreshold", "AverageMETs", "FoodType",
        ].map { ($0, "HK" + $0)
        }
        + [
            "SyncIdentifier", "SyncVersion", "HeartRateMotionContext", "AudioExposureLevel", "AudioExposureDuration",
            "DevicePlacementSide", "BarometricPressure", "AppleDeviceCalibrated", "VO2MaxValue", "LowCardioFitnessEventThreshold",
            "DateOfEarliestDataUsedForEstimate", "AlgorithmVersion", "QuantityClampedToLowerBound", "QuantityClampedToUpperBound",
            "GlassesPrescriptionDescription", "HeadphoneGain", "AppleECGAlgorithmVersion", "ActivityType", "PhysicalEffortEstimationType",
            "MaximumLightIntensity", "WaterSalinity", "CyclingFunctionalThresholdPowerTestType", "SessionEstimate", "UserMotionContext",
            "HeartRateRecoveryTestType", "HeartRateRecoveryActivityType", "HeartRateRecoveryActivityDuration",
            "HeartRateRecoveryMaxObservedRecoveryHeartRate",
        ].map { ($0, "HKMetadataKey" + $0) }
}

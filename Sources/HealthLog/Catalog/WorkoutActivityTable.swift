/// HealthKit's workout activity types (`HKWorkoutActivityType…`): each name after that
/// prefix with the integer HealthKit gives it.
enum WorkoutActivityTable {
    /// Name after `HKWorkoutActivityType`, and its integer.
    static let entries: [(String, Int)] =
        [
            "AmericanFootball", "Archery", "AustralianFootball", "Badminton", "Baseball", "Basketball", "Bowling", "Boxing", "Climbing",
            "Cricket", "CrossTraining", "Curling", "Cycling", "Dance", "DanceInspiredTraining", "Elliptical", "EquestrianSports",
            "Fencing", "Fishing", "FunctionalStrengthTraining", "Golf", "Gymnastics", "Handball", "Hiking", "Hockey", "Hunting",
            "Lacrosse", "MartialArts", "MindAndBody", "MixedMetabolicCardioTraining", "PaddleSports", "Play",
            "PreparationAndRecovery", "Racquetball", "Rowing", "Rugby", "Running", "Sailing", "SkatingSports", "SnowSports", "Soccer",
            "Softball", "Squash", "StairClimbing", "SurfingSports", "Swimming", "TableTennis", "Tennis", "TrackAndField",
            "TraditionalStrengthTraining", "Volleyball", "Walking", "WaterFitness", "WaterPolo", "WaterSports", "Wrestling", "Yoga",
            "Barre", "CoreTraining", "CrossCountrySkiing", "DownhillSkiing", "Flexibility", "HighIntensityIntervalTraining", "JumpRope",
            "Kickboxing", "Pilates", "Snowboarding", "Stairs", "StepTraining", "WheelchairWalkPace", "WheelchairRunPace", "TaiChi",
            "MixedCardio", "HandCycling", "DiscSports", "FitnessGaming", "CardioDance", "SocialDance", "Pickleball", "Cooldown",
        ].enumerated().map { ($0.element, $0.offset + 1) }
        + [("SwimBikeRun", 82), ("Transition", 83), ("UnderwaterDiving", 84), ("Other", 3000)]
}

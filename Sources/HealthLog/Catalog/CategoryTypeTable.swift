/// HealthKit's category types and the values each takes (a table: see ``CategoryValueSet``).
enum CategoryTypeTable {
    private static let notApplicable = CategoryValueSet(prefix: "HKCategoryValue", values: [("NotApplicable", 0)])
    private static let severity = CategoryValueSet(
        prefix: "HKCategoryValueSeverity", values: [("Unspecified", 0), ("NotPresent", 1), ("Mild", 2), ("Moderate", 3), ("Severe", 4)])
    private static let presence = CategoryValueSet(prefix: "HKCategoryValuePresence", values: [("Present", 0), ("NotPresent", 1)])
    /// The values of a test result type (`Pregnancy`, `Progesterone`).
    private static func testResult(_ type: String) -> CategoryValueSet {
        CategoryValueSet(prefix: "HKCategoryValue\(type)TestResult", values: [("Negative", 1), ("Positive", 2), ("Indeterminate", 3)])
    }

    /// The category types by short name, with their values.
    static let sets: [String: CategoryValueSet] = {
        var sets: [String: CategoryValueSet] = [
            "SleepAnalysis": CategoryValueSet(
                prefix: "HKCategoryValueSleepAnalysis",
                values: [("InBed", 0), ("AsleepUnspecified", 1), ("Asleep", 1), ("Awake", 2), ("AsleepCore", 3), ("AsleepDeep", 4), ("AsleepREM", 5)]),
            "AppleStandHour": CategoryValueSet(prefix: "HKCategoryValueAppleStandHour", values: [("Stood", 0), ("Idle", 1)]),
            "CervicalMucusQuality": CategoryValueSet(
                prefix: "HKCategoryValueCervicalMucusQuality", values: [("Dry", 1), ("Sticky", 2), ("Creamy", 3), ("Watery", 4), ("EggWhite", 5)]),
            "MenstrualFlow": CategoryValueSet(
                prefix: "HKCategoryValueMenstrualFlow", values: [("Unspecified", 1), ("Light", 2), ("Medium", 3), ("Heavy", 4), ("None", 5)]),
            "OvulationTestResult": CategoryValueSet(
                prefix: "HKCategoryValueOvulationTestResult",
                values: [("Negative", 1), ("LuteinizingHormoneSurge", 2), ("Positive", 2), ("Indeterminate", 3), ("EstrogenSurge", 4)]),
            "PregnancyTestResult": testResult("Pregnancy"),
            "ProgesteroneTestResult": testResult("Progesterone"),
            "Contraceptive": CategoryValueSet(
                prefix: "HKCategoryValueContraceptive",
                values: [("Unspecified", 1), ("Implant", 2), ("Injection", 3), ("IntrauterineDevice", 4), ("IntravaginalRing", 5), ("Oral", 6), ("Patch", 7)]),
            "AppetiteChanges": CategoryValueSet(
                prefix: "HKCategoryValueAppetiteChanges", values: [("Unspecified", 0), ("NoChange", 1), ("Decreased", 2), ("Increased", 3)]),
            "EnvironmentalAudioExposureEvent": CategoryValueSet(prefix: "HKCategoryValueEnvironmentalAudioExposureEvent", values: [("MomentaryLimit", 1)]),
            "HeadphoneAudioExposureEvent": CategoryValueSet(prefix: "HKCategoryValueHeadphoneAudioExposureEvent", values: [("SevenDayLimit", 1)]),
            "AudioExposureEvent": CategoryValueSet(prefix: "HKCategoryValueAudioExposureEvent", values: [("LoudEnvironment", 1)]),
            "LowCardioFitnessEvent": CategoryValueSet(prefix: "HKCategoryValueLowCardioFitnessEvent", values: [("LowFitness", 1)]),
            "AppleWalkingSteadinessEvent": CategoryValueSet(
                prefix: "HKCategoryValueAppleWalkingSteadinessEvent",
                values: [("InitialLow", 1), ("InitialVeryLow", 2), ("RepeatLow", 3), ("RepeatVeryLow", 4)]),
            "MoodChanges": presence,
            "SleepChanges": presence,
        ]
        for name in severityTypes { sets[name] = severity }
        for name in notApplicableTypes { sets[name] = notApplicable }
        return sets
    }()

    /// The symptoms, whose values are severities.
    private static let severityTypes = [
        "AbdominalCramps", "Acne", "BladderIncontinence", "Bloating", "BreastPain", "ChestTightnessOrPain", "Chills", "Constipation",
        "Coughing", "Diarrhea", "Dizziness", "DrySkin", "Fainting", "Fatigue", "Fever", "GeneralizedBodyAche", "HairLoss", "Headache",
        "Heartburn", "HotFlashes", "LossOfSmell", "LossOfTaste", "LowerBackPain", "MemoryLapse", "Nausea", "NightSweats", "PelvicPain",
        "RapidPoundingOrFlutteringHeartbeat", "RunnyNose", "ShortnessOfBreath", "SinusCongestion", "SkippedHeartbeat", "SoreThroat",
        "VaginalDryness", "Vomiting", "Wheezing",
    ]

    /// The types whose only value is `HKCategoryValueNotApplicable`.
    private static let notApplicableTypes = [
        "MindfulSession", "HighHeartRateEvent", "LowHeartRateEvent", "IrregularHeartRhythmEvent", "SexualActivity",
        "IntermenstrualBleeding", "ToothbrushingEvent", "HandwashingEvent", "Lactation", "Pregnancy", "IrregularMenstrualCycles",
        "InfrequentMenstrualCycles", "ProlongedMenstrualPeriods", "PersistentIntermenstrualBleeding", "BleedingDuringPregnancy",
        "BleedingAfterPregnancy", "SleepApneaEvent",
    ]
}

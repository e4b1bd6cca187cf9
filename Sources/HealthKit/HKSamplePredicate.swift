#if !canImport(Darwin)
/// A sample type with a predicate, typed by its samples' class, as HealthKit's
/// `HKSamplePredicate`: `.quantitySample(type: HKQuantityType(.heartRate))`.
public struct HKSamplePredicate<Sample: HKSample>: @unchecked Sendable {
    /// The type.
    public let sampleType: HKSampleType
    /// The predicate; `nil` for every sample of the type.
    public let nsPredicate: NSPredicate?

    init(_ sampleType: HKSampleType, _ predicate: NSPredicate?) {
        self.sampleType = sampleType
        nsPredicate = predicate
    }
}

extension HKSamplePredicate where Sample == HKSample {
    /// Samples of `type`.
    public static func sample(type: HKSampleType, predicate: NSPredicate? = nil) -> HKSamplePredicate<HKSample> { .init(type, predicate) }
}

extension HKSamplePredicate where Sample == HKQuantitySample {
    /// Quantity samples of `type`.
    public static func quantitySample(type: HKQuantityType, predicate: NSPredicate? = nil) -> HKSamplePredicate<HKQuantitySample> {
        .init(type, predicate)
    }
}

extension HKSamplePredicate where Sample == HKCategorySample {
    /// Category samples of `type`.
    public static func categorySample(type: HKCategoryType, predicate: NSPredicate? = nil) -> HKSamplePredicate<HKCategorySample> {
        .init(type, predicate)
    }
}

extension HKSamplePredicate where Sample == HKCorrelation {
    /// Correlations of `type`.
    public static func correlation(type: HKCorrelationType, predicate: NSPredicate? = nil) -> HKSamplePredicate<HKCorrelation> { .init(type, predicate) }
}

extension HKSamplePredicate where Sample == HKWorkout {
    /// Workouts.
    public static func workout(_ predicate: NSPredicate? = nil) -> HKSamplePredicate<HKWorkout> { .init(HKWorkoutType(), predicate) }
}
#endif

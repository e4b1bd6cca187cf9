#if !canImport(Darwin)
internal import HealthLog

/// A workout, as HealthKit's `HKWorkout`: its activity type, duration and totals.
public class HKWorkout: HKSample, @unchecked Sendable {
    /// The activity.
    public let workoutActivityType: HKWorkoutActivityType
    /// The duration in seconds.
    public let duration: TimeInterval
    /// The energy burned, when recorded.
    public let totalEnergyBurned: HKQuantity?
    /// The distance covered, when recorded.
    public let totalDistance: HKQuantity?
    /// The swimming strokes, when recorded.
    public let totalSwimmingStrokeCount: HKQuantity?
    /// The flights climbed, when recorded.
    public let totalFlightsClimbed: HKQuantity?
    /// The activity's name as the store keeps it (`HKWorkoutActivityTypeRunning`).
    private let activityName: String

    /// A new workout.
    public init(
        activityType: HKWorkoutActivityType, start: Date, end: Date, duration: TimeInterval, totalEnergyBurned: HKQuantity?,
        totalDistance: HKQuantity?, device: HKDevice?, metadata: [String: Any]?
    ) {
        workoutActivityType = activityType
        activityName = activityType.storedName
        self.duration = duration
        self.totalEnergyBurned = totalEnergyBurned
        self.totalDistance = totalDistance
        totalSwimmingStrokeCount = nil
        totalFlightsClimbed = nil
        super.init(type: HKWorkoutType(), start: start, end: end, device: device, metadata: metadata)
    }

    /// A new workout, on no device.
    public convenience init(
        activityType: HKWorkoutActivityType, start: Date, end: Date, duration: TimeInterval, totalEnergyBurned: HKQuantity?,
        totalDistance: HKQuantity?, metadata: [String: Any]?
    ) {
        self.init(activityType: activityType, start: start, end: end, duration: duration, totalEnergyBurned: totalEnergyBurned,
                  totalDistance: totalDistance, device: nil, metadata: metadata)
    }

    /// A new workout.
    public convenience init(activityType: HKWorkoutActivityType, start: Date, end: Date) {
        self.init(activityType: activityType, start: start, end: end, duration: end.timeIntervalSince(start), totalEnergyBurned: nil,
                  totalDistance: nil, device: nil, metadata: nil)
    }

    init(_ sample: WorkoutSample) {
        activityName = sample.activity
        workoutActivityType = HKWorkoutActivityType(storedName: sample.activity)
        duration = sample.duration ?? Double(sample.end.microseconds - sample.start.microseconds) / 1_000_000
        func total(_ names: String...) -> HKQuantity? {
            for name in names { if let total = sample.totals[name] { return HKQuantity(unit: HKUnit(from: total.unit), doubleValue: total.value) } }
            return nil
        }
        totalEnergyBurned = total("energy", "HKQuantityTypeIdentifierActiveEnergyBurned")
        totalDistance = total("distance", "HKQuantityTypeIdentifierDistanceWalkingRunning")
        totalSwimmingStrokeCount = total("swimmingStrokes", "HKQuantityTypeIdentifierSwimmingStrokeCount")
        totalFlightsClimbed = total("flightsClimbed", "HKQuantityTypeIdentifierFlightsClimbed")
        super.init(type: HKWorkoutType(), fields: sample.fields)
    }

    override var stored: (any HealthLog.Sample)? {
        var totals: [String: Quantity] = [:]
        if let totalEnergyBurned { totals["energy"] = totalEnergyBurned.stored }
        if let totalDistance { totals["distance"] = totalDistance.stored }
        return WorkoutSample(activity: activityName, duration: duration, totals: totals, fields: fields)
    }
}

extension HKWorkoutActivityType {
    /// The type of a stored name (`HKWorkoutActivityTypeRunning`); ``other`` when unknown.
    init(storedName: String) {
        let short = storedName.hasPrefix("HKWorkoutActivityType") ? String(storedName.dropFirst("HKWorkoutActivityType".count)) : storedName
        self = HKWorkoutActivityType.byName[short] ?? .other
    }

    /// The name a store keeps.
    var storedName: String { "HKWorkoutActivityType" + (HKWorkoutActivityType.names[self] ?? "Other") }
}
#endif

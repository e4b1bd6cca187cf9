/// A workout: HealthKit's `HKWorkout`, with its activity type name, duration and totals.
public struct WorkoutSample: Sample, Hashable {
    /// Always ``SampleType/workout``.
    public var sampleType: SampleType { .workout }
    /// The activity type's name, e.g. `HKWorkoutActivityTypeRunning`.
    public var activity: String
    /// The duration in seconds, when recorded.
    public var duration: Double?
    /// Totals by name, e.g. `"energy": 250 kcal`, `"distance": 5.1 km`.
    public var totals: [String: Quantity]
    /// UUID, dates, source, device and metadata.
    public var fields: SampleFields

    /// A workout.
    public init(activity: String, duration: Double? = nil, totals: [String: Quantity] = [:], fields: SampleFields) {
        self.activity = activity
        self.duration = duration
        self.totals = totals
        self.fields = fields
    }

    /// `,"activity":…,"duration":…,"totals":{…}`.
    var kindSpecificJSON: String {
        var out = #","activity":\#(JSONText.string(activity))"#
        if let duration { out += #","duration":\#(JSONText.number(duration))"# }
        if !totals.isEmpty {
            let members = totals.sorted { $0.key < $1.key }.map { name, total in
                #"\#(JSONText.string(name)):{"value":\#(JSONText.number(total.value)),"unit":\#(JSONText.string(total.unit))}"#
            }
            out += #","totals":{\#(members.joined(separator: ","))}"#
        }
        return out
    }
}

/// A workout route: HealthKit's `HKWorkoutRoute`, a series sample of location points
/// (`HKWorkoutRouteTypeIdentifier`), linked to its workout by the workout's UUID.
public struct WorkoutRouteSample: Sample, Hashable {
    /// The route type, `HKWorkoutRouteTypeIdentifier`.
    public static let type = SampleType("HKWorkoutRouteTypeIdentifier")!
    /// Always ``type``.
    public var sampleType: SampleType { Self.type }
    /// The UUID of the workout the route belongs to, when known.
    public var workout: SampleUUID?
    /// The points, in the order recorded.
    public var locations: [RouteLocation]
    /// UUID, dates, source, device and metadata.
    public var fields: SampleFields

    /// A route of `locations` for `workout`.
    public init(workout: SampleUUID?, locations: [RouteLocation], fields: SampleFields) {
        self.workout = workout
        self.locations = locations
        self.fields = fields
    }

    /// `,"workout":…,"locations":[…]`.
    var kindSpecificJSON: String {
        var out = ""
        if let workout { out += #","workout":"\#(workout)""# }
        return out + #","locations":[\#(locations.map(\.json).joined(separator: ","))]"#
    }
}

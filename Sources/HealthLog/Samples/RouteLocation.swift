/// One point of a workout route: HealthKit's `CLLocation` as `HKWorkoutRouteQuery` gives
/// it, with the time, the coordinates, and what the route recorded of altitude, speed,
/// course and the accuracies.
public struct RouteLocation: Hashable, Sendable {
    /// When the point was recorded.
    public var time: Timestamp
    /// Degrees north.
    public var latitude: Double
    /// Degrees east.
    public var longitude: Double
    /// Metres above sea level.
    public var altitude: Double?
    /// Metres per second.
    public var speed: Double?
    /// Degrees from true north.
    public var course: Double?
    /// The horizontal accuracy in metres.
    public var horizontalAccuracy: Double?
    /// The vertical accuracy in metres.
    public var verticalAccuracy: Double?

    /// A point.
    public init(
        time: Timestamp, latitude: Double, longitude: Double, altitude: Double? = nil, speed: Double? = nil, course: Double? = nil,
        horizontalAccuracy: Double? = nil, verticalAccuracy: Double? = nil
    ) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.speed = speed
        self.course = course
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
    }

    /// The point as the event line's `locations` item: `{"time":…,"lat":…,"lon":…}` and
    /// `alt`, `speed`, `course`, `hAcc`, `vAcc` where recorded.
    package var json: String {
        var out = #"{"time":"\#(time)","lat":\#(JSONText.number(latitude)),"lon":\#(JSONText.number(longitude))"#
        for (key, value) in [("alt", altitude), ("speed", speed), ("course", course), ("hAcc", horizontalAccuracy), ("vAcc", verticalAccuracy)] {
            if let value { out += #","\#(key)":\#(JSONText.number(value))"# }
        }
        return out + "}"
    }
}

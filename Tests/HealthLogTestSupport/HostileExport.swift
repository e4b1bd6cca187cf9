/// The pieces of the hostile exports the import's bound tests make: a record, a workout
/// naming a route file, a route point, and the document around them.
public enum HostileExport {
    /// The XML declaration.
    public static let head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    /// A step-count record's start tag, left open for attributes or children.
    public static let record =
        "<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Phone\" unit=\"count\" creationDate=\"2024-03-01 08:00:00 +0000\" startDate=\"2024-03-01 08:00:00 +0000\" endDate=\"2024-03-01 08:01:00 +0000\" value=\"12\""
    /// A workout whose route is `/workout-routes/route_1.gpx`.
    public static let workout =
        "<Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" duration=\"10\" durationUnit=\"min\" sourceName=\"Watch\" creationDate=\"2024-03-01 09:00:00 +0000\" startDate=\"2024-03-01 08:50:00 +0000\" endDate=\"2024-03-01 09:00:00 +0000\"><WorkoutRoute sourceName=\"Watch\" creationDate=\"2024-03-01 09:00:00 +0000\" startDate=\"2024-03-01 08:50:00 +0000\" endDate=\"2024-03-01 09:00:00 +0000\"><FileReference path=\"/workout-routes/route_1.gpx\"/></WorkoutRoute></Workout>"
    /// One GPX track point inside the workout.
    public static let point = "<trkpt lat=\"1.5\" lon=\"-2.5\"><time>2024-03-01T08:55:00Z</time></trkpt>\n"

    /// An export document: `dtd` (an internal subset's declarations, if any), then the
    /// root with `body`.
    public static func document(_ body: String, dtd: String? = nil) -> [UInt8] {
        let subset = dtd.map { "<!DOCTYPE HealthData [\n\($0)]>\n" } ?? ""
        return Array((head + subset + "<HealthData locale=\"en_US\">\n" + body + "\n</HealthData>\n").utf8)
    }
}

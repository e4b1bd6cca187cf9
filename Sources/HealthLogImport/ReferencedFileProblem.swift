/// A file the export's document names that the import could not read: a workout's route
/// file missing from the zip (or from beside the XML), not GPX, malformed or cut short, or
/// with points left out; a clinical record's FHIR resource missing or too large. The rest
/// of the export imports all the same.
public struct ReferencedFileProblem: Sendable, Equatable, CustomStringConvertible {
    /// The file as the export names it (`/workout-routes/route_….gpx`).
    public var file: String
    /// The line of the element that names it (`WorkoutRoute`, `ClinicalRecord`).
    public var line: Int
    /// What is wrong.
    public var reason: String

    /// Creates a problem.
    public init(file: String, line: Int, reason: String) {
        self.file = file
        self.line = line
        self.reason = reason
    }

    /// `FILE (named at line N): reason`.
    public var description: String { "\(file) (named at line \(line)): \(reason)" }
}

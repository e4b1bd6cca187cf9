/// A file the export's document names that the import could not read: a workout's route
/// file missing from the zip (or from beside the XML), not GPX, malformed or cut short, or
/// with points left out; a clinical record's FHIR resource missing or too large. The rest
/// of the export imports all the same.
public struct ReferencedFileProblem: Sendable, Equatable, CustomStringConvertible {
    /// The file as the export names it (`/workout-routes/route_….gpx`).
    public var file: String
    /// The line of the element that names it (`WorkoutRoute`, `ClinicalRecord`); 65,535
    /// for a line past 65,534 that libxml2's reader did not keep.
    public var line: Int
    /// What is wrong.
    public var reason: String

    /// Creates a problem.
    public init(file: String, line: Int, reason: String) {
        self.file = file
        self.line = line
        self.reason = reason
    }

    /// `FILE (named at line N): reason` (`named past line 65,534` for a line not kept).
    public var description: String { "\(file) (named \(ExportLine.at(line))): \(reason)" }
}

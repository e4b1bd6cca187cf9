/// A file of an export beside its XML document (an electrocardiogram's CSV) that the
/// import could not read; the rest of the export imports all the same.
public struct ExportFileProblem: Sendable, Equatable, CustomStringConvertible {
    /// The file: the zip's entry, or the path beside the XML.
    public var file: String
    /// What is wrong.
    public var reason: String

    /// Creates a problem.
    public init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }

    /// `FILE: reason`.
    public var description: String { "\(file): \(reason)" }
}

/// Something in an export that the import could not map to an event: where it is, which
/// element, and why.
public struct UnmappedItem: Sendable, Equatable, CustomStringConvertible {
    /// The line of the element in the export document; 65,535 for a line past 65,534 that
    /// libxml2's reader did not keep.
    public var line: Int
    /// The element's name (`ClinicalRecord`, `Record`, …).
    public var element: String
    /// Why it was not mapped, or what was kept of it.
    public var reason: String

    /// Creates an item.
    public init(line: Int, element: String, reason: String) {
        self.line = line
        self.element = element
        self.reason = reason
    }

    /// `line N: Element: reason` (`past line 65,534: …` for a line not kept).
    public var description: String { "\(ExportLine.text(line)): \(element): \(reason)" }
}

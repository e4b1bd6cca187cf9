/// Something in an export that the import could not map to an event: where it is, which
/// element, and why.
public struct UnmappedItem: Sendable, Equatable, CustomStringConvertible {
    /// The line of the element in the export document.
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

    /// `line N: Element: reason`.
    public var description: String { "line \(line): \(element): \(reason)" }
}

/// One element of an export document with its attributes and children, built from the
/// stream one top-level element (a `Record`, a `Workout`, …) at a time, so memory holds at
/// most one such element.
struct ExportElement: Sendable {
    /// The tag name.
    var name: String
    /// The attributes, in document order.
    var attributes: [ExportAttribute]
    /// The child elements, in document order (route `Location` points are counted in
    /// ``locationCount`` and kept in ``routePoints`` instead: a route can hold tens of
    /// thousands).
    var children: [ExportElement] = []
    /// How many `Location` children were read.
    var locationCount = 0
    /// A `WorkoutRoute`'s `Location` children, as route points; `nil` until the first one
    /// (every other element goes without, and without allocating its array).
    var routePoints: RoutePoints?
    /// The line of the start tag.
    var line: Int

    /// The value of attribute `name`.
    subscript(name: String) -> String? {
        attributes.first(where: { $0.name.isSameName(name) })?.value
    }

    /// The children named `name`.
    func children(named name: String) -> [ExportElement] {
        children.filter { $0.name.isSameName(name) }
    }
}

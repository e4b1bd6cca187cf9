/// The order in which sources win when statistics merge them (the Health app's "Data
/// Sources & Access" order): the sources a query names, in that order, then by default
/// Apple Watch sources (names holding `Watch`), then iPhone and iPad sources (`iPhone`,
/// `iPad`), then every other source (apps), each group by name. The Health app puts a
/// paired watch above the phone it was set up with and apps below the devices; healthlog
/// cannot see what a source is beyond its name, so the name decides.
package struct SourcePriority: Sendable, Hashable {
    /// The sources named first, highest priority first.
    package var named: [String]

    /// The order with `named` first, then the default.
    package init(_ named: [String] = []) {
        self.named = named
    }

    /// The sort key of `source`: lower wins.
    func key(_ source: String) -> (Int, Int, String) {
        if let index = named.firstIndex(of: source) { return (0, index, "") }
        if source.contains("Watch") { return (1, 0, source) }
        if source.contains("iPhone") || source.contains("iPad") { return (2, 0, source) }
        return (3, 0, source)
    }

    /// `sources` from highest priority to lowest.
    func ordered(_ sources: [String]) -> [String] {
        sources.sorted { key($0) < key($1) }
    }
}

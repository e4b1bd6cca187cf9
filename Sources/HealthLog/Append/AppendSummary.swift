/// What one append did: samples added, deleted, replaced and skipped.
public struct AppendSummary: Sendable, Equatable {
    /// Samples added.
    public var added = 0
    /// Samples deleted by delete lines.
    public var deleted = 0
    /// Samples replaced through their sync identifier (each a delete plus an add in the log).
    public var replaced = 0
    /// Adds skipped because a live sample with the same sync identifier has an equal or
    /// higher sync version.
    public var skipped = 0
    /// Adds of an import skipped because the record is in the store, live
    /// (`HealthStore.importExport(at:options:progress:)` in `HealthLogImport`).
    public var alreadyPresent = 0
    /// Adds of an import skipped because the record was in the store and was deleted: a
    /// UUID is used once, so the sample stays deleted.
    public var deletedEarlier = 0
    /// The head anchor after the append (unchanged when nothing was written).
    public var anchor = QueryAnchor.beginning
    /// The UUID of the last sample added (the `add` command prints it).
    public var lastAdded: SampleUUID?
    /// Notes on what was accepted but is worth knowing, once each: types healthlog does
    /// not know, stored as given.
    public var notes: [String] = []
    /// A torn tail that this append's writer found and cut before writing, if any.
    package var recoveredTail: TornTail?

    /// Nothing done yet: every count 0, the anchor at the beginning (for a caller that
    /// adds up several appends, as an import does).
    package init() {}

    /// The one-line summary the CLI prints on stderr.
    package var text: String {
        "added \(added), deleted \(deleted), replaced \(replaced), skipped \(skipped)"
    }
}

/// How ``HealthLog/HealthStore/importExport(at:options:progress:)`` runs.
public struct ImportOptions: Sendable {
    /// Treat the export as the whole truth about what imports brought in: delete (with
    /// delete events) every live imported sample the export no longer holds. Samples that
    /// did not come from an import are never touched.
    public var mirror = false
    /// Events per append in the writing pass. Each append is all-or-nothing and durable;
    /// the size bounds the writer's memory (about 240 bytes per event).
    public var eventsPerAppend = 50_000

    /// The defaults: no mirroring, 50,000 events per append.
    public init() {}
}

/// Where an import is, for a progress display.
public struct ImportProgress: Sendable {
    /// The stage of the import.
    public enum Phase: String, Sendable {
        /// The export is read, checked and mapped; nothing is written.
        case checking
        /// The checked events are appended.
        case writing
    }

    /// The stage.
    public var phase: Phase
    /// Bytes of the input file consumed (while writing: the share of the checked events
    /// appended, scaled to the input's size).
    public var bytesDone: Int
    /// The input file's size.
    public var bytesTotal: Int
}

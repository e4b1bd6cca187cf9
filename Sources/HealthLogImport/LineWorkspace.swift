import HealthLog

/// What mapping reuses from one record to the next: the SHA-256 context, the line
/// validator with what it has looked up, the buffer the canonical form is rendered into,
/// and the kind of the last type identifier (a million heart rates look it up once). Used
/// by one thread at a time.
final class LineWorkspace {
    /// The content hash, reset per UUID.
    let hash = SHA256()
    /// The checks of each event line.
    var validator = ImportLineValidator()
    /// The days of the dates converted last.
    let days = ExportDays()
    /// The canonical rendering being hashed.
    let canonical = LineSink()
    /// The event line being rendered.
    let line = LineSink()
    /// The device text the last record named, without its address
    /// (``ExportMapper/stableDevice(_:last:)``).
    var lastDevice: String?
    /// The last type identifier looked up, and its kind.
    private var lastKind: (type: String, kind: SampleKind?)?
    /// The store's used UUIDs, when the import looks them up while mapping.
    let usedUUIDs: UsedUUIDs?

    /// A workspace that has looked up nothing yet, looking UUIDs up in `usedUUIDs`.
    init(usedUUIDs: UsedUUIDs? = nil) {
        self.usedUUIDs = usedUUIDs
    }

    /// The kind of `type`, as ``SampleKind/init(typeIdentifier:)`` gives it.
    func kind(of type: String) -> SampleKind? {
        if let last = lastKind, last.type == type { return last.kind }
        let kind = SampleKind(typeIdentifier: type)
        lastKind = (type, kind)
        return kind
    }
}

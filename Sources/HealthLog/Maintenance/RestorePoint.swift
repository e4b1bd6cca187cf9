/// Where a point-in-time restore cuts the backup's log (`restore --to`): only the
/// appends that ended at or before the point come back, never part of one, and everything
/// after it becomes history the new timeline discards (<doc:BackupAndRestore#Undo-a-bad-import-restore-to-a-point-in-time>).
///
/// ```swift
/// // Undo yesterday afternoon's bad import:
/// let point = try RestorePoint(parsing: "2026-11-30T12:00:00Z")
/// try HealthStore(directory: "me.store").restore(from: "/mnt/backup/me", force: true, to: point)
/// ```
public enum RestorePoint: Sendable, Hashable, CustomStringConvertible {
    /// Keep the appends whose last event is at or before the anchor's sequence number: an
    /// append that the anchor falls inside of is dropped whole. `0` keeps nothing.
    case anchor(QueryAnchor)
    /// Keep the appends committed at or before the instant (the append time every batch
    /// header records), up to the first append committed after it.
    case date(Timestamp)

    /// Parses the command line's `--to`: a date (`2026-11-30`, meaning its midnight UTC, or
    /// an ISO 8601 instant), else an anchor token, `0` or a bare sequence number.
    ///
    /// - Throws: ``HealthLogError/Code/anchorRefused`` when `text` is neither.
    package init(parsing text: String) throws {
        if let date = Timestamp(commandLine: text) {
            self = .date(date)
            return
        }
        do {
            self = .anchor(try QueryAnchor(token: text))
        } catch {
            throw HealthLogError(
                .anchorRefused,
                "restore point '\(text.prefix(80))' is malformed: expected an anchor healthlog printed, a sequence number, or a date (2026-11-30 or 2026-11-30T12:00:00Z)")
        }
    }

    /// The point as it was given: the anchor's token or the date's text.
    public var description: String {
        switch self {
        case .anchor(let anchor): anchor.token
        case .date(let date): date.description
        }
    }
}

/// Where `compact` stops: deletes at or before the horizon are dropped with the samples
/// they deleted (<doc:BackupAndRestore#Drop-deleted-history>).
public enum CompactionHorizon: Sendable, Equatable {
    /// Deletes appended before this instant (batch headers record when each append
    /// happened): the horizon is the last event of the longest run of batches, from the
    /// start of the log, appended before it.
    case date(Timestamp)
    /// Deletes at or before this anchor's sequence number (an anchor of this store, or a
    /// bare number, at most the head).
    case anchor(QueryAnchor)
}

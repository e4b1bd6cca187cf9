/// An anchored query over the log: which types, from which anchor, how many
/// items, and whether to see HealthKit's view or the raw log.
package struct ReplayRequest: Sendable {
    /// The position to replay after.
    package var anchor: QueryAnchor
    /// Full type identifiers to return; empty for all types.
    package var types: Set<String>
    /// Which samples and deleted objects to return, beyond their types.
    package var predicate: QueryPredicate
    /// The most samples plus deleted objects to return; 0 for no limit.
    package var limit: Int
    /// `false` (HealthKit's view): a sample deleted later comes back only as its deleted
    /// object. `true`: every event as recorded.
    package var raw: Bool

    /// Creates a request.
    package init(anchor: QueryAnchor = .beginning, types: Set<String> = [], predicate: QueryPredicate = .all, limit: Int = 0, raw: Bool = false) {
        self.anchor = anchor
        self.types = types
        self.predicate = predicate
        self.limit = limit
        self.raw = raw
    }
}

/// What a replay delivered.
package struct ReplayOutcome: Sendable, Equatable {
    /// How many lines (samples plus deleted objects) were delivered.
    package var delivered: Int
    /// The anchor of the last item delivered, or the request's anchor when none was.
    package var newAnchor: QueryAnchor
    /// The last sequence number the replay looked at: the head it saw, or the last item
    /// delivered when the limit cut it short. A follow-up replay after it misses nothing.
    var scannedThrough: UInt64
    /// How many groups (compressed frames) the replay decompressed.
    var groupsRead = 0
    /// How many bytes the replay's pipeline decompressed.
    var bytesDecompressed = 0
    /// How many batch headers of sealed segments the replay decoded to find its batches
    /// (``LogSnapshot/headersDecoded``).
    var headersDecoded = 0
}

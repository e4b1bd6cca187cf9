/// Read-only lookups in the store's UUID index, for a reader that runs beside the writer
/// (an import checking which records a store already holds before it appends): the chain
/// of runs from sequence number 1 bound to the log, chosen as ``UUIDRunSet`` chooses it, but nothing
/// removed, rebuilt or written. Only a chain that covers the whole log as of the snapshot
/// is used; one that does not (the writer has not caught it up yet) gives no reader, so a
/// caller never takes a UUID for unused because the index lags behind the log.
///
/// Lookups are the writer's (``UUIDRunSet/search(_:in:_:skipping:onStack:)``): fingerprints name the
/// blocks of the log that may hold a UUID, and ``LoggedUUIDs`` confirms them against the
/// stored lines, keeping the batches it read last decoded, so an import that looks up its
/// records in export order reads each batch of an earlier import of it about once. Runs
/// were checked whole when they opened; a batch that fails its checksum makes the lookup
/// throw. One thread at a time; readers for other threads may share its runs, which
/// only read their mapped files and in-memory directories once opened.
final class UUIDRunReader {
    /// The chain, oldest first.
    private let runs: [UUIDFingerprintRun]
    /// The log, for confirming candidates.
    private let logged: LoggedUUIDs

    /// The chain in `layout`'s `uuids/` covering `1...snapshot.headSeq`, or `nil` when the
    /// runs there do not cover exactly that (an empty log has an empty chain). With
    /// `sharing`, that reader's runs when they cover exactly that (opened once, for
    /// readers on several threads), else the runs opened again, or taken from `checked`
    /// (which then keeps this chain).
    init?(_ layout: StoreLayout, snapshot: LogSnapshot, sharing: UUIDRunReader? = nil, checked: CheckedUUIDRuns? = nil) {
        if let shared = sharing?.runs, (shared.last?.toSeq ?? 0) == snapshot.headSeq {
            runs = shared
        } else {
            let directory = layout.directory + "/uuids"
            let chain = UUIDRunSet.openChain(directory, snapshot: snapshot, cipher: snapshot.cipher, checked: checked, removingOthers: false)
            guard (chain.last?.toSeq ?? 0) == snapshot.headSeq else { return nil }
            runs = chain
            checked?.remember(chain, in: directory)
        }
        logged = LoggedUUIDs(snapshot)
    }

    /// Whether the sample `uuid` is deleted, `false` when it is live, `nil` when the UUID
    /// was never used: what the writer's lookup (``WriterState/isDeleted(_:inAppendOnly:)``)
    /// answers from the same runs.
    ///
    /// - Throws: ``HealthLogError/Code/corrupt`` when a batch the lookup reads is damaged.
    func isDeleted(_ uuid: SampleUUID) throws -> Bool? {
        try UUIDRunSet.search(uuid, in: runs, logged).map { $0.deleteSeq != 0 }
    }
}

/// A healthlog store: one directory holding an append-only, LZ4-compressed event log of
/// health samples, read by anchored queries in the manner of HealthKit's
/// `HKAnchoredObjectQuery`.
///
/// Appends are all-or-nothing and durable when they return (unless
/// ``StoreOptions/sync`` is off); one process writes at a time (an advisory lock), and any
/// number of readers see whole appends only. A handle holds no open files between calls,
/// so it is cheap and safe to share.
///
/// ```swift
/// let store = HealthStore(directory: "health.store")
/// try store.save([QuantitySample(type: .quantity("StepCount"), quantity: Quantity(120, "count"),
///                                fields: SampleFields(start: .now()))])
/// let result = try await AnchoredObjectQueryDescriptor(anchor: savedAnchor).result(for: store)
/// save(result.newAnchor.token)
/// ```
///
/// <doc:GettingStarted> walks through the rest.
public final class HealthStore: Sendable {
    /// The store directory.
    public let directory: String
    /// The handle's tunables.
    public let options: StoreOptions
    let layout: StoreLayout

    /// A handle on the store at `directory`; nothing is read or created until first use.
    public convenience init(directory: String, options: StoreOptions = StoreOptions()) {
        self.init(directory: directory, options: options, keys: nil)
    }

    /// A handle on the store at `directory` that opens an encrypted store with `keys`.
    init(directory: String, options: StoreOptions, keys: StoreKeys?) {
        self.directory = directory
        self.options = options
        layout = StoreLayout(directory: directory, keys: keys)
    }

    /// Whether a store exists at the directory.
    public var exists: Bool { layout.exists }

    /// Whether reads answer as an empty store does: there is none and
    /// ``StoreOptions/missingStoreIsEmpty`` is set.
    var readsAsEmpty: Bool { options.missingStoreIsEmpty && !layout.exists }

    /// Appends the NDJSON event lines of `inputs`, in order, as one append, all-or-nothing: on any invalid
    /// line the store is left byte-identical and the error names the line and field.
    ///
    /// - Returns: what was added, deleted, replaced or skipped, and the new head anchor.
    /// - Throws: ``HealthLogError`` with code ``HealthLogError/Code/badInput`` for bad input,
    ///   ``HealthLogError/Code/locked`` when another writer holds the lock past the timeout,
    ///   or a store code for I/O failure or damage.
    package func append(_ inputs: [LineReader]) throws -> AppendSummary {
        let session = try AppendSession(layout, options: options)
        return try session.run(inputs)
    }

    /// Appends NDJSON event lines held in memory; see ``append(_:)``.
    package func append(ndjson: [UInt8]) throws -> AppendSummary {
        try append([LineReader(bytes: ndjson)])
    }

    /// Runs an anchored query, calling `deliver` with each stored line (NDJSON with `seq`,
    /// newline included) in ascending sequence order.
    ///
    /// - Throws: ``HealthLogError/Code/anchorRefused`` for an anchor from another store or
    ///   past the head; ``HealthLogError/Code/noStore`` when there is no store;
    ///   ``HealthLogError/Code/corrupt`` for damage, naming file and offset.
    package func replay(_ request: ReplayRequest, deliver: (UnsafeRawBufferPointer) throws -> Void) throws -> ReplayOutcome {
        let snapshot = try LogSnapshot(layout)
        return try Replayer(snapshot: snapshot, request: request).run { try deliver($0.bytes) }
    }

    /// ``replay(_:deliver:)`` whose delivered bytes stay valid until `endOfBatch` is called
    /// (after each batch's lines, also when delivering throws), so the caller can write a
    /// batch's lines out together without copying them.
    package func replay(_ request: ReplayRequest, deliver: (UnsafeRawBufferPointer) throws -> Void, endOfBatch: () -> Void) throws -> ReplayOutcome {
        let snapshot = try LogSnapshot(layout)
        return try Replayer(snapshot: snapshot, request: request).run({ try deliver($0.bytes) }, endOfBatch: endOfBatch)
    }

    /// The anchor of the last committed event.
    public func headAnchor() throws -> QueryAnchor {
        if readsAsEmpty { return .beginning }
        let snapshot = try LogSnapshot(layout)
        return QueryAnchor(seq: snapshot.headSeq, storeTag: snapshot.meta.storeID.tag, generation: snapshot.compactions.generation)
    }

    /// The full type identifiers present in the store's log.
    public func typesPresent() throws -> Set<String> {
        guard layout.exists else { return [] }
        let snapshot = try LogSnapshot(layout)
        return Set(try snapshot.allBatches().lazy.flatMap { $0.header.groups.map(\.type) })
    }

    /// Per-type counts and dates, and the store's size, from the index alone.
    public func stats() throws -> StoreStats {
        try StoreStats(try LogSnapshot(layout))
    }

    /// Rebuilds every index from the segments, under the writer lock. `progress` is called
    /// with (batches done, batches).
    public func reindex(progress: ((Int, Int) -> Void)? = nil) throws -> ReindexReport {
        try Reindexer(layout: layout, options: options, progress: progress).run()
    }

    /// Copies the store into `destination` (created 0700 if absent; empty, or an earlier
    /// backup of this store) while writers keep writing: the copy holds every append
    /// committed when it began, is itself a store, and is verified before this returns.
    /// Files already there and unchanged are not rewritten. `progress` is called with
    /// (segments done, segments). An encrypted store needs no secret: its ciphertext and key
    /// slots are copied as they are, checked by their checksums.
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` when `destination` holds something else;
    ///   ``HealthLogError/Code/corrupt`` when the copy fails verification.
    public func backup(to destination: String, progress: ((Int, Int) -> Void)? = nil) throws -> BackupReport {
        try Backup(source: layout, destination: StoreLayout(directory: destination), progress: progress).run()
    }

    /// Keeps the backup at `destination` current until `stop` is signalled (continuous
    /// backup): one ``backup(to:progress:)`` now, then another each time an append lands,
    /// woken as a long-running query is. Every round is as consistent,
    /// incremental and verified as a one-off backup, and ends with the manifest written,
    /// so the destination can be restored after any round. `afterRound` is called with
    /// each round's report; a round under way when `stop` is signalled is finished first.
    ///
    /// - Returns: the last round's report.
    /// - Throws: as ``backup(to:progress:)``, for the round that failed (the backup then
    ///   has no manifest until a later backup succeeds).
    public func backup(to destination: String, until stop: StopSignal, afterRound: (BackupReport) throws -> Void) throws -> BackupReport {
        let backup = Backup(source: layout, destination: StoreLayout(directory: destination), progress: nil)
        return try BackupFollower(backup: backup).run(until: stop, afterRound: afterRound)
    }

    /// Replaces this store's directory with the backup at `backup` (one `backup(to:)`
    /// wrote), as a new timeline of the backed-up store (<doc:BackupAndRestore#Restore>): the directory
    /// must be missing or empty, or hold a store and `force` be set. Every file is checked
    /// against the backup's manifest and the copy verified before anything at the
    /// directory changes; the new store is swapped in atomically, so a crash leaves the old
    /// store or the new one. Anchors up to the backup's head keep working, anchors into the
    /// history it discards are refused, and new events get sequence numbers above every
    /// number issued before.
    ///
    /// The restore takes the directory's writer lock (for a missing directory, the lock
    /// writers take to create it) before it reads anything, waiting for it like a writer,
    /// and holds it until the new store is in place: appends, other restores and imports
    /// into a new store wait for it (up to ``StoreOptions/lockTimeout``), then go to the
    /// restored store.
    ///
    /// With `point` (point-in-time recovery) only the appends that ended at or before it
    /// come back (``RestorePoint``): never part of an append, and what the backup holds
    /// after it becomes discarded history too. `progress` is called as the backup's files
    /// are copied and the new store's batches verified. `decrypting` restores a backup of
    /// an encrypted store as a plaintext store: every batch opened and written in the clear,
    /// keeping the store's identity, sequence numbers and anchors (a syncing client notices
    /// nothing); the restored store has no key slots. `encryptingWith` does the reverse: a
    /// backup of a plaintext store comes back encrypted, every batch sealed, with one key
    /// slot for that passphrase or key file, and the same identity, numbers and anchors.
    ///
    /// ```swift
    /// // Undo yesterday afternoon's bad import:
    /// try store.restore(from: "/mnt/backup/me", force: true, to: .date(Timestamp(iso8601: "2026-11-30T12:00:00Z")!))
    /// ```
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` when the directory holds something else
    ///   (or a store without `force`); ``HealthLogError/Code/locked`` when another process
    ///   holds the lock longer than the lock timeout; ``HealthLogError/Code/corrupt`` (or
    ///   ``HealthLogError/Code/unsafeFile``) when the backup is damaged, incomplete or
    ///   tampered with; ``HealthLogError/Code/anchorRefused`` when `point` is an anchor of
    ///   another store, past the backup's head or inside history the backup had itself
    ///   discarded, or a date after the backup was taken; ``HealthLogError/Code/keyRequired``
    ///   or ``HealthLogError/Code/wrongKey`` for a backup of an encrypted store when this
    ///   handle's secret opens none of the key slots the backup holds, or `decrypting` a
    ///   backup of a plaintext store, or `encryptingWith` one of an encrypted store
    ///   (``HealthLogError/Code/badUsage``). Each leaves the directory as it was.
    public func restore(
        from backup: String, force: Bool = false, to point: RestorePoint? = nil, decrypting: Bool = false, encryptingWith secret: StoreSecret? = nil,
        progress: ((RestoreProgress) -> Void)? = nil
    ) throws -> RestoreReport {
        try Restore(
            backup: backup, target: directory, force: force, point: point, progress: progress, options: options, keys: layout.keys, decrypts: decrypting,
            encryptsWith: secret
        ).run()
    }

    /// Refuses `decrypting` a backup of a plaintext store, `encrypting` one of an encrypted
    /// store, and both at once (``HealthLogError/Code/badUsage``), before any key is asked
    /// for; the restore itself checks the same.
    package static func checkRestoreUsage(from backup: String, decrypting: Bool, encrypting: Bool) throws {
        try Restore.checkUsage(backup: backup, decrypts: decrypting, encrypts: encrypting)
    }

    /// Checks every checksum and the sequence continuity of the whole log, and that every
    /// index agrees with it. Read-only. `progress` is called with (batches done, batches).
    public func verify(progress: ((Int, Int) -> Void)? = nil) throws -> VerifyReport {
        try Verifier(layout: layout, progress: progress).run()
    }
}

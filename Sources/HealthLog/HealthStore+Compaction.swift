/// Compaction: dropping deleted history, which expires the anchors that point below it.
extension HealthStore {
    /// Drops the samples deleted at or before `horizon` together with their deletes, under
    /// the writer lock. Afterwards an anchor issued before this compaction that points below
    /// the horizon is refused as expired (``HealthLogError/Code/anchorRefused``, with the
    /// advice to resync from 0); anchors issued after it stay valid, and a compacted UUID is
    /// still refused if added again. Crash-safe (a crash at any instant leaves the old log
    /// or the new one) and safe against readers running meanwhile (they see one or the
    /// other). `progress` is called with (batches done, batches of the segments to rewrite).
    ///
    /// ```swift
    /// let report = try store.compact(horizon: .date(Timestamp(commandLine: "2024-01-01")!))
    /// print(report.eventsDropped, report.bytesReclaimed)
    /// ```
    ///
    /// - Returns: what was dropped and reclaimed; a compaction that finds nothing to drop
    ///   commits nothing (``CompactReport/generation`` 0) and expires no anchor.
    /// - Throws: ``HealthLogError/Code/noStore`` without a store;
    ///   ``HealthLogError/Code/anchorRefused`` for an anchor horizon of another store or
    ///   past the head; ``HealthLogError/Code/locked`` when another writer holds the lock
    ///   past the timeout; ``HealthLogError/Code/corrupt`` on damage.
    public func compact(horizon: CompactionHorizon, progress: ((Int, Int) -> Void)? = nil) throws -> CompactReport {
        try Compactor(layout: layout, options: options, horizon: horizon, progress: progress).run()
    }

    /// Rewrites every segment of an encrypted store that holds data sealed under a key
    /// epoch older than the current one (after a key rotation), under the current epoch,
    /// and with `horizon` drops deleted history as ``compact(horizon:progress:)`` does, in
    /// the same crash-safe, reader-safe way; then rebuilds the derived files.
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` for a plaintext store; as
    ///   ``compact(horizon:progress:)`` otherwise.
    public func rekey(horizon: CompactionHorizon? = nil, progress: ((Int, Int) -> Void)? = nil) throws -> CompactReport {
        var compactor = Compactor(layout: layout, options: options, horizon: horizon, progress: progress)
        compactor.rekey = true
        return try compactor.run()
    }
}

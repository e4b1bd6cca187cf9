/// Test hooks that make a store handle fail on purpose at chosen points, so fault-injection
/// tests can kill the real process mid-append, fill the disk, or fail an fsync. Empty (no
/// fault) in real use. Not product API: `package` access, so only this package's tests and
/// the test-only `HealthLogFaultTool` (which reads it from `HEALTHLOG_TEST_FAULT`) set it.
package struct FaultPlan: Sendable, Equatable {
    /// The points in a write where a kill can be injected, in the order an append (then a
    /// restore) passes them.
    package enum Point: String, Sendable, CaseIterable {
        /// A new segment file was created and its header written.
        case segmentCreated = "segment-created"
        /// One batch was written (not yet committed).
        case batchWritten = "batch-written"
        /// The append's files were synced: it is durable but not yet reported.
        case synced
        /// The checkpoint was replaced.
        case checkpointWritten = "checkpoint-written"
        /// A segment's sidecar index was replaced.
        case segmentIndexWritten = "segment-index-written"
        /// A UUID-index run was written (before older runs are merged away).
        case uuidRunWritten = "uuid-run-written"
        /// A segment file of an unfinished append was removed: by the next writer cutting a
        /// torn tail, or by a rollback.
        case unfinishedSegmentRemoved = "unfinished-segment-removed"
        /// A restore copied the backup's files beside the target and checked their digests.
        case restoreCopied = "restore-copied"
        /// A point-in-time restore cut the copy's log (segments removed, the last one
        /// truncated, the checkpoint rewritten).
        case restoreCut = "restore-cut"
        /// A restore verified the new store beside the target.
        case restoreVerified = "restore-verified"
        /// A restore wrote the new store's timelines and fsynced all of it.
        case restoreSynced = "restore-synced"
        /// A restore swapped the new store into place (the old one not yet removed).
        case restoreSwapped = "restore-swapped"
        /// A compaction wrote and fdatasynced one rewritten segment (a new generation, not
        /// yet committed) and its index.
        case compactSegmentWritten = "compact-segment-written"
        /// A compaction fsynced the segments directory: every rewritten segment is durable.
        case compactSynced = "compact-synced"
        /// A compaction replaced the `compactions` file: it is committed.
        case compactCommitted = "compact-committed"
        /// A compaction rewrote the checkpoint at its new offset.
        case compactCheckpointWritten = "compact-checkpoint-written"
        /// A segment file (or its index) no longer in use was removed.
        case unusedSegmentRemoved = "unused-segment-removed"
        /// A key slot file was written (`key add`, each slot of `key rotate`).
        case slotWritten = "slot-written"
        /// A key slot file was unlinked, its directory not yet fsynced (`key remove`).
        case slotRemoved = "slot-removed"
    }

    /// Kill the process with `SIGKILL` the `occurrence`-th time (1-based) it reaches `point`.
    package var kill: (point: Point, occurrence: Int)?
    /// Let segment writes store only this many bytes in all, then fail with `ENOSPC`
    /// (a short write, then a full disk).
    package var failWritesAfterBytes: Int?
    /// Fail every `fdatasync`/`fsync` of segment data with `EIO`.
    package var failSync = false
    /// Make new passphrase slots with libsodium's least Argon2id cost, so tests that add
    /// many slots run fast (the fault tool's `HEALTHLOG_TEST_WEAK_KDF=1`); such a slot
    /// guards nothing.
    package var weakKeyDerivation = false

    /// No faults.
    package init() {}

    /// Parses `kill:POINT[:N]`, `enospc-after:BYTES` or `fail-fsync`; `nil` if malformed.
    package init?(parsing text: String) {
        let parts = text.split(separator: ":").map(String.init)
        switch parts.first {
        case "kill":
            guard parts.count == 2 || parts.count == 3, let point = Point(rawValue: parts[1]) else { return nil }
            let occurrence = parts.count == 3 ? Int(parts[2]) : 1
            guard let occurrence, occurrence >= 1 else { return nil }
            kill = (point, occurrence)
        case "enospc-after":
            guard parts.count == 2, let bytes = Int(parts[1]), bytes >= 0 else { return nil }
            failWritesAfterBytes = bytes
        case "fail-fsync":
            guard parts.count == 1 else { return nil }
            failSync = true
        default:
            return nil
        }
    }

    /// Equal when the same faults are planned.
    package static func == (a: FaultPlan, b: FaultPlan) -> Bool {
        a.kill?.point == b.kill?.point && a.kill?.occurrence == b.kill?.occurrence
            && a.failWritesAfterBytes == b.failWritesAfterBytes && a.failSync == b.failSync && a.weakKeyDerivation == b.weakKeyDerivation
    }
}

/// Keeps a backup current as appends land (continuous backup): a one-off ``Backup`` each
/// round, woken by the same ``LogWatcher`` as `replay --follow`, until stopped.
///
/// The watcher is set up before the first round, so an append committed while a round
/// runs wakes the next wait and is in the next round. A wake-up that finds the store's
/// head, timeline and compaction generation unchanged (the watcher's safety interval, a
/// file that is neither an append, a restore nor a compaction) runs no round; a compaction,
/// which rewrites segments without moving the head, runs one as an append does. Each round is a verified, incremental backup with its manifest
/// written last, so the destination is restorable after every round; it remembers what
/// the previous round left (``BackupMemory``), so a round that only extends the growing
/// segment copies, digests and verifies only the new bytes. A round that fails ends the
/// follow with its error (the destination then has no manifest until a later backup). A round
/// that was started when `stop` is signalled is finished first. The position a round is
/// compared against is read before the round, so an append that lands between that look
/// and the round's snapshot costs at most one extra round, never a missed one.
struct BackupFollower {
    /// The one-off backup each round runs.
    let backup: Backup

    /// Runs rounds until `stop` is signalled, calling `afterRound` with each round's report;
    /// returns the last round's report.
    func run(until stop: StopSignal, afterRound: (BackupReport) throws -> Void) throws -> BackupReport {
        let watcher = LogWatcher(backup.source)
        var backedUp = try Self.position(backup.source)
        var memory: BackupMemory?
        var report = try backup.run(remembering: &memory)
        try afterRound(report)
        while !stop.isStopped {
            watcher.wait(stop: stop)
            guard !stop.isStopped else { break }
            let position = try Self.position(backup.source)
            guard position != backedUp else { continue }
            report = try backup.run(remembering: &memory)
            backedUp = position
            try afterRound(report)
        }
        return report
    }

    /// Where the store's log ends and which files hold it: its head, current timeline and
    /// compaction generation.
    private static func position(_ layout: StoreLayout) throws -> Position {
        let snapshot = try LogSnapshot(layout, keyless: true)
        return Position(
            headSeq: snapshot.headSeq, timeline: snapshot.timelines.starts.last?.id ?? snapshot.meta.storeID,
            compactions: snapshot.compactions.generation)
    }

    /// A store's head, timeline and compaction generation, compared to tell whether a round
    /// has anything to do.
    private struct Position: Equatable {
        let headSeq: UInt64
        let timeline: StoreID
        let compactions: UInt32
    }
}

/// Runs a long-running anchored query: everything after the anchor,
/// then each later matching event as any process appends it, until stopped.
///
/// Each pass is an ordinary replay from the position the previous pass scanned through
/// (the head it saw), so nothing is delivered twice and nothing committed after a pass
/// is missed: the watcher is set up before the first pass, and a commit after a pass
/// began wakes the next wait. Anchors only go up: a pass that delivers nothing reports
/// nothing. With `missingIsEmpty`, a pass over a directory that holds no store yet
/// delivers nothing, and the store is read once a writer creates it.
struct Follower {
    let layout: StoreLayout
    let request: ReplayRequest
    var missingIsEmpty = false

    /// Delivers lines to `deliver`, and after the first pass
    /// and each later pass that delivered something calls `afterBatch` with its outcome;
    /// returns the anchor of the last item delivered (the
    /// request's anchor when none was) once `stop` is signalled.
    func run(
        until stop: StopSignal, deliver: (ReplayedLine) throws -> Void, afterBatch: (ReplayOutcome) throws -> Void
    ) throws -> QueryAnchor {
        guard request.limit == 0 else {
            throw HealthLogError(.badUsage, "a long-running query takes no limit (as HealthKit's update handler): use a limit to page, or follow without one")
        }
        let watcher = LogWatcher(layout)
        var anchor = request.anchor
        var pass = request
        var isFirst = true
        while !stop.isStopped {
            let outcome =
                missingIsEmpty && !layout.exists
                ? ReplayOutcome(delivered: 0, newAnchor: pass.anchor, scannedThrough: pass.anchor.seq)
                : try Replayer(snapshot: try LogSnapshot(layout), request: pass).run(deliver)
            if outcome.delivered > 0 || isFirst {
                isFirst = false
                anchor = outcome.newAnchor
                try afterBatch(outcome)
            }
            pass.anchor = QueryAnchor(seq: outcome.scannedThrough, storeTag: outcome.newAnchor.storeTag, generation: outcome.newAnchor.generation)
            watcher.wait(stop: stop)
        }
        return anchor
    }
}

/// `reindex`: under the writer lock, walks the segments once and rebuilds every derived
/// file from them (``IndexRebuild``): the segments' sidecar indexes, the UUID index, the
/// sync-identifier table and the deleted-add index. Memory holds one batch, a stretch of the
/// events' fingerprints (the rest sorted on scratch disk) and the deleted samples' UUIDs, not the log. The old files are removed
/// only once the walk is done.
struct Reindexer {
    /// The store.
    let layout: StoreLayout
    /// The writer's options.
    let options: StoreOptions
    /// Called with (batches done, batches) during the pass.
    var progress: ((Int, Int) -> Void)?

    /// Rebuilds; returns what was rebuilt.
    func run() throws -> ReindexReport {
        guard layout.exists else { throw HealthLogError(.noStore, "no healthlog store at \(layout.directory)") }
        let writer = try LogWriter(layout, options: options)
        writer.releaseLog()
        let snapshot = try LogSnapshot(layout, usingIndexes: false)
        var rebuild = try IndexRebuild(sealedLike: snapshot.cipher)
        var lines = BatchLines()
        let batches = try snapshot.allBatches()
        for (done, batch) in batches.enumerated() {
            progress?(done, batches.count)
            try lines.load(snapshot, batch, groups: Array(batch.header.groups.indices))
            let dropped = try snapshot.fullHeader(of: batch).dropped
            try lines.withBytes { raw in
                for event in lines.uuidEvents(dropped, in: raw) {
                    guard let uuid = event.uuid else { throw snapshot.unreadableEvent(event.seq, in: batch) }
                    if let line = event.line { rebuild.gather(line: UnsafeRawBufferPointer(rebasing: raw[line.start..<line.end - 1]), seq: event.seq) }
                    try rebuild.add(uuid, seq: event.seq, isDelete: event.isDelete)
                }
            }
            if let seq = rebuild.endBatch() { throw snapshot.unreadableEvent(seq, in: batch) }
        }
        progress?(batches.count, batches.count)
        var report = try rebuild.write(layout, snapshot, keepsSegmentIndexes: false)
        report.recoveredTail = writer.recoveredTail
        return report
    }
}

/// What `reindex` rebuilt.
public struct ReindexReport: Sendable, Equatable {
    /// Segment sidecar indexes written.
    public var segmentIndexes = 0
    /// Events read from the log.
    public var events: UInt64 = 0
    /// UUIDs in the UUID index.
    public var uuids = 0
    /// Deleted samples in the deleted-add index.
    public var deletedAdds = 0
    /// A torn tail cut before rebuilding, if any.
    package var recoveredTail: TornTail?
}

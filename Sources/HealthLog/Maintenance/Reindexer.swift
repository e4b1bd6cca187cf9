#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `reindex`: under the writer lock, removes every derived file and rebuilds it from the
/// segments in one pass: the segments' sidecar indexes, the UUID index (one
/// ``UUIDFingerprintRun``, from 12 bytes an event held in memory) and the sync-identifier
/// table; then the deleted-add index (``DeletedAddIndex``, from the delete groups and the
/// add groups of the types deleted). Memory holds one batch, the events' fingerprints
/// (and the deleted samples' UUIDs), not the log.
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
        try removeDerivedFiles()
        let snapshot = try LogSnapshot(layout, usingIndexes: false)
        var report = ReindexReport(recoveredTail: writer.recoveredTail)
        for (index, file) in snapshot.segments.enumerated() {
            try SegmentIndex(name: file.name, batches: snapshot.batches(inSegment: index)).write(layout)
            report.segmentIndexes += 1
        }
        var uuids = UUIDFingerprintRun.Events()
        var adds = 0
        var sync = SyncTable()
        var lines = BatchLines()
        let batches = try snapshot.allBatches()
        for (done, batch) in batches.enumerated() {
            progress?(done, batches.count)
            try lines.load(snapshot, batch, groups: Array(batch.header.groups.indices))
            try lines.withBytes { raw in
                for event in lines.uuidEvents(batch.header, in: raw) {
                    guard let uuid = event.uuid, event.line.map({ sync.apply(UnsafeRawBufferPointer(rebasing: raw[$0.start..<$0.end - 1])) }) ?? true else {
                        throw HealthLogError(.corrupt, "\(snapshot.segments[batch.segment].location(batch.offset)): stored event \(event.seq) is unreadable")
                    }
                    uuids.add(uuid, seq: event.seq)
                    if !event.isDelete { adds += 1 }
                }
            }
        }
        progress?(batches.count, batches.count)
        if snapshot.headSeq > 0 {
            try OwnedDirectory.prepare(layout.directory + "/uuids")
            _ = try uuids.write(from: 1, to: snapshot.headSeq, directory: layout.directory + "/uuids")
        }
        // Every UUID has one add (kept in its batch's dropped list once compacted).
        report.uuids = adds
        sync.coveredSeq = snapshot.headSeq
        try sync.write(layout)
        let deletedAdds = try DeletedAddIndex.entries(from: snapshot, through: snapshot.headSeq)
        try DeletedAddIndex.write(layout, deletedAdds, coveredSeq: snapshot.headSeq)
        report.deletedAdds = deletedAdds.count
        report.events = snapshot.headSeq
        return report
    }

    private func removeDerivedFiles() throws {
        for directory in [layout.segments, layout.directory + "/uuids"] {
            for name in try DirectoryListing.names(in: directory)
            where name.hasSuffix(".idx") || name.hasSuffix(".run") || name == "sync" || name == "deleted-adds" || name.hasSuffix(".tmp") {
                unlink(directory + "/" + name)
            }
        }
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
    public var recoveredTail: TornTail?
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What rebuilding a store's derived files gathers from one walk of its log, and writes at
/// the end: the UUID index (one ``UUIDFingerprintRun``, from its events' keys, sorted a
/// stretch at a time on scratch disk), the sync-identifier table, the segments' sidecar indexes, and the deleted-add
/// index (``DeletedAddIndex``, from the delete groups and the add groups of the types
/// deleted). `reindex` (``Reindexer``) walks the log for it alone; a restore gathers it in
/// its verification pass (``Verifier/rebuildsIndexes``), so it reads the log once.
struct IndexRebuild {
    /// Every event's UUID and sequence number, for the UUID index.
    private var uuids: UUIDFingerprintRun.Events
    /// The adds given: every UUID has one (kept in its batch's dropped list once compacted).
    private(set) var adds = 0
    /// The sync identifiers' newest samples, in the making.
    private var sync = SyncTable()
    /// The lines of the batch being walked that name a sync identifier, with their numbers.
    private var syncLines: [(seq: UInt64, line: [UInt8])] = []

    /// Nothing gathered yet, for a store whose derived files `cipher` seals (its scratch
    /// files are then sealed too).
    ///
    /// - Throws: ``HealthLogError/Code/io`` when the scratch key cannot be made.
    init(sealedLike cipher: StoreCipher?) throws {
        uuids = try UUIDFingerprintRun.Events(sealedLike: cipher)
    }

    /// Gives the event `seq` (after every event given before, in sequence order; stored or
    /// dropped by compaction) that adds or deletes `uuid`.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when its scratch file cannot be written.
    mutating func add(_ uuid: SampleUUID, seq: UInt64, isDelete: Bool) throws {
        try uuids.add(uuid, seq: seq)
        if !isDelete { adds += 1 }
    }

    /// Gives a stored line (without its newline) of the batch being walked, its groups in
    /// any order; the lines that name a sync identifier are kept until ``endBatch()``.
    mutating func gather(line: UnsafeRawBufferPointer, seq: UInt64) {
        if ByteSearch.contains(SyncTable.key, in: line) { syncLines.append((seq, Array(line))) }
    }

    /// Ends a batch: applies its lines that name a sync identifier in sequence order (an
    /// add and the delete of the same sample may lie in different groups); returns the
    /// sequence number of one that cannot be parsed, if any.
    mutating func endBatch() -> UInt64? {
        defer { syncLines.removeAll(keepingCapacity: true) }
        syncLines.sort { $0.seq < $1.seq }
        for (seq, line) in syncLines {
            guard line.withUnsafeBytes({ sync.apply($0) }) else { return seq }
        }
        return nil
    }

    /// Removes the derived files `layout` holds (all of them when `keepsSegmentIndexes` is
    /// false, else all but the segments' sidecar indexes, which a caller has checked), then
    /// writes them anew for the log of `snapshot` (segment indexes only where missing).
    /// Returns what was written.
    func write(_ layout: StoreLayout, _ snapshot: LogSnapshot, keepsSegmentIndexes: Bool) throws -> ReindexReport {
        try Self.removeDerivedFiles(layout, keepsSegmentIndexes: keepsSegmentIndexes)
        var report = ReindexReport()
        for (index, file) in snapshot.segments.enumerated() where !keepsSegmentIndexes || !FileDescriptor.exists(SegmentIndex.path(layout, file.name)) {
            try SegmentIndex.write(layout, name: file.name, batches: snapshot.batches(inSegment: index), cipher: snapshot.cipher)
            report.segmentIndexes += 1
        }
        let binding = snapshot.binding(at: snapshot.headSeq)
        let cipher = snapshot.cipher
        if snapshot.headSeq > 0, let binding {
            try OwnedDirectory.prepare(layout.directory + "/uuids")
            _ = try uuids.write(from: 1, to: snapshot.headSeq, binding: binding, cipher: cipher, directory: layout.directory + "/uuids")
        }
        report.uuids = adds
        var sync = sync
        sync.coveredSeq = snapshot.headSeq
        if let binding { try sync.write(layout, binding: binding, cipher: cipher) }
        let deletedAdds = try DeletedAddIndex.entries(from: snapshot, through: snapshot.headSeq)
        if let binding {
            try DeletedAddIndex.write(layout, deletedAdds, coveredSeq: snapshot.headSeq, binding: binding, cipher: cipher)
        }
        report.deletedAdds = deletedAdds.count
        report.events = snapshot.headSeq
        return report
    }

    /// Removes the segments' sidecar indexes (unless `keepsSegmentIndexes`), the UUID runs,
    /// the sync table, the deleted-add index and any temporary file beside them.
    private static func removeDerivedFiles(_ layout: StoreLayout, keepsSegmentIndexes: Bool) throws {
        for directory in [layout.segments, layout.directory + "/uuids"] {
            for name in try DirectoryListing.names(in: directory)
            where (name.hasSuffix(".idx") && !keepsSegmentIndexes) || name.hasSuffix(".run") || name == "sync" || name == "deleted-adds" || name.hasSuffix(".tmp") {
                unlink(directory + "/" + name)
            }
        }
    }
}

/// Read-only lookups in the store's UUID index, for a reader that runs beside the writer
/// (an import checking which records a store already holds before it appends): the chain
/// of runs from sequence number 1, chosen as ``UUIDRunSet`` chooses it, but nothing
/// removed, rebuilt or written. Only a chain that covers the whole log as of the snapshot
/// is used; one that does not (the writer has not caught it up yet) gives no reader, so a
/// caller never takes a UUID for unused because the index lags behind the log.
///
/// One thread at a time: a ``UUIDRun`` keeps the page it read last.
final class UUIDRunReader {
    /// The chain, oldest first.
    private let runs: [UUIDRun]

    /// The chain in `layout`'s `uuids/` covering `1...snapshot.headSeq`, or `nil` when the
    /// runs there do not cover exactly that (an empty log has an empty chain).
    init?(_ layout: StoreLayout, snapshot: LogSnapshot) {
        let head = snapshot.headSeq
        let directory = layout.directory + "/uuids"
        var candidates = ((try? DirectoryListing.names(in: directory)) ?? []).compactMap { name in
            UUIDRun.range(ofFileName: name).map { (range: $0, name: name) }
        }
        candidates.sort { ($0.range.lowerBound, $1.range.upperBound) < ($1.range.lowerBound, $0.range.upperBound) }
        var next: UInt64 = 1
        var chain: [UUIDRun] = []
        for candidate in candidates where candidate.range.lowerBound == next && candidate.range.upperBound <= head {
            guard let run = UUIDRun(path: directory + "/" + candidate.name), run.fromSeq == candidate.range.lowerBound,
                run.toSeq == candidate.range.upperBound
            else { continue }
            chain.append(run)
            next = run.toSeq + 1
        }
        guard next == head + 1 else { return nil }
        runs = chain
    }

    /// Whether the sample `uuid` is deleted, `false` when it is live, `nil` when the UUID
    /// was never used: what the writer's lookup (``WriterState/isDeleted(_:)``) answers from
    /// the same runs.
    ///
    /// - Throws: ``HealthLogError/Code/corrupt`` when the block holding it fails its checksum.
    func isDeleted(_ uuid: SampleUUID) throws -> Bool? {
        var addSeq: UInt64 = 0
        var deleteSeq: UInt64 = 0
        for run in runs.reversed() {
            guard let entry = try run.lookup(uuid) else { continue }
            if entry.addSeq != 0 { addSeq = entry.addSeq }
            if entry.deleteSeq != 0 { deleteSeq = entry.deleteSeq }
            if addSeq != 0 { break }
        }
        if addSeq == 0, deleteSeq == 0 { return nil }
        return deleteSeq != 0
    }
}

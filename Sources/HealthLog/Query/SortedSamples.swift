/// Finds the first live samples of some types in a ``SampleOrder`` (HealthKit's
/// `HKSampleQuery` with sort descriptors and a limit) without reading every sample of
/// the types: each batch header gives every group's time span (earliest start, latest
/// end), so the groups are read best span first (for the newest samples, the latest
/// end first), and reading stops once `limit` samples are held and no group left can
/// hold one that sorts before the last of them. A sample's delete carries its dates, so
/// the delete groups are read in the same order: those left when reading stops can only
/// delete samples that sort after every sample kept.
///
/// A sample kept early and deleted by a group read later leaves a place that a sample
/// dropped meanwhile may have to fill; the search then starts over, knowing those
/// deletes, which happens at most once per delete group.
///
/// Without an order, samples sort in the order they were added (by sequence number,
/// groups by their first); ties always break that way too. Without an order or without a
/// limit, every delete group of the types is read first.
struct SortedSamples {
    /// The snapshot read.
    let snapshot: LogSnapshot
    /// The full type identifiers asked for (none stored in parts).
    let types: Set<String>
    /// Which samples count.
    let predicate: QueryPredicate
    /// The sort keys, first key first.
    let order: [SampleOrder]
    /// The most samples to return; 0 for all.
    let limit: Int
    /// How many groups were decompressed.
    private(set) var groupsRead = 0

    /// A group to read: where it is, whether it deletes, and the smallest first sort key
    /// it can hold.
    private struct Work {
        var batch: Int
        var group: Int
        var isDelete: Bool
        var bound: Int64
        var firstSeq: UInt64
    }

    /// A sample held: its sort keys, sequence number, UUID and stored line.
    private struct Found {
        var ranks: [Int64]
        var seq: UInt64
        var uuid: SampleUUID
        var line: [UInt8]
    }

    /// The samples, sorted, the first `limit`.
    ///
    /// - Throws: ``HealthLogError/Code/corrupt`` for damage.
    mutating func run(location: (UInt64) -> String) throws -> [any Sample] {
        let tag = snapshot.meta.storeID.tag
        try snapshot.timelines.check(.beginning, storeTag: tag)
        try snapshot.compactions.check(.beginning, storeTag: tag)
        try predicate.validate()
        let batches = try snapshot.batches(after: 0)
        var work: [Work] = []
        for (b, batch) in batches.enumerated() {
            for (g, group) in batch.header.groups.enumerated() where types.contains(group.type) {
                if !group.isDelete, !predicate.mayMatch(minStart: group.minStart, maxEnd: group.maxEnd) { continue }
                // Without an order a delete comes after the add it deletes, and without a limit
                // every group is read anyway: then every delete is read first.
                let deletesFirst = group.isDelete && (order.isEmpty || limit == 0)
                let bound = deletesFirst ? Int64.min : order.first?.bestRank(minStart: group.minStart, maxEnd: group.maxEnd) ?? Int64(group.firstSeq)
                work.append(Work(batch: b, group: g, isDelete: group.isDelete, bound: bound, firstSeq: group.firstSeq))
            }
        }
        // Deletes first at an equal bound, so they are known before the adds they delete.
        work.sort { ($0.bound, $0.isDelete ? 0 : 1, $0.firstSeq) < ($1.bound, $1.isDelete ? 0 : 1, $1.firstSeq) }
        var deleted = Set<SampleUUID>()
        var deletesRead = Set<Int>()
        while true {
            if let found = try search(work, batches, &deleted, &deletesRead, location: location) {
                return try found.map { found in
                    try found.line.withUnsafeBytes { body in
                        SampleDecoder.sample(try EventRecord(line: body, seq: found.seq, location: location(found.seq)))
                    }
                }
            }
        }
    }

    /// One search through `work`, knowing the deletes in `deleted` (of the delete groups at
    /// `deletesRead`, which it adds to): the samples, or `nil` when a delete read during the
    /// search removed a sample held after others had been dropped, so it must start over.
    private mutating func search(
        _ work: [Work], _ batches: [BatchRef], _ deleted: inout Set<SampleUUID>, _ deletesRead: inout Set<Int>, location: (UInt64) -> String
    ) throws -> [Found]? {
        var held: [Found] = []
        var dropped = false
        var lines = BatchLines()
        // The last of `limit` samples held, once there are that many: what a sample must beat.
        var last: Found? = nil
        for (k, item) in work.enumerated() {
            if let last, item.bound > primary(last) { break }
            if item.isDelete, deletesRead.contains(k) { continue }
            try lines.load(snapshot, batches[item.batch], groups: [item.group])
            groupsRead += 1
            if item.isDelete {
                deletesRead.insert(k)
                lines.withBytes { raw in
                    for line in lines.lines {
                        if let uuid = BatchLines.uuid(of: line, in: raw) { deleted.insert(uuid) }
                    }
                }
                let before = held.count
                held.removeAll { deleted.contains($0.uuid) }
                if held.count < before {
                    if dropped { return nil }
                    last = nil
                }
                continue
            }
            try lines.withBytes { raw in
                for line in lines.lines {
                    guard let uuid = BatchLines.uuid(of: line, in: raw), !deleted.contains(uuid) else { continue }
                    let body = UnsafeRawBufferPointer(rebasing: raw[line.start..<line.end - 1])
                    let view = try StoredLineView(line: body, seq: line.seq, location: location(line.seq))
                    let found = Found(ranks: order.map { $0.rank(start: view.start, end: view.end) }, seq: line.seq, uuid: uuid, line: [])
                    if let last, !Self.precedes(found, last) { dropped = true; continue }
                    guard predicate.isAll || predicate.matches(view) else { continue }
                    held.append(Found(ranks: found.ranks, seq: found.seq, uuid: uuid, line: Array(body)))
                }
            }
            // Without a limit every sample is kept: sorted once, at the end.
            guard limit > 0 else { continue }
            held.sort(by: Self.precedes)
            if held.count >= limit {
                if held.count > limit {
                    held.removeLast(held.count - limit)
                    dropped = true
                }
                last = held[limit - 1]
            }
        }
        if limit == 0 { held.sort(by: Self.precedes) }
        return held
    }

    /// The first sort key of a sample held: its first rank, or its sequence number without an order.
    private func primary(_ found: Found) -> Int64 {
        found.ranks.first ?? Int64(found.seq)
    }

    /// Whether `a` sorts before `b`: by their ranks, then sequence numbers.
    private static func precedes(_ a: Found, _ b: Found) -> Bool {
        for (x, y) in zip(a.ranks, b.ranks) where x != y { return x < y }
        return a.seq < b.seq
    }
}

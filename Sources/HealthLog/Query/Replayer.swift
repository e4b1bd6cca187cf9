/// Runs an anchored query over a ``LogSnapshot``: the events after the anchor, of the
/// requested types that match the predicate, in sequence order, up to the limit.
///
/// HealthKit's view needs to know which samples after the anchor were deleted later. The
/// ``DeletedAddIndex`` lists the adds deleted up to the point it covers, and the replay
/// looks up only the numbers of its own adds in it; the deletes after that point (all those
/// after the anchor when the index is missing, damaged, of another version or not what the
/// log's witness counts) sit in the delete groups of the batches after it, so a first pass
/// reads only those (small) frames. An unlimited replay, which reads every batch after the
/// anchor anyway, takes the index only when checking it costs less than reading the deletes
/// of its types after the anchor, or when those are too many to hold in memory
/// (``isIndexWorthChecking(entries:_:after:)``).
/// A block of the index found damaged midway switches the replay to reading every delete
/// after the anchor instead, so its answer never depends on the index being sound.
/// The second pass reads just the groups of the requested types (of the group holding the
/// anchor, from the block its later lines start in),
/// so a rare type costs its own frames, not the whole log; a date range also skips groups
/// whose time span (in the batch header) lies outside it. Only with a predicate are lines
/// decoded, to test it. The second pass's frames are decompressed a few batches ahead on a
/// second thread (``ReplayPipeline``), which starts on them while the first pass runs.
///
/// A limited replay that need not read every delete after the anchor (the index covers
/// them, or the replay is raw) asks the snapshot only for the batches its limit needs
/// (``LogSnapshot/batches(after:upTo:counting:)``), so a page from an early anchor decodes
/// a few batch headers instead of the rest of a sealed segment's table; when deletes hide
/// some of those lines (or a predicate skips them) the page goes on with the batches after,
/// in the same pipeline.
struct Replayer {
    let snapshot: LogSnapshot
    let request: ReplayRequest
    /// The deletes after the anchor an unlimited replay reads into memory
    /// (``DeletedSamples``) rather than check the ``DeletedAddIndex``; tests make it small.
    var residentDeletes = Self.defaultResidentDeletes

    /// Delivers each matching stored line to `deliver`. The bytes of a line stay valid until
    /// `endOfBatch` is called, which happens after each batch's lines (also when delivering
    /// one throws), so a caller may queue them and write them out together.
    func run(_ deliver: (ReplayedLine) throws -> Void, endOfBatch: () -> Void = {}) throws -> ReplayOutcome {
        let tag = snapshot.meta.storeID.tag
        guard request.limit >= 0 else { throw HealthLogError(.badUsage, "limit must be 0 (no limit) or more, not \(request.limit)") }
        try snapshot.timelines.check(request.anchor, storeTag: tag)
        try snapshot.compactions.check(request.anchor, storeTag: tag)
        let generation = snapshot.compactions.generation
        try request.anchor.validate(storeTag: tag, head: snapshot.headSeq)
        try request.predicate.validate()
        let predicate = request.predicate
        let after = request.anchor.seq
        // Every group the replay looks at is of the requested types.
        let scope = request.types.isEmpty ? nil : request.types
        // An unlimited replay reads every batch after the anchor whatever the index says.
        let everyBatch = request.limit == 0 ? try snapshot.batches(after: after, types: scope) : nil
        // An index that covers nothing after the anchor cannot hide any of its adds.
        let index =
            request.raw
            ? nil
            : DeletedAddIndex.open(
                for: snapshot, coveringPast: after, isWorthChecking: { entries in everyBatch.map { isIndexWorthChecking(entries: entries, $0, after: after) } ?? true }
            ).map(DeletedAddCursor.init)
        let tailFrom = max(after, index?.coveredSeq ?? 0)
        // A limited replay that need not read every delete after the anchor takes the batches
        // its limit needs, and more only if those run out first.
        let isBounded = request.limit > 0 && (request.raw || tailFrom > after)
        var (batches, reachesHead) =
            isBounded
            ? try snapshot.batches(after: after, upTo: Self.tableEvents(request.limit), counting: { eventCount($0, after: after) })
            : (try everyBatch ?? snapshot.batches(after: after, types: scope), true)
        let work = self.work(of: batches, after: after)
        let pipeline = try ReplayPipeline(snapshot, work, limitEnd: limitEnd(work, after: after), after: after)
        var groupsRead = 0
        var bytesDecompressed = 0
        let deleted = request.raw ? DeletedSamples(capacity: 0) : try deletedSamples(in: isBounded ? snapshot.batches(after: tailFrom, types: scope) : batches, after: tailFrom, groupsRead: &groupsRead)
        pipeline.publish(deleted)
        var earlier = EarlierDeletes(index: index)
        var delivered = 0
        var last = after
        while true {
            guard let slot = try pipeline.next() else {
                guard !reachesHead, let end = batches.last?.header.lastSeq else { break }
                (batches, reachesHead) = try snapshot.batches(after: end, upTo: Self.tableEvents(request.limit - delivered), counting: { eventCount($0, after: after) })
                pipeline.extend(self.work(of: batches, after: after))
                continue
            }
            let batch = slot.batch
            groupsRead += slot.groups.count
            bytesDecompressed += slot.lines.decompressed
            let lines = slot.lines
            defer { endOfBatch() }
            let isFull = try lines.withBytes { raw in
                try lines.lines.withUnsafeBufferPointer { lines in
                    for line in lines where line.seq > after && !line.isHidden {
                        if !line.isDelete,
                            try earlier.contain(line, raw, orEvery: { try deletedSamples(in: snapshot.batches(after: after, types: scope), after: after, groupsRead: &groupsRead) })
                        {
                            continue
                        }
                        if !predicate.isAll {
                            let subject = try StoredLineView(
                                line: UnsafeRawBufferPointer(rebasing: raw[line.start..<line.end - 1]), seq: line.seq,
                                location: snapshot.segments[batch.segment].location(batch.offset))
                            guard predicate.matches(subject) else { continue }
                        }
                        try deliver(ReplayedLine(bytes: UnsafeRawBufferPointer(rebasing: raw[line.start..<line.end]), seq: line.seq, isDelete: line.isDelete))
                        delivered += 1
                        last = line.seq
                        if request.limit > 0, delivered == request.limit { return true }
                    }
                    return false
                }
            }
            if isFull {
                return ReplayOutcome(
                    delivered: delivered, newAnchor: QueryAnchor(seq: last, storeTag: tag, generation: generation), scannedThrough: last, groupsRead: groupsRead,
                    bytesDecompressed: bytesDecompressed, headersDecoded: snapshot.headersDecoded)
            }
        }
        return ReplayOutcome(
            delivered: delivered, newAnchor: QueryAnchor(seq: last, storeTag: tag, generation: generation), scannedThrough: snapshot.headSeq, groupsRead: groupsRead,
            bytesDecompressed: bytesDecompressed, headersDecoded: snapshot.headersDecoded)
    }

    /// Whether an add the pipeline did not hide was deleted by an event the deleted-add
    /// index covers: asked of the index, or, once a block of it turned out damaged, of every
    /// delete after the anchor. A value the replay's loop holds (not a variable a nested
    /// function captures, which Swift checks for exclusive access at run time on every line).
    private struct EarlierDeletes {
        var index: DeletedAddCursor?
        /// Set when a block of the index turned out damaged: every delete after the anchor.
        var fallback: DeletedSamples?

        /// Whether `line` (of the batch storage `raw`) adds a sample deleted earlier;
        /// `every` reads every delete after the anchor, the first time the index fails.
        mutating func contain(_ line: BatchLines.Line, _ raw: UnsafeRawBufferPointer, orEvery every: () throws -> DeletedSamples) throws -> Bool {
            if let fallback { return fallback.contains(line, in: raw) }
            guard index != nil else { return false }
            do {
                return try index!.isDeleted(line.seq)
            } catch let error as HealthLogError where error.code == .corrupt {
                index = nil
                let all = try every()
                fallback = all
                return all.contains(line, in: raw)
            }
        }
    }

    /// Whether an index of `entries` entries is worth checking for an unlimited replay of
    /// `batches`: taking it means computing its witness over every entry (a multiplication
    /// and an addition each, about ten instructions), while without it the replay reads the
    /// delete groups of its types after `after` (a read, a checksum and a decompression a
    /// group, about ten thousand). So the index is taken once there are a thousand entries or
    /// fewer for each such group: a rare type reads its few delete groups instead of checking
    /// every deleted add of the log. It is also taken once those groups hold more than
    /// ``residentDeletes`` deletes: without it the replay holds a set of their UUIDs (about 50
    /// bytes each), which would grow with the log, where the index is read a block at a time.
    /// The count stops as soon as either is reached.
    private func isIndexWorthChecking(entries: Int, _ batches: [BatchRef], after: UInt64) -> Bool {
        var groups = 0
        var deletes = 0
        for batch in batches {
            // Through the buffer: a group is looked at in place, not copied (its type retained).
            let isReached = batch.header.groups.withUnsafeBufferPointer { all in
                for k in all.indices where all[k].isDelete && all[k].lastSeq > after && admits(all[k].type) {
                    groups += 1
                    deletes += Int(all[k].count)
                    if entries <= groups * 1024 || deletes > residentDeletes { return true }
                }
                return false
            }
            if isReached { return true }
        }
        return entries == 0
    }

    /// ``residentDeletes`` by default: 2¹⁷, about 6 MB of their UUIDs.
    static let defaultResidentDeletes = 1 << 17

    /// How many events a limited replay asks the batch table for to deliver `limit`: an
    /// eighth more, since adds deleted later (hidden) take several percent of a type's
    /// lines, and a table that falls short walks the sidecar again from the segment's start
    /// (most of the yardstick's heart-rate pages did, some twice). Only the batch headers
    /// past the limit's are decoded for it; their frames are read only if the page needs them.
    static func tableEvents(_ limit: Int) -> Int {
        limit + limit / 8
    }

    /// Whether the request asks for events of `type` (one type, the common case, is compared
    /// rather than hashed: this runs for every group of every batch after the anchor).
    @inline(__always)
    private func admits(_ type: String) -> Bool {
        switch request.types.count {
        case 0: true
        case 1: type == request.types.first!
        default: request.types.contains(type)
        }
    }

    /// The batches of `batches` with groups to read, and those groups: the ones after
    /// `after`, of the requested types, that may match the predicate.
    private func work(of batches: [BatchRef], after: UInt64) -> [(batch: BatchRef, groups: [Int])] {
        batches.compactMap { batch in
            let groups = batch.header.groups.indices.filter { g in
                let group = batch.header.groups[g]
                return group.lastSeq > after && admits(group.type)
                    && request.predicate.mayMatch(minStart: group.minStart, maxEnd: group.maxEnd)
            }
            return groups.isEmpty ? nil : (batch, groups)
        }
    }

    /// How many events after `after` of the requested types `batch` holds at most (of a
    /// group that straddles the anchor, only what follows it).
    private func eventCount(_ batch: BatchRef, after: UInt64) -> Int {
        var events = 0
        for group in batch.header.groups where group.lastSeq > after && admits(group.type) {
            events += group.firstSeq > after ? Int(group.count) : Int(min(UInt64(group.count), group.lastSeq - after))
        }
        return events
    }

    /// Where a limited replay is expected to end: just past the batch whose chosen groups
    /// bring the lines after `after` up to the limit (the replay reads further, only not
    /// ahead, when deletes hide some of them or a predicate skips them), or at the end of
    /// `work` when they never do; `nil` without a limit or with a predicate.
    private func limitEnd(_ work: [(batch: BatchRef, groups: [Int])], after: UInt64) -> Int? {
        guard request.limit > 0, request.predicate.isAll else { return nil }
        var lines = 0
        for (k, item) in work.enumerated() {
            // Without a predicate, the chosen groups are exactly those eventCount counts.
            lines += eventCount(item.batch, after: after)
            if lines >= request.limit { return k + 1 }
        }
        return work.count
    }

    /// The UUIDs deleted by events after `after` (of the requested types).
    private func deletedSamples(in batches: [BatchRef], after: UInt64, groupsRead: inout Int) throws -> DeletedSamples {
        var capacity = 0
        for batch in batches {
            for group in batch.header.groups where group.isDelete && group.lastSeq > after && admits(group.type) {
                capacity += Int(group.count)
            }
        }
        var deleted = DeletedSamples(capacity: capacity)
        var lines = BatchLines()
        for batch in batches {
            let groups = batch.header.groups.indices.filter { g in
                let group = batch.header.groups[g]
                return group.isDelete && group.lastSeq > after && admits(group.type)
            }
            if groups.isEmpty { continue }
            try lines.load(snapshot, batch, groups: groups)
            groupsRead += groups.count
            lines.withBytes { raw in
                for line in lines.lines where line.seq > after {
                    if let uuid = BatchLines.uuid(of: line, in: raw) { deleted.insert(uuid) }
                }
            }
        }
        return deleted
    }
}

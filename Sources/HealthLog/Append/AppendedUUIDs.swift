/// The adds and deletes of the append in progress, by UUID, in bounded memory: they go to
/// a ``UUIDRunBuilder`` (which becomes the append's UUID-index run after the commit), and
/// lookups search the events it still holds (a small hash) and, when a ``UUIDBloom`` over
/// the UUIDs it wrote out says maybe, those of its partial runs on disk whose chunks'
/// filters (``UUIDChunkFilters``) say maybe too. Memory holds one chunk of events and, once
/// an append is larger than a chunk, the two kinds of filter, 16 MB each at most, so an
/// append of millions of samples holds a few tens of megabytes of bookkeeping instead of a
/// hash slot per sample.
final class AppendedUUIDs {
    /// The append's UUID-index run in the making.
    private let builder: UUIDRunBuilder
    /// Events the builder holds before it writes them out.
    private let chunkEvents: Int
    // Unchecked exclusivity: this bookkeeping is used by one thread at a time and none of its
    // methods re-enters it, so no two accesses overlap; the runtime check cost ~5% of an append.
    /// UUIDs of the events the builder holds, and what those events say of each.
    @exclusivity(unchecked) private var recent: UUIDPositions
    @exclusivity(unchecked) private var recentUUIDs: [SampleUUID] = []
    @exclusivity(unchecked) private var recentFound: [UUIDRunSet.Found] = []
    /// The UUIDs in the builder's partial runs (and, once there are some, of every event
    /// added since): empty until the first chunk is written out, then of its maximum size
    /// from the start, so it is never rebuilt as the append grows.
    @exclusivity(unchecked) private var bloom = UUIDBloom(capacity: 1)
    /// Whether a chunk was written out (and ``bloom`` has its full size).
    private var hasWrittenOut = false
    /// The UUIDs of each chunk written out, which tell the partial runs a lookup reads.
    @exclusivity(unchecked) private var chunks: UUIDChunkFilters
    /// The first sequence number of the chunk the builder holds.
    private var chunkFrom: UInt64
    /// How many lookups of a partial run on disk were made (one per run read).
    private(set) var runLookups = 0
    /// What ``prefetch(_:)`` loaded, kept so the loads are not optimised away.
    private var touched: UInt64 = 0

    /// The events from `from` on; partial runs go to a scratch directory, and the chunks'
    /// filters take at most `chunkFilterBudget` bytes.
    init(from: UInt64, chunkEvents: Int = UUIDRunBuilder.defaultChunkEvents, chunkFilterBudget: Int = UUIDChunkFilters.defaultBudget) {
        builder = UUIDRunBuilder(from: from, directory: nil, chunkEvents: chunkEvents)
        self.chunkEvents = chunkEvents
        recent = UUIDPositions(capacity: chunkEvents)
        chunks = UUIDChunkFilters(budget: chunkFilterBudget)
        chunkFrom = from
    }

    /// Adds event `seq` (after every event added before), which adds or deletes `uuid`.
    func add(_ uuid: SampleUUID, seq: UInt64, isDelete: Bool) throws {
        let at: Int
        if let known = recent.insertIfAbsent(uuid, at: recentUUIDs.count, in: recentUUIDs) {
            at = known
        } else {
            at = recentFound.count
            recentUUIDs.append(uuid)
            recentFound.append(UUIDRunSet.Found(addSeq: 0, deleteSeq: 0))
        }
        if isDelete { recentFound[at].deleteSeq = seq } else { recentFound[at].addSeq = seq }
        // Its block is in the cache: the lookup before this add tested it.
        if hasWrittenOut { bloom.insert(uuid) }
        try builder.add(uuid, seq: seq, isDelete: isDelete)
        if builder.pendingCount == 0 { moveRecentToBloom(through: seq) }
    }

    /// Loads the memory a ``lookup(_:)`` of `uuid` starts with (its hash slot and its
    /// Bloom block) into the cache: called for the UUIDs of the next few events, it lets
    /// their cache misses overlap instead of each lookup waiting for its own.
    func prefetch(_ uuid: SampleUUID) {
        touched ^= recent.touch(uuid) ^ bloom.touch(uuid)
    }

    /// What this append's events say of `uuid` (its add and delete sequence numbers, 0 when
    /// absent), or `nil` when none names it.
    func lookup(_ uuid: SampleUUID) throws -> UUIDRunSet.Found? {
        var found = recent.position(of: uuid, in: recentUUIDs).map { recentFound[$0] } ?? UUIDRunSet.Found(addSeq: 0, deleteSeq: 0)
        let hash = UUIDBloom.mix(uuid)
        if found.addSeq == 0, bloom.mayContain(hash: hash) {
            // Newest first: an append adds a UUID once and deletes it at most once, after the
            // add, so once the add is found every later event of the UUID has been seen.
            for run in builder.partialRuns.reversed() where chunks.mayContain(hash: hash, within: run.fromSeq...run.toSeq) {
                runLookups += 1
                guard let entry = try run.lookup(uuid) else { continue }
                found.addSeq = max(found.addSeq, entry.addSeq)
                found.deleteSeq = max(found.deleteSeq, entry.deleteSeq)
                if found.addSeq != 0 { break }
            }
        }
        return found.addSeq == 0 && found.deleteSeq == 0 ? nil : found
    }

    /// Starts building the append's run covering `from...to` in the background (see
    /// ``UUIDRunBuilder/prepareFinish(through:)``).
    func prepareFinish(through to: UInt64) throws {
        try builder.prepareFinish(through: to)
    }

    /// The append's run covering `from...to`, written into `directory` (see
    /// ``UUIDRunBuilder/finish(through:into:)``).
    func finish(through to: UInt64, into directory: String) throws -> UUIDRun {
        try builder.finish(through: to, into: directory)
    }

    /// Removes what was written (after a rollback, or when the run is not wanted).
    func discard() { builder.discard() }

    /// After the builder wrote out the events it held, up to `last`: their UUIDs go into a
    /// filter of their own (and, at the first chunk, into the filter of every written UUID,
    /// made then: later adds go into it as they come), and the hash empties.
    private func moveRecentToBloom(through last: UInt64) {
        chunks.add(recentUUIDs, from: chunkFrom, through: last)
        chunkFrom = last + 1
        if !hasWrittenOut {
            hasWrittenOut = true
            bloom = UUIDBloom(capacity: UUIDBloom.maximumBytes / 2)
            for uuid in recentUUIDs { bloom.insert(uuid) }
        }
        recent.removeAll()
        recentUUIDs.removeAll(keepingCapacity: true)
        recentFound.removeAll(keepingCapacity: true)
    }
}

/// The adds and deletes of the append in progress, by UUID: they go to a
/// ``UUIDRunBuilder`` (partial runs on disk, for lookups) and, as a fingerprint each, to
/// the append's run of the store's UUID index (``UUIDFingerprintRun/Events``,
/// encoded after the last event); lookups search the events the builder still holds (a
/// small hash) and, when a ``UUIDBloom`` over the UUIDs it wrote out says maybe, those of
/// its partial runs on disk whose filters (``UUIDRunBuilder/filters``) say maybe too.
///
/// Memory holds one chunk of events with their hash (about 5 MB at
/// ``defaultChunkEvents``), a stretch of the fingerprint keys (the rest are sorted on
/// disk) and, once an append is larger than a chunk, the two kinds of filter, 8 MB each
/// at most; they are all let go when the run's encoding starts, which streams the run to
/// a scratch file (``FingerprintRunJob``). No hash slot is held per sample.
final class AppendedUUIDs {
    /// The partial runs lookups read.
    private let builder: UUIDRunBuilder
    /// The first sequence number of the append's run.
    private let from: UInt64
    /// The fingerprint of every event, for the append's run.
    @exclusivity(unchecked) private var events: UUIDFingerprintRun.Events
    /// The encoding of the append's run, once ``prepareFinish(through:cipher:)`` started it.
    private var job: FingerprintRunJob?
    /// Events the builder holds before it writes them out.
    private let chunkEvents: Int
    // Unchecked exclusivity: this bookkeeping is used by one thread at a time and none of its
    // methods re-enters it, so no two accesses overlap; the runtime check cost ~5% of an append.
    /// UUIDs of the events the builder holds, and what those events say of each.
    @exclusivity(unchecked) private var recent: UUIDPositions
    @exclusivity(unchecked) private var recentUUIDs: [SampleUUID] = []
    @exclusivity(unchecked) private var recentFound: [UUIDRunSet.Found] = []
    /// The UUIDs in the builder's partial runs (and, once there are some, of every event
    /// added since): empty until the first chunk is written out, then sized for
    /// ``firstBloomChunks`` chunks, and rebuilt at its maximum size once if they are passed.
    @exclusivity(unchecked) private var bloom = UUIDBloom(capacity: 1)
    /// How many UUIDs ``bloom`` is sized for (0 until the first chunk is written out).
    private var bloomCapacity = 0
    /// How many UUIDs went into the partial runs (one repeated across chunks counts twice).
    private var written = 0
    /// The chunks the filter of every written UUID is first sized for: an append of up to
    /// about a million events never rebuilds it and tests a filter of 2 MB, not 8.
    static let firstBloomChunks = 32
    /// The events an append holds before its builder writes them out, by default: 2¹⁵,
    /// about 5 MB with their hash while a chunk is written out, so an append's bookkeeping
    /// reaches its full size within its first 50,000 events and its peak stays within
    /// 64 MB; the runs' filters (``UUIDChunkFilters``) keep lookups of deletes reading only
    /// the partial runs that may hold their UUID, however many there are.
    static let defaultChunkEvents = 1 << 15
    /// How many lookups of a partial run on disk were made (one per run read).
    private(set) var runLookups = 0
    /// The last ``lookup(_:)`` of a UUID not in ``recent``: where an add of it goes in the
    /// hash, and its Bloom hash, so the add that usually follows probes and mixes once.
    private var lastMiss: (uuid: SampleUUID, probe: UUIDPositions.Probe, hash: UInt64)?
    /// What ``prefetch(_:isDelete:)`` loaded, kept so the loads are not optimised away.
    private var touched: UInt64 = 0

    /// The events from `from` on; partial runs go to a scratch directory (sealed with
    /// `sealing` for an encrypted store), and the partial runs' filters take at most
    /// `chunkFilterBudget` bytes.
    init(
        from: UInt64, chunkEvents: Int = defaultChunkEvents, chunkFilterBudget: Int = UUIDChunkFilters.defaultBudget,
        sealing: ScratchCipher? = nil
    ) {
        builder = UUIDRunBuilder(from: from, directory: nil, chunkEvents: chunkEvents, filterBudget: chunkFilterBudget, sealing: sealing)
        self.from = from
        self.chunkEvents = chunkEvents
        recent = UUIDPositions(capacity: chunkEvents)
        // Room for a chunk at once: grown by doubling, the arrays would take up to twice that.
        recentUUIDs.reserveCapacity(chunkEvents)
        recentFound.reserveCapacity(chunkEvents)
        events = UUIDFingerprintRun.Events(sealing: sealing)
    }

    /// Adds event `seq` (after every event added before), which adds or deletes `uuid`.
    func add(_ uuid: SampleUUID, seq: UInt64, isDelete: Bool) throws {
        let at: Int
        let miss = lastMiss.flatMap { $0.uuid == uuid ? $0 : nil }
        lastMiss = nil
        if let miss, recent.insert(miss.probe, at: recentUUIDs.count) {
            at = recentFound.count
            recentUUIDs.append(uuid)
            recentFound.append(UUIDRunSet.Found(addSeq: 0, deleteSeq: 0))
        } else if let known = recent.insertIfAbsent(uuid, at: recentUUIDs.count, in: recentUUIDs) {
            at = known
        } else {
            at = recentFound.count
            recentUUIDs.append(uuid)
            recentFound.append(UUIDRunSet.Found(addSeq: 0, deleteSeq: 0))
        }
        if isDelete { recentFound[at].deleteSeq = seq } else { recentFound[at].addSeq = seq }
        // Its block is in the cache: the lookup before this add tested it.
        if bloomCapacity > 0 { bloom.insert(hash: miss?.hash ?? UUIDBloom.mix(uuid)) }
        try events.add(uuid, seq: seq)
        try builder.add(uuid, seq: seq, isDelete: isDelete)
        if builder.pendingCount == 0 { try moveRecentToBloom(through: seq) }
    }

    /// Loads the memory a ``lookup(_:)`` of `uuid` starts with (its hash slot and its
    /// Bloom block) into the cache: called for the UUIDs of the next few events, it lets
    /// their cache misses overlap instead of each lookup waiting for its own. For a delete
    /// (`isDelete`), whose lookup tests the partial runs' filters newest first back to the
    /// run of its add, the block of every run's filter too.
    func prefetch(_ uuid: SampleUUID, isDelete: Bool) {
        let hash = UUIDBloom.mix(uuid)
        touched ^= recent.touch(uuid) ^ bloom.touch(hash: hash)
        if isDelete { touched ^= builder.filters.touch(hash: hash) }
    }

    /// What this append's events say of `uuid` (its add and delete sequence numbers, 0 when
    /// absent), or `nil` when none names it.
    func lookup(_ uuid: SampleUUID) throws -> UUIDRunSet.Found? {
        let probe = recent.probe(uuid, in: recentUUIDs)
        var found = probe.position.map { recentFound[$0] } ?? UUIDRunSet.Found(addSeq: 0, deleteSeq: 0)
        let hash = UUIDBloom.mix(uuid)
        lastMiss = probe.position == nil ? (uuid, probe, hash) : nil
        if found.addSeq == 0, bloom.mayContain(hash: hash) {
            // Newest first: an append adds a UUID once and deletes it at most once, after the
            // add, so once the add is found every later event of the UUID has been seen.
            if let chunk = builder.chunkBeingWritten, builder.filters.mayContain(hash: hash, within: chunk.from...chunk.to),
                let entry = UUIDRun.search(uuid, in: chunk.entries)
            {
                found.addSeq = max(found.addSeq, entry.addSeq)
                found.deleteSeq = max(found.deleteSeq, entry.deleteSeq)
            }
            for run in builder.partialRuns.reversed() where found.addSeq == 0 && builder.filters.mayContain(hash: hash, within: run.fromSeq...run.toSeq) {
                runLookups += 1
                guard let entry = try run.lookup(uuid) else { continue }
                found.addSeq = max(found.addSeq, entry.addSeq)
                found.deleteSeq = max(found.deleteSeq, entry.deleteSeq)
                if found.addSeq != 0 { break }
            }
        }
        return found.addSeq == 0 && found.deleteSeq == 0 ? nil : found
    }

    /// Starts encoding the append's run covering `from...to` (every event added) on a
    /// thread of its own (``FingerprintRunJob``), so a caller with other work before it
    /// needs the run (a commit's syncs) overlaps the two; no more events may be added. The
    /// run's body is sealed with `cipher` (the store's; `nil` for a plaintext store). The
    /// lookups' hash and filters are let go, and a merge of partial runs in progress is
    /// stopped: no lookup follows.
    func prepareFinish(through to: UInt64, cipher: StoreCipher?) {
        job = FingerprintRunJob(events, from: from, to: to, cipher: cipher)
        events = UUIDFingerprintRun.Events()
        recent = UUIDPositions(capacity: 0)
        recentUUIDs = []
        recentFound = []
        bloom = UUIDBloom(capacity: 1)
        builder.endLookups()
    }

    /// The append's run covering `from...to` (every event added), bound to `binding` (the
    /// log's at `to`), written into `directory`; the partial runs are removed. Waits for the
    /// encoding ``prepareFinish(through:cipher:)`` started (for the same `to`), or encodes it
    /// now, sealed with `cipher`.
    func finish(through to: UInt64, binding: LogBinding, cipher: StoreCipher?, into directory: String) throws -> UUIDFingerprintRun {
        if job == nil { prepareFinish(through: to, cipher: cipher) }
        precondition(job!.to == to, "the run is finished for the range it was prepared for")
        let run = try job!.write(into: directory, binding: binding)
        job = nil
        builder.discard()
        return run
    }

    /// Removes what was written (after a rollback, or when the run is not wanted).
    func discard() {
        job = nil
        builder.discard()
    }

    /// After the builder wrote out the events it held, up to `last` (their UUIDs into a
    /// filter of their run): at the first chunk they go into the filter of every written UUID,
    /// made then (later adds go into it as they come); when more UUIDs were written than
    /// it is sized for, it is rebuilt at its maximum size from the partial runs, once. The
    /// hash empties.
    private func moveRecentToBloom(through last: UInt64) throws {
        written += recentUUIDs.count
        if bloomCapacity == 0 {
            bloomCapacity = Self.firstBloomChunks * chunkEvents
            bloom = UUIDBloom(capacity: bloomCapacity)
            for uuid in recentUUIDs { bloom.insert(uuid) }
        } else if written > bloomCapacity, !bloom.isAtMaximum {
            bloomCapacity = UUIDBloom.maximumBytes / 2
            var largest = UUIDBloom(capacity: bloomCapacity)
            for entry in builder.chunkBeingWritten?.entries ?? [] { largest.insert(entry.uuid) }
            for run in builder.partialRuns {
                var cursor = try UUIDRun.BlockCursor(run)
                defer { cursor.close() }
                while let entry = cursor.current {
                    largest.insert(entry.uuid)
                    try cursor.advance()
                }
            }
            bloom = largest
        }
        recent.removeAll()
        lastMiss = nil
        recentUUIDs.removeAll(keepingCapacity: true)
        recentFound.removeAll(keepingCapacity: true)
    }
}

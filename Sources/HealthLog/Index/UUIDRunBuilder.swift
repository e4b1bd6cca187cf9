import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The events of an append, given one at a time in sequence order, kept as partial
/// ``UUIDRun``s on disk for its lookups (``AppendedUUIDs``), in bounded memory however
/// many there are: every `chunkEvents` of them are sorted, folded
/// (``UUIDRunSet/combine(_:)``) and written as a partial run of their own range, and
/// partial runs are merged ``fanIn`` at a time as they pile up (a base-64 counter;
/// ``UUIDRun/writeMerged(_:directory:sealing:stop:visit:)`` merges any number in one pass,
/// a page of each at a time, on a background thread while events keep coming), so memory
/// holds one chunk and a page per run merged, and each event is rewritten about log₆₄(events / chunk) times. Fewer
/// events than a chunk are never written. Each partial run has a filter of its UUIDs
/// (``filters``), a merged run one built as it is merged. The append gives the runs up with
/// ``discard()``: its run in the store is a fingerprint run encoded from its events
/// (``UUIDFingerprintRun/Events``).
///
/// Partial runs go into the given directory, or (when none is given, as for an append)
/// into a scratch directory (``ScratchFiles/makeDirectory(name:infix:in:)``) made on the
/// first spill and removed by ``discard()`` (a killed append's is removed by the next
/// process that makes one); for an encrypted store they are sealed (``UUIDRun/sealing``), each chunk's
/// run on another thread while events keep coming (sealing a chunk costs several times
/// writing it, on the thread that sets an append's pace): lookups search its entries in
/// memory (``chunkBeingWritten``) until the next chunk's spill puts it in place.
final class UUIDRunBuilder {
    /// The events held in memory before a partial run is written, by default: 2¹⁸ events,
    /// about 25 MB while being sorted and folded (with the writer's hash of them, ~40 MB).
    /// Larger chunks mean fewer merge passes (each event is rewritten about
    /// log₆₄(events / chunk) times, see ``fanIn``) and more deletes found in memory.
    static let defaultChunkEvents = 1 << 18

    /// Events held before a partial run is written.
    private let chunkEvents: Int
    /// Where partial runs go (`nil` until a scratch directory is made).
    private var directory: String?
    /// The scratch directory this builder made (and removes), held while it is in use.
    private var scratch: ScratchDirectory?
    /// The cipher partial runs are sealed with; `nil`: in the clear.
    private let sealing: ScratchCipher?
    // Unchecked exclusivity: the builder is used by one thread at a time and none of its
    // methods re-enters it, so no two accesses overlap; the runtime check cost ~5% of an append.
    /// The events not written out yet, in sequence order.
    @exclusivity(unchecked) private var pending: [(uuid: SampleUUID, seq: UInt64, isDelete: Bool)] = []
    /// The first sequence number of the events in ``pending``.
    private var pendingFrom: UInt64
    /// Partial runs of adjacent ranges, oldest first.
    private var partials: [UUIDRun] = []
    /// The level of each partial run: 0 for a chunk, one more than its parts' for a merge
    /// of ``fanIn`` runs. Levels never rise from the oldest run to the newest.
    private var levels: [Int] = []
    /// The merge running on a background thread, if any, of the `count` runs from index `at`
    /// of ``partials``: they stay there (lookups keep reading them) until ``joinMerge()``
    /// puts the merged run, of `level`, in their place, and its filter in place of theirs.
    private var merging: (job: MergeJob, at: Int, count: Int, level: Int)?
    /// The sealing and writing of the last chunk's run, when it is sealed: at most one at a
    /// time; the run's path, or why it failed.
    private let chunkJobs = OrderedJobs<Result<String, any Error>>(qos: .userInitiated)
    /// The chunk ``chunkJobs`` is writing: its entries (sorted by UUID, as in its run) and
    /// its range. Newer than every partial run.
    private(set) var chunkBeingWritten: (entries: [UUIDRun.Entry], from: UInt64, to: UInt64)?
    /// The storage of a chunk's entries, reused from one chunk to the next (in an encrypted
    /// store, once the chunk's sealed run is in place).
    private var spareEntries: [UUIDRun.Entry] = []
    /// The storage a chunk's run is encoded in, reused from one chunk to the next.
    private var runBytes: [UInt8] = []
    /// The UUIDs of each partial run, which tell the runs a lookup of a UUID reads.
    @exclusivity(unchecked) private(set) var filters: UUIDChunkFilters
    /// How many partial runs of one level are merged into one of the next: each merge
    /// reads its inputs twice (to count, then to write), so fewer, wider merges read and
    /// write each event fewer times; a lookup reads only the runs whose filters hold its
    /// UUID (``filters``), however many runs a level has, and an append
    /// never merges its partial runs into its run in the store (that is encoded from its
    /// fingerprints), so merges only bound the open runs: an append of 10M events (305
    /// chunks of an append's 2¹⁵ events) merges four times and ends with about
    /// 50 runs, one of 100M with about 90.
    static let fanIn = 64

    /// A builder of the events from `from` (at least 1), writing partial runs into `directory`
    /// (created 0700 if absent; `nil`: a scratch directory), sealed with `sealing` or in
    /// the clear, holding at most `chunkEvents` events at a time; the runs' filters take
    /// at most `filterBudget` bytes.
    init(
        from: UInt64, directory: String?, chunkEvents: Int = defaultChunkEvents, filterBudget: Int = UUIDChunkFilters.defaultBudget,
        sealing: ScratchCipher? = nil
    ) {
        precondition(from >= 1 && chunkEvents >= 1, "sequence numbers start at 1 and a chunk holds an event")
        self.directory = directory
        self.sealing = sealing
        self.chunkEvents = chunkEvents
        pendingFrom = from
        filters = UUIDChunkFilters(budget: filterBudget)
    }

    /// Waits for a merge still running (a builder given up without ``discard()``), so its
    /// thread never outlives the builder; what it wrote stays, as the builder's other runs do.
    deinit {
        if let merge = merging { _ = merge.job.result() }
        _ = chunkJobs.next()
    }

    /// How many events are held in memory (0 right after a partial run was written).
    var pendingCount: Int { pending.count }

    /// The partial runs written so far, oldest first: together with ``chunkBeingWritten``
    /// they hold every event added and not in memory.
    var partialRuns: [UUIDRun] { partials }

    /// Adds the event `seq` (after every event added before) that adds or deletes `uuid`.
    func add(_ uuid: SampleUUID, seq: UInt64, isDelete: Bool) throws {
        pending.append((uuid, seq, isDelete))
        if pending.count >= chunkEvents { try spill(through: seq) }
    }

    /// Once no lookup follows (and no event is added): lets the runs' filters go and stops
    /// a merge in progress, whose run no lookup would read, so the append's end neither
    /// holds the filters nor waits for the merge.
    func endLookups() {
        filters = UUIDChunkFilters()
        merging?.job.stop()
    }

    /// Removes every run this builder wrote (and its scratch directory).
    func discard() {
        if let merge = merging, case .success(let merged) = merge.job.result() { unlink(merged.path) }
        merging = nil
        if case .success(let path)? = chunkJobs.next() { unlink(path) }
        chunkBeingWritten = nil
        for run in partials { unlink(run.path) }
        partials = []
        levels = []
        pending = []
        spareEntries = []
        runBytes = []
        filters = UUIDChunkFilters()
        if let scratch {
            try? scratch.remove()
            self.scratch = nil
            directory = nil
        }
    }

    /// Writes ``pending`` as the partial run `pendingFrom...last` (level 0). Merges run on
    /// a background thread, one at a time, while events keep coming: a merge that has
    /// ended is put in place first (the writer waits for one only once another ``fanIn``
    /// runs have piled up behind it, so a merge that outlasts a chunk does not stall the
    /// append and the runs stay bounded), then one more starts when ``fanIn`` runs of the
    /// lowest level are there — before this chunk's run is added, for a merge that made a
    /// level full, or after it.
    private func spill(through last: UInt64) throws {
        try joinMerge()
        try startMerge()
        let output = try workingDirectory()
        if sealing != nil { try placeChunkWritten() }
        var entries = spareEntries
        spareEntries = []
        UUIDRunSet.combine(pending, into: &entries)
        if let sealing {
            let from = pendingFrom
            let entries = entries
            chunkJobs.submit { Result { try UUIDRun.write(entries, from: from, to: last, directory: output, sealing: sealing) } }
            chunkBeingWritten = (entries, from, last)
        } else {
            let run = try open(UUIDRun.write(entries, from: pendingFrom, to: last, directory: output, buffer: &runBytes))
            run.knownPages = UUIDRun.pageChecks(runBytes, count: entries.count)
            partials.append(run)
            levels.append(0)
            spareEntries = entries
        }
        filters.add(pending.lazy.map(\.uuid), from: pendingFrom, through: last)
        pending.removeAll(keepingCapacity: true)
        pendingFrom = last + 1
        try startMerge()
    }

    /// Waits for the chunk being written (``chunkBeingWritten``), if any, and puts its run
    /// after the partial runs (level 0).
    private func placeChunkWritten() throws {
        guard let written = chunkJobs.next() else { return }
        let run = try open(written.get())
        if let entries = chunkBeingWritten?.entries { run.sealedPageHighs = UUIDRun.pageHighs(entries) }
        spareEntries = chunkBeingWritten?.entries ?? []
        chunkBeingWritten = nil
        partials.append(run)
        levels.append(0)
    }

    /// Starts merging on a thread of their own the oldest ``fanIn`` runs of the lowest level
    /// (the newest runs, since levels never rise from the oldest run to the newest) when
    /// there are that many and no merge is running; the merged run, a level higher, comes
    /// after every run of a higher level, so levels still never rise.
    private func startMerge() throws {
        guard merging == nil, let level = levels.last, let at = levels.firstIndex(of: level), levels.count - at >= Self.fanIn else { return }
        let parts = partials[at..<at + Self.fanIn]
        let output = try workingDirectory()
        let count = parts.reduce(0) { $0 + $1.count }
        let filterBytes = min(filters.byteCount(within: parts.first!.fromSeq...parts.last!.toSeq), count * UUIDChunkFilters.mergedBitsPerUUID / 8)
        merging = (MergeJob(parts.map(\.path), into: output, sealing: sealing, filterBytes: filterBytes, for: count), at, Self.fanIn, level + 1)
    }

    /// One merge of partial runs on a thread of its own (not a thread of the append's job
    /// queues, which its line preparers and compressors need; a merge of millions of entries runs for seconds
    /// and waits on the disk). It reads the runs through instances of its own, each with
    /// its descriptor and buffers, since the writer's stay in use for lookups meanwhile,
    /// and builds the merged run's filter from the entries it writes.
    private final class MergeJob {
        /// Where the thread leaves the merged run's path and filter, or why the merge failed
        /// (read only after the thread is joined, which orders the two accesses).
        private final class Box {
            /// Set by the thread before it ends.
            var outcome: Result<(path: String, filter: UUIDBloom), any Error>?
            /// Set by the thread once ``outcome`` is (read with acquiring order, it orders the two accesses too).
            let ended = Atomic<Bool>(false)
            /// Set by ``stop()``: the merge gives up at its next page of entries.
            let stopped = Atomic<Bool>(false)
        }

        /// The outcome, shared with the thread.
        private let box: Box
        /// The thread, joined by ``result()``; `nil` when none could be started (the merge
        /// then ran on the caller's thread).
        private let thread: OSThread?

        /// Starts merging the runs at `paths` into `directory`, all sealed with `sealing` or
        /// none, and a filter of `filterBytes` of the (at most `count`) merged UUIDs.
        init(_ paths: [String], into directory: String, sealing: ScratchCipher?, filterBytes: Int, for count: Int) {
            let box = Box()
            let work = {
                box.outcome = Result {
                    let runs = try paths.map { path in
                        guard let run = UUIDRun(path: path, sealing: sealing) else { throw HealthLogError(.io, "\(path): written run does not read back") }
                        return run
                    }
                    var filter = UUIDBloom(bytes: filterBytes, for: count)
                    let path = try UUIDRun.writeMerged(runs, directory: directory, sealing: sealing, stop: { box.stopped.load(ordering: .relaxed) }) {
                        filter.insert($0.uuid)
                    }
                    return (path, filter)
                }
                box.ended.store(true, ordering: .releasing)
            }
            self.box = box
            thread = OSThread.start(work)
            if thread == nil { work() }
        }

        /// Asks the merge to give up soon (its outcome is then a failure, and nothing of it stays).
        func stop() { box.stopped.store(true, ordering: .relaxed) }

        /// Whether the merge has ended (``result()`` then returns at once).
        var hasEnded: Bool { box.ended.load(ordering: .acquiring) }

        /// Waits for the merge to end; its outcome. Called once.
        func result() -> Result<(path: String, filter: UUIDBloom), any Error> {
            thread?.join()
            return box.outcome ?? .failure(HealthLogError(.io, "a UUID-run merge ended without an outcome"))
        }
    }

    /// Puts the background merge's output, if any, in place of its inputs once it has ended,
    /// or (waiting for it) once ``fanIn`` runs have been written after its inputs.
    private func joinMerge() throws {
        guard let merge = merging, merge.job.hasEnded || partials.count - (merge.at + merge.count) >= Self.fanIn else { return }
        merging = nil
        let outcome = try merge.job.result().get()
        let merged = try open(outcome.path)
        let inputs = merge.at..<merge.at + merge.count
        for run in partials[inputs] { unlink(run.path) }
        partials.replaceSubrange(inputs, with: [merged])
        levels.replaceSubrange(inputs, with: [merge.level])
        filters.replace(merged.fromSeq...merged.toSeq, with: outcome.filter)
    }

    /// The directory partial runs go into, made on first use.
    private func workingDirectory() throws -> String {
        if let directory {
            try OwnedDirectory.prepare(directory)
            return directory
        }
        let made = try ScratchFiles.makeDirectory(name: "healthlog", infix: "-uuids-")
        scratch = made
        directory = made.path
        return made.path
    }

    /// The run just written at `path`.
    private func open(_ path: String) throws -> UUIDRun {
        guard let run = UUIDRun(path: path, sealing: sealing) else { throw HealthLogError(.io, "\(path): written run does not read back") }
        return run
    }
}

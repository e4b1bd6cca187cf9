#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The store's UUID index: a chain of ``UUIDFingerprintRun`` files in `uuids/` covering
/// sequence numbers `1...coveredSeq` without gaps, merged in size tiers so a store of any
/// length holds a few runs and each append writes one small run.
///
/// A lookup is exact although the runs keep only fingerprints: each run newest first names
/// the blocks of sequence numbers that may hold the UUID, and ``LoggedUUIDs`` reads those
/// stretches of the log and compares full UUIDs, so a UUID is found exactly when an event
/// of the log adds or deletes it, and with the same sequence numbers the full index of
/// earlier builds gave.
///
/// Writer-only (it deletes and writes files). On open it keeps the longest valid chain
/// from 1 that does not pass the log's head and whose runs are bound to the log
/// (``LogBinding``), removes everything else (damaged runs, runs of an older layout,
/// leftovers of an interrupted merge, runs of a cut tail, runs copied from another store
/// or left from a log a restore cut and wrote on), and builds a run for whatever part of
/// the log the chain does not cover yet, so lookups always agree with a full scan. Runs
/// end where batches do, so each is bound to the batch ending at its last number.
final class UUIDRunSet {
    /// A UUID's add and delete sequence numbers (0 when absent).
    struct Found: Equatable {
        var addSeq: UInt64
        var deleteSeq: UInt64
    }

    /// The `uuids/` directory.
    let directory: String
    private let snapshot: LogSnapshot?
    /// The chain, oldest first.
    private(set) var runs: [UUIDFingerprintRun] = []
    /// Events per run when runs are rebuilt from the log, before tiers merge them.
    private let chunkEvents: Int
    /// The log's events, for confirming candidates (`nil` without a log).
    private let logged: LoggedUUIDs?
    /// What seals the runs of an encrypted store (`nil`: a plaintext store).
    private let cipher: StoreCipher?
    /// The runs checked before by the same handle, taken as they are (`nil`: every run is
    /// opened and checked).
    private let checked: CheckedUUIDRuns?

    /// The last sequence number the runs cover.
    var coveredSeq: UInt64 { runs.last?.toSeq ?? 0 }

    /// Opens the runs of `layout`, sealed with `cipher` (the store's; `nil` for a plaintext
    /// store), taking those in `checked` as they are, and brings them up to `snapshot`'s
    /// head, rebuilding what they miss `chunkEvents` events at a time.
    init(
        _ layout: StoreLayout, snapshot: LogSnapshot?, cipher: StoreCipher?, checked: CheckedUUIDRuns? = nil,
        chunkEvents: Int = UUIDRunBuilder.defaultChunkEvents
    ) throws {
        directory = layout.directory + "/uuids"
        self.snapshot = snapshot
        self.chunkEvents = chunkEvents
        self.cipher = cipher
        self.checked = checked
        logged = snapshot.map(LoggedUUIDs.init)
        runs = Self.openChain(directory, snapshot: snapshot, cipher: cipher, checked: checked, removingOthers: true)
        try rebuild(through: snapshot?.headSeq ?? 0)
        checked?.remember(runs, in: directory)
    }

    /// The chain in `directory`: from 1, at each step the longest run that opens (with
    /// `cipher`, for an encrypted store; taken from `checked` when it holds the file
    /// unchanged) and is bound to `snapshot`'s log at its last number, up to the log's head
    /// (none without a log). With `removingOthers`, every other run file is removed (a
    /// writer's cleanup).
    static func openChain(
        _ directory: String, snapshot: LogSnapshot?, cipher: StoreCipher?, checked: CheckedUUIDRuns? = nil, removingOthers: Bool
    ) -> [UUIDFingerprintRun] {
        let head = snapshot?.headSeq ?? 0
        var candidates = ((try? DirectoryListing.names(in: directory)) ?? []).compactMap { name in
            UUIDFingerprintRun.range(ofFileName: name).map { (range: $0, name: name) }
        }
        candidates.sort { ($0.range.lowerBound, $1.range.upperBound) < ($1.range.lowerBound, $0.range.upperBound) }
        var next: UInt64 = 1
        var keep: Set<String> = []
        var chain: [UUIDFingerprintRun] = []
        for candidate in candidates where candidate.range.lowerBound == next && candidate.range.upperBound <= head {
            let path = directory + "/" + candidate.name
            let opened =
                checked.map { $0.run(at: path, sealed: cipher != nil) { UUIDFingerprintRun(path: path, cipher: cipher) } }
                ?? UUIDFingerprintRun(path: path, cipher: cipher)
            guard let run = opened, run.fromSeq == candidate.range.lowerBound,
                run.toSeq == candidate.range.upperBound, run.binding == snapshot?.binding(at: run.toSeq)
            else { continue }
            chain.append(run)
            keep.insert(candidate.name)
            next = run.toSeq + 1
        }
        if removingOthers {
            for candidate in candidates where !keep.contains(candidate.name) { unlink(directory + "/" + candidate.name) }
        }
        return chain
    }

    /// Builds runs for the events after ``coveredSeq`` up to `last` (the head, where a
    /// batch ends) from the log, a run at the end of the batch that brings it to
    /// ``chunkEvents`` events, each bound to that batch, merging size tiers as they come.
    private func rebuild(through last: UInt64) throws {
        guard let snapshot, last > coveredSeq else { return }
        try OwnedDirectory.prepare(directory)
        var from = coveredSeq + 1
        var events = try UUIDFingerprintRun.Events(sealedLike: cipher)
        var lines = BatchLines()
        for batch in try snapshot.batches(after: from - 1) where batch.header.firstSeq <= last {
            try lines.load(snapshot, batch, groups: Array(batch.header.groups.indices))
            let dropped = try snapshot.fullHeader(of: batch).dropped
            try lines.withBytes { raw in
                for event in lines.uuidEvents(dropped, in: raw) where event.seq >= from && event.seq <= last {
                    guard let uuid = event.uuid else {
                        throw HealthLogError(.corrupt, "\(snapshot.segments[batch.segment].location(batch.offset)): event \(event.seq) has no readable uuid")
                    }
                    try events.add(uuid, seq: event.seq)
                }
            }
            let end = batch.header.lastSeq
            if events.count >= chunkEvents, end < last {
                try add(events.write(from: from, to: end, binding: LogBinding(storeID: snapshot.meta.storeID, lastBatch: batch.header), cipher: cipher, directory: directory))
                events = try UUIDFingerprintRun.Events(sealedLike: cipher)
                from = end + 1
            }
        }
        guard let binding = snapshot.binding(at: last) else {
            throw HealthLogError(.corrupt, "no committed batch ends at the log's head, event \(last)")
        }
        try add(events.write(from: from, to: last, binding: binding, cipher: cipher, directory: directory))
    }

    /// What the log holds of `uuid` (its add and delete sequence numbers), or `nil` when no
    /// event adds or deletes it.
    ///
    /// - Throws: ``HealthLogError/Code/corrupt`` when a batch the lookup reads is damaged.
    func lookup(_ uuid: SampleUUID) throws -> Found? {
        guard let logged else { return nil }
        return try Self.search(uuid, in: runs, logged)
    }

    /// The stored line (without newline) of the add event `seq`, or `nil` if there is none:
    /// after a lookup found it, read from the batch the lookup just read.
    func addLine(seq: UInt64) throws -> [UInt8]? {
        try logged?.addLine(seq: seq)
    }

    /// What `runs` (a chain, oldest first) and the log of `logged` say of `uuid`: newest run
    /// first, the largest add and delete of it in the run's candidate blocks, until an add is found.
    ///
    /// Every run's candidates are found before any is confirmed: a run's directory entry
    /// and fields are reads from memory the cache rarely holds, and done one run after the
    /// other without a confirmation between, the reads of the runs overlap instead of
    /// each waiting for the one before. The answers are those of confirming run by run.
    /// Up to `onStack` candidates are kept on the stack (tests make it small), more on the heap.
    ///
    /// `skipping`, an event of `uuid` known to be in the log, is left unconfirmed (and out of
    /// the answer) where the run says it is the only event of the fingerprint in its block:
    /// a compaction's lookup of a delete's add then reads the add's batch only.
    static func search(_ uuid: SampleUUID, in runs: [UUIDFingerprintRun], _ logged: LoggedUUIDs, skipping known: UInt64? = nil, onStack: Int = 8) throws -> Found? {
        let fingerprint = UUIDFingerprint.of(uuid)
        let searched = try withUnsafeTemporaryAllocation(of: Candidate.self, capacity: onStack) { buffer in
            try search(uuid, fingerprint: fingerprint, in: runs, logged, skipping: known, room: buffer)
        }
        if case .answered(let found) = searched { return found }
        // More candidates than the stack holds (many UUIDs sharing a fingerprint): again with room for all.
        var count = 0
        for run in runs { run.forEachCandidateBlock(fingerprint: fingerprint) { _ in count += 1 } }
        let buffer = UnsafeMutableBufferPointer<Candidate>.allocate(capacity: count)
        defer { buffer.deallocate() }
        guard case .answered(let found) = try search(uuid, fingerprint: fingerprint, in: runs, logged, skipping: known, room: buffer) else {
            preconditionFailure("room for every candidate")
        }
        return found
    }

    /// Whether `run`'s candidate `block`, naming `keys` events of the fingerprint, holds only
    /// the event `known` (of the UUID looked up, known to be in the log): its one key is
    /// that event, so the block has nothing to confirm.
    private static func holdsOnly(_ known: UInt64?, _ run: UUIDFingerprintRun, block: UInt64, keys: Int) -> Bool {
        guard keys == 1, let known else { return false }
        return run.seqs(ofBlock: block).contains(known)
    }

    /// A candidate block of a run: the run's index in the chain and the block.
    typealias Candidate = (run: Int, block: UInt64)

    /// What a search with room for some candidates did.
    private enum Searched {
        /// It found the answer.
        case answered(Found?)
        /// The candidates did not fit.
        case noRoom
    }

    /// ``search(_:in:_:skipping:onStack:)`` with `room` for the candidates.
    private static func search(
        _ uuid: SampleUUID, fingerprint: UInt32, in runs: [UUIDFingerprintRun], _ logged: LoggedUUIDs, skipping known: UInt64?,
        room: UnsafeMutableBufferPointer<Candidate>
    ) throws -> Searched {
        var count = 0
        for k in runs.indices.reversed() {
            runs[k].forEachCandidateBlock(fingerprint: fingerprint) { block in
                if count < room.count { (room.baseAddress! + count).initialize(to: (k, block)) }
                count += 1
            }
        }
        for run in runs where run.isDamaged { try run.checkIntact() }
        guard count <= room.count else { return .noRoom }
        var found = Found(addSeq: 0, deleteSeq: 0)
        var at = 0
        while at < count {
            let k = room[at].run
            // Candidate blocks come in order; a block named twice holds two of the run's events.
            while at < count, room[at].run == k {
                let block = room[at].block
                var keys = 0
                while at < count, room[at].run == k, room[at].block == block {
                    keys += 1
                    at += 1
                }
                if holdsOnly(known, runs[k], block: block, keys: keys) { continue }
                let events = try logged.events(of: uuid, in: runs[k].seqs(ofBlock: block), expected: keys)
                found.addSeq = max(found.addSeq, events.addSeq)
                found.deleteSeq = max(found.deleteSeq, events.deleteSeq)
            }
            if found.addSeq != 0 { break }
        }
        return .answered(found.addSeq == 0 && found.deleteSeq == 0 ? nil : found)
    }

    /// The lookups of `uuids`, in their order, made in the order of the log stretches they
    /// read first, so that lookups of many UUIDs present in the store (a compaction's
    /// deletes) read each batch about once instead of once a UUID. `known`, when given,
    /// holds beside each UUID an event of it known to be in the log (a compaction's delete),
    /// which the lookup does not read again (see ``search(_:in:_:skipping:onStack:)``) nor
    /// order by, so the lookups of many deletes read their adds' batches in order.
    func lookup(all uuids: [SampleUUID], known: [UInt64]? = nil) throws -> [Found?] {
        guard let logged else { return uuids.map { _ in nil } }
        precondition(known.map { $0.count == uuids.count } ?? true, "a known event for each UUID")
        var order: [(position: Int, at: Int)] = []
        order.reserveCapacity(uuids.count)
        for (at, uuid) in uuids.enumerated() {
            var first = Int.max
            runs: for run in runs.reversed() {
                // Blocks come ascending: a block named twice holds two of the run's events.
                let blocks = run.candidateBlocks(uuid)
                var k = 0
                while k < blocks.count {
                    var end = k + 1
                    while end < blocks.count, blocks[end] == blocks[k] { end += 1 }
                    if !Self.holdsOnly(known?[at], run, block: blocks[k], keys: end - k) {
                        first = try logged.batchOrder(of: run.seqs(ofBlock: blocks[k]).lowerBound)
                        break runs
                    }
                    k = end
                }
            }
            order.append((first, at))
        }
        order.sort { ($0.position, $0.at) < ($1.position, $1.at) }
        var out = [Found?](repeating: nil, count: uuids.count)
        for (_, at) in order { out[at] = try Self.search(uuids[at], in: runs, logged, skipping: known?[at]) }
        return out
    }

    /// Adds `run` (just built in ``directory`` for the events after ``coveredSeq``) to the
    /// chain, then merges size tiers.
    private func add(_ run: UUIDFingerprintRun) throws {
        precondition(run.fromSeq == coveredSeq + 1, "a run continues the chain")
        runs.append(run)
        try mergeTiers()
    }

    /// Adds the append's `run` (a fingerprint run written in ``directory`` for the events
    /// after ``coveredSeq``) to the chain, then merges size tiers.
    func adopt(_ run: UUIDFingerprintRun, written: (FaultPlan.Point) -> Void = { _ in }) throws {
        precondition(run.fromSeq == coveredSeq + 1, "a run continues the chain")
        runs.append(run)
        written(.uuidRunWritten)
        try mergeTiers()
    }

    /// Merges size tiers: while the run before the newest holds at most four times its
    /// keys, the two are merged.
    private func mergeTiers() throws {
        while runs.count >= 2, runs[runs.count - 2].count <= 4 * max(runs[runs.count - 1].count, 1) {
            let newer = runs.removeLast()
            let older = runs.removeLast()
            let merged = try UUIDFingerprintRun.writeMerged([older, newer], cipher: cipher, directory: directory)
            unlink(older.path)
            unlink(newer.path)
            runs.append(merged)
        }
        checked?.remember(runs, in: directory)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The store's UUID index: a chain of ``UUIDRun`` files in `uuids/` covering sequence
/// numbers `1...coveredSeq` without gaps, merged in size tiers so a store of any length
/// holds a few runs and each append writes one small run.
///
/// Writer-only (it deletes and writes files). On open it keeps the longest valid chain
/// from 1 that does not pass the log's head, removes everything else (damaged runs,
/// leftovers of an interrupted merge, runs of a cut tail), and builds a run for whatever
/// part of the log the chain does not cover yet, so lookups always agree with a full scan.
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
    private(set) var runs: [UUIDRun] = []
    /// Events per partial run when a run is rebuilt from the log (see ``UUIDRunBuilder``).
    private let chunkEvents: Int

    /// The last sequence number the runs cover.
    var coveredSeq: UInt64 { runs.last?.toSeq ?? 0 }

    /// Opens the runs of `layout` and brings them up to `snapshot`'s head, rebuilding what
    /// they miss `chunkEvents` events at a time.
    init(_ layout: StoreLayout, snapshot: LogSnapshot?, chunkEvents: Int = UUIDRunBuilder.defaultChunkEvents) throws {
        directory = layout.directory + "/uuids"
        self.snapshot = snapshot
        self.chunkEvents = chunkEvents
        try openChain()
        try catchUp()
    }

    private func openChain() throws {
        let head = snapshot?.headSeq ?? 0
        var candidates = try DirectoryListing.names(in: directory).compactMap { name in
            UUIDRun.range(ofFileName: name).map { (range: $0, name: name) }
        }
        candidates.sort { ($0.range.lowerBound, $1.range.upperBound) < ($1.range.lowerBound, $0.range.upperBound) }
        var next: UInt64 = 1
        var keep: Set<String> = []
        for candidate in candidates where candidate.range.lowerBound == next && candidate.range.upperBound <= head {
            guard let run = UUIDRun(path: directory + "/" + candidate.name), run.fromSeq == candidate.range.lowerBound,
                run.toSeq == candidate.range.upperBound
            else { continue }
            runs.append(run)
            keep.insert(candidate.name)
            next = run.toSeq + 1
        }
        for candidate in candidates where !keep.contains(candidate.name) { unlink(directory + "/" + candidate.name) }
    }

    /// Builds a run for the part of the log past ``coveredSeq``.
    private func catchUp() throws {
        try rebuild(through: snapshot?.headSeq ?? 0)
    }

    /// Builds a run for the events after ``coveredSeq`` up to `last`, from the log, in
    /// bounded memory (``UUIDRunBuilder``), then merges size tiers.
    private func rebuild(through last: UInt64) throws {
        guard let snapshot, last > coveredSeq else { return }
        let from = coveredSeq + 1
        let builder = UUIDRunBuilder(from: from, directory: directory, chunkEvents: chunkEvents)
        var lines = BatchLines()
        for batch in try snapshot.batches(after: from - 1) where batch.header.firstSeq <= last {
            try lines.load(snapshot, batch, groups: Array(batch.header.groups.indices))
            try lines.withBytes { raw in
                for event in lines.uuidEvents(batch.header, in: raw) where event.seq >= from && event.seq <= last {
                    guard let uuid = event.uuid else {
                        throw HealthLogError(.corrupt, "\(snapshot.segments[batch.segment].location(batch.offset)): event \(event.seq) has no readable uuid")
                    }
                    try builder.add(uuid, seq: event.seq, isDelete: event.isDelete)
                }
            }
        }
        runs.append(try builder.finish(through: last))
        try mergeTiers { try self.rebuild(through: last) }
    }

    /// Sorts `(uuid, seq, isDelete)` by UUID and folds each UUID's add and delete into one entry.
    static func combine(_ events: [(uuid: SampleUUID, seq: UInt64, isDelete: Bool)]) -> [UUIDRun.Entry] {
        let sorted = sortedByUUID(events)
        var out: [UUIDRun.Entry] = []
        out.reserveCapacity(sorted.count)
        for event in sorted {
            if out.last?.uuid != event.uuid { out.append(UUIDRun.Entry(uuid: event.uuid, addSeq: 0, deleteSeq: 0)) }
            if event.isDelete { out[out.count - 1].deleteSeq = event.seq } else { out[out.count - 1].addSeq = event.seq }
        }
        return out
    }

    /// `events` sorted by UUID, those of one UUID in their order: spread (in order) into
    /// 2¹⁶ buckets by the UUID's top 16 bits, which random UUIDs fill evenly, then each
    /// bucket sorted — a few passes over the events instead of a comparison sort's
    /// log₂(n). Small inputs are simply sorted.
    private static func sortedByUUID(_ events: [(uuid: SampleUUID, seq: UInt64, isDelete: Bool)]) -> [(uuid: SampleUUID, seq: UInt64, isDelete: Bool)] {
        guard events.count > 4096 else { return events.sorted { $0.uuid < $1.uuid } }
        var starts = [Int](repeating: 0, count: (1 << 16) + 1)
        for event in events { starts[Int(event.uuid.high >> 48) + 1] += 1 }
        for bucket in 1..<starts.count { starts[bucket] += starts[bucket - 1] }
        var next = starts
        var out = events
        for event in events {
            let bucket = Int(event.uuid.high >> 48)
            out[next[bucket]] = event
            next[bucket] += 1
        }
        for bucket in 0..<(1 << 16) where starts[bucket + 1] - starts[bucket] > 1 {
            out[starts[bucket]..<starts[bucket + 1]].sort { $0.uuid < $1.uuid }
        }
        return out
    }

    /// What the runs know of `uuid`; a damaged run is dropped and rebuilt, then the lookup retried.
    func lookup(_ uuid: SampleUUID) throws -> Found? {
        do {
            return try search(uuid)
        } catch let error as HealthLogError where error.code == .corrupt {
            try repair()
            return try search(uuid)
        }
    }

    private func search(_ uuid: SampleUUID) throws -> Found? {
        var found = Found(addSeq: 0, deleteSeq: 0)
        for run in runs.reversed() {
            guard let entry = try run.lookup(uuid) else { continue }
            if entry.addSeq != 0 { found.addSeq = entry.addSeq }
            if entry.deleteSeq != 0 { found.deleteSeq = entry.deleteSeq }
            if found.addSeq != 0 { break }
        }
        return found.addSeq == 0 && found.deleteSeq == 0 ? nil : found
    }

    /// Drops the first damaged run and every later one, then catches up from the log.
    private func repair() throws {
        if dropDamaged() { try catchUp() }
    }

    /// Removes the first damaged run and every later one; returns whether there was one.
    /// A sound run in `sparing` leaves the chain with the others but keeps its file.
    private func dropDamaged(sparing: UUIDRun? = nil) -> Bool {
        guard let bad = runs.firstIndex(where: \.isDamaged) else { return false }
        for run in runs[bad...] where !(run === sparing && !run.isDamaged) { unlink(run.path) }
        runs.removeSubrange(bad...)
        return true
    }

    /// Adds `run` (just built in ``directory`` for the events after ``coveredSeq``), then
    /// merges size tiers. Should a merge meet a damaged run, the runs from it on are
    /// dropped, what they covered before `run` is rebuilt from the log, and `run` (kept
    /// on disk) is added again.
    func adopt(_ run: UUIDRun, written: (FaultPlan.Point) -> Void = { _ in }) throws {
        precondition(run.fromSeq == coveredSeq + 1, "a run continues the chain")
        runs.append(run)
        written(.uuidRunWritten)
        try mergeTiers(sparing: run) {
            try self.rebuild(through: run.fromSeq - 1)
            guard self.coveredSeq == run.fromSeq - 1, !run.isDamaged else {
                unlink(run.path)
                throw HealthLogError(.corrupt, "\(self.directory): the UUID index cannot be rebuilt up to \(run.fromSeq - 1)")
            }
            try self.adopt(run, written: written)
        }
    }

    /// Merges size tiers: while the run before the newest is at most four times its size,
    /// the two are merged (streaming). A run found damaged on disk is dropped with every
    /// later one (the file of `sparing` is kept), and `redo` then builds again what they covered.
    private func mergeTiers(sparing: UUIDRun? = nil, redo: () throws -> Void) throws {
        while runs.count >= 2, runs[runs.count - 2].count <= 4 * max(runs[runs.count - 1].count, 1) {
            let mergedPath: String
            do {
                mergedPath = try UUIDRun.writeMerged([runs[runs.count - 2], runs[runs.count - 1]], directory: directory)
            } catch let error as HealthLogError where error.code == .corrupt {
                guard dropDamaged(sparing: sparing) else { throw error }
                return try redo()
            }
            let newer = runs.removeLast()
            let older = runs.removeLast()
            guard let mergedRun = UUIDRun(path: mergedPath) else { throw HealthLogError(.io, "\(mergedPath): merged run does not read back") }
            unlink(older.path)
            unlink(newer.path)
            runs.append(mergedRun)
        }
    }

    /// Merges two sorted entry lists, folding a UUID present in both.
    static func merge(_ a: [UUIDRun.Entry], _ b: [UUIDRun.Entry]) -> [UUIDRun.Entry] {
        var out: [UUIDRun.Entry] = []
        out.reserveCapacity(a.count + b.count)
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            if j == b.count || (i < a.count && a[i].uuid < b[j].uuid) {
                out.append(a[i])
                i += 1
            } else if i == a.count || b[j].uuid < a[i].uuid {
                out.append(b[j])
                j += 1
            } else {
                out.append(UUIDRun.Entry(uuid: a[i].uuid, addSeq: max(a[i].addSeq, b[j].addSeq), deleteSeq: max(a[i].deleteSeq, b[j].deleteSeq)))
                i += 1
                j += 1
            }
        }
        return out
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds the ``UUIDRun`` of the events `from...to` in bounded memory, however many there
/// are: events are given one at a time in sequence order; every `chunkEvents` of them are
/// sorted, folded (``UUIDRunSet/combine(_:)``) and written as a partial run of their own
/// range into `directory`, and partial runs are merged pairwise as they pile up
/// (``UUIDRun/writeMerged(_:_:directory:)``, which streams a block at a time), so memory
/// holds one chunk and a few blocks, and each event is rewritten O(log(events / chunk))
/// times. ``finish()`` merges what is left into the one run covering `from...to`.
///
/// Partial runs are valid runs of their ranges, so a crash that leaves some behind leaves
/// nothing wrong, only files the next ``UUIDRunSet`` open removes or keeps as a chain.
final class UUIDRunBuilder {
    /// The events held in memory before a partial run is written, by default: 2¹⁷ events,
    /// about 12 MB while being sorted and folded.
    static let defaultChunkEvents = 1 << 17

    private let from: UInt64
    private let to: UInt64
    private let directory: String
    private let chunkEvents: Int
    private var pending: [(uuid: SampleUUID, seq: UInt64, isDelete: Bool)] = []
    /// The first sequence number of the events in ``pending``.
    private var pendingFrom: UInt64
    /// Partial runs of adjacent ranges, oldest first, each larger than the next.
    private var partials: [UUIDRun] = []

    /// A builder of the run covering `from...to` (`from <= to`), writing into `directory`
    /// (created 0700 if absent), holding at most `chunkEvents` events at a time.
    init(from: UInt64, to: UInt64, directory: String, chunkEvents: Int = defaultChunkEvents) throws {
        precondition(from >= 1 && from <= to && chunkEvents >= 1, "a run covers a non-empty range and a chunk holds an event")
        self.from = from
        self.to = to
        self.directory = directory
        self.chunkEvents = chunkEvents
        pendingFrom = from
        if mkdir(directory, 0o700) != 0, errno != EEXIST {
            let err = errno
            throw HealthLogError(.io, "cannot create \(directory): \(describeErrno(err))", errno: err)
        }
        pending.reserveCapacity(min(chunkEvents, Int(min(to - from + 1, UInt64(Int.max)))))
    }

    /// Adds the event `seq` (in `from...to`, after every event added before) that adds or
    /// deletes `uuid`.
    func add(_ uuid: SampleUUID, seq: UInt64, isDelete: Bool) throws {
        pending.append((uuid, seq, isDelete))
        if pending.count >= chunkEvents, seq < to { try spill(through: seq) }
    }

    /// Writes the events still held and merges every partial run into one; returns the run
    /// covering `from...to`, named for that range in `directory`.
    func finish() throws -> UUIDRun {
        if pendingFrom <= to { try spill(through: to) }
        while partials.count > 1 { try mergeNewest() }
        return partials[0]
    }

    /// Removes every file this builder wrote (after a failure, or for a scratch build).
    func discard() {
        for run in partials { unlink(run.path) }
        partials = []
    }

    /// Writes ``pending`` as the partial run `pendingFrom...last`, then merges while the
    /// run before the newest is at most one and a half times its size (a binary counter,
    /// with room for the UUIDs a merge folds together).
    private func spill(through last: UInt64) throws {
        let path = try UUIDRun.write(UUIDRunSet.combine(pending), from: pendingFrom, to: last, directory: directory)
        guard let run = UUIDRun(path: path) else { throw HealthLogError(.io, "\(path): written run does not read back") }
        partials.append(run)
        pending.removeAll(keepingCapacity: true)
        pendingFrom = last + 1
        while partials.count >= 2, 2 * partials[partials.count - 2].count <= 3 * max(partials[partials.count - 1].count, 1) {
            try mergeNewest()
        }
    }

    /// Replaces the two newest partial runs with their merge.
    private func mergeNewest() throws {
        let newer = partials.removeLast()
        let older = partials.removeLast()
        let path = try UUIDRun.writeMerged(older, newer, directory: directory)
        guard let merged = UUIDRun(path: path) else { throw HealthLogError(.io, "\(path): merged run does not read back") }
        unlink(older.path)
        unlink(newer.path)
        partials.append(merged)
    }
}

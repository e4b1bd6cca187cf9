import HealthLog

/// The events of one importing append, gathered from the spill or as they are mapped: their lines with what the
/// mapping prepared of them, their UUIDs, and the events left out because the store holds
/// them. Filled by one thread and then handed whole to the one that appends it
/// (``SpillAppendFeed``, ``LiveAppendFeed``); a class, so its buffers are reused from append to append.
final class GatheredAppend: @unchecked Sendable {
    // Sendable by hand: one thread at a time owns an instance; it changes hands only
    // through a `HandoffQueue`, whose mutex orders the accesses.

    /// The lines, with what the mapping prepared of them.
    private(set) var lines = ImportPreparedLines()
    /// The events gathered, those left out included.
    private(set) var events = 0
    /// Events the store already holds, left out of ``lines``: live, deleted.
    private(set) var present = (live: 0, deleted: 0)
    /// The UUIDs of the adds in ``lines``.
    private(set) var uuids: [SampleUUID] = []
    /// Whether every line was an add found unused in the store.
    private(set) var checked = true
    /// Whether a line was given without its UUID (a delete).
    private(set) var untracked = false
    /// The bytes of spill records read through this append's last event, for progress.
    var spilledBytesDone = 0

    /// Nothing gathered yet.
    init() {}

    /// The bytes of the lines gathered: ``lines``' count, kept here (each line adds its
    /// bytes to it), since reading it from ``lines`` copied them, every buffer retained and
    /// released, for every event.
    private(set) var byteCount = 0

    /// Adds one add's line (newline included) with what the mapping prepared of it, if
    /// anything; `checkedUnused` when the store's UUID index showed its `uuid` unused.
    func add(_ line: UnsafeRawBufferPointer, prepared: UnsafeRawBufferPointer?, uuid: SampleUUID, checkedUnused: Bool) {
        uuids.append(uuid)
        if !checkedUnused { checked = false }
        lines.add(line, prepared: prepared)
        byteCount += line.count
        events += 1
    }

    /// Adds one event line (newline included) not given with its UUID, checked in full.
    func add(_ line: [UInt8]) {
        checked = false
        untracked = true
        line.withUnsafeBytes { lines.add($0, prepared: nil) }
        byteCount += line.count
        events += 1
    }

    /// Counts an event the store holds (live, or deleted when `deleted`), left out.
    func addPresent(deleted: Bool) {
        if deleted { present.deleted += 1 } else { present.live += 1 }
        events += 1
    }

    /// Whether the append is due: `eventsPerAppend` events, or `maxBytes` of lines.
    func isFull(eventsPerAppend: Int, maxBytes: Int) -> Bool {
        events >= eventsPerAppend || byteCount >= maxBytes
    }

    /// Empties it for the next append, keeping the memory.
    func removeAll() {
        lines.removeAll()
        byteCount = 0
        events = 0
        present = (0, 0)
        uuids.removeAll(keepingCapacity: true)
        checked = true
        untracked = false
        spilledBytesDone = 0
    }
}

import HealthLog

/// The writing pass of an import: gathers event lines and appends them in appends of a
/// bounded number of events, in the importing mode where an add whose UUID was ever used
/// is skipped and counted as already present.
struct ImportWriter {
    let store: HealthStore
    let eventsPerAppend: Int
    /// The appends' summaries added up; `anchor` is the last append's.
    private(set) var summary = AppendSummary()
    /// How many appends wrote something.
    private(set) var appends = 0
    private var pending: [UInt8] = []
    private var pendingEvents = 0
    /// Events of the next append the store already holds, left out of its lines: live, deleted.
    private var pendingPresent = (live: 0, deleted: 0)

    init(store: HealthStore, eventsPerAppend: Int) {
        self.store = store
        self.eventsPerAppend = max(1, eventsPerAppend)
    }

    /// Adds one event line (newline included) to the next append.
    mutating func add(_ line: [UInt8]) throws {
        pending.append(contentsOf: line)
        pendingEvents += 1
    }

    /// Adds one event line (newline included) to the next append.
    mutating func add(_ line: UnsafeRawBufferPointer) throws {
        pending.append(contentsOf: line)
        pendingEvents += 1
    }

    /// Adds to the next append an event whose UUID the store has already used, without its
    /// line: the append would skip it and count it as already present (`deleted` false)
    /// or deleted earlier. It counts toward the append size as its line would, so the
    /// appends hold the same events.
    mutating func addPresent(deleted: Bool) {
        if deleted { pendingPresent.deleted += 1 } else { pendingPresent.live += 1 }
        pendingEvents += 1
    }

    /// The bytes gathered at most before an append, whatever the count: route lines can
    /// be megabytes each.
    static let maxPendingBytes = 32 << 20

    /// Appends what is gathered when it reaches the append size (in events or bytes).
    /// Called only between top-level elements, so a correlation and its members share an
    /// append.
    mutating func flushIfFull() throws {
        if pendingEvents >= eventsPerAppend || pending.count >= Self.maxPendingBytes { try flush() }
    }

    /// Appends what is gathered, all-or-nothing.
    mutating func flush() throws {
        guard pendingEvents > 0 else { return }
        let done: AppendSummary
        do {
            done = try store.appendImporting(ndjson: pending)
        } catch let error as HealthLogError where appends > 0 {
            var error = error
            error.message += " (this import's first \(appends) appends were written; importing again completes it)"
            throw error
        }
        pending.removeAll(keepingCapacity: true)
        pendingEvents = 0
        appends += 1
        summary.alreadyPresent += pendingPresent.live
        summary.deletedEarlier += pendingPresent.deleted
        pendingPresent = (0, 0)
        summary.added += done.added
        summary.deleted += done.deleted
        summary.replaced += done.replaced
        summary.skipped += done.skipped
        summary.alreadyPresent += done.alreadyPresent
        summary.deletedEarlier += done.deletedEarlier
        summary.anchor = done.anchor
        if summary.recoveredTail == nil { summary.recoveredTail = done.recoveredTail }
    }
}

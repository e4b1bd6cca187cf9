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
    /// How many of them vouched for their adds.
    private(set) var vouchedAppends = 0
    /// Whether the appends made stay when a later one fails (the store at the target), so an
    /// error says how many were written; not for a new store being built
    /// (``ImportStaging``), which a failure removes whole.
    var appendsOutliveFailure = true
    /// The next append's events, when they are added one by one (``add(_:)``).
    private var pending = GatheredAppend()
    /// The store's head as of which the lines' UUIDs were found unused, moved on by each
    /// append; `nil` when they were not looked up (then no append vouches for them).
    private var unusedAsOfHead: UInt64?
    /// The UUIDs of the lines earlier appends were given, as a filter (about a byte a UUID,
    /// 2% false positives, at most ``maxGivenFilterBytes``): an append holding one that may
    /// be among them again vouches for its other adds only, and this one is looked up in
    /// the store. A false positive costs a look-up, never a wrong answer.
    private var given: UUIDBloom?
    /// The most bytes the filter of given UUIDs takes: a byte a UUID for an export of four
    /// million records; past that, more of its lines are looked up, in the same memory.
    static let maxGivenFilterBytes = 4 << 20

    /// The bytes the filter of given UUIDs takes (0 when lines are not looked up).
    var givenFilterBytes: Int { given?.byteCount ?? 0 }

    /// A writer appending to `store` in appends of `eventsPerAppend` events; lines added as
    /// found unused were found so as of head `unusedAsOfHead`; about `expectedLines` lines
    /// will be added (the filter of their UUIDs is sized for them).
    init(store: HealthStore, eventsPerAppend: Int, unusedAsOfHead: UInt64? = nil, expectedLines: Int = 0) {
        self.store = store
        self.eventsPerAppend = max(1, eventsPerAppend)
        self.unusedAsOfHead = unusedAsOfHead
        if unusedAsOfHead != nil { given = UUIDBloom(bytes: min(max(expectedLines, 64), Self.maxGivenFilterBytes), for: expectedLines) }
    }

    /// Adds one add's line (newline included) to the next append, with what the mapping
    /// prepared of it (``ExportMapper/Event/prepared``), if anything; `checkedUnused` when the
    /// store's UUID index showed its `uuid` unused as of ``unusedAsOfHead``. An append whose
    /// lines all were vouches for them, but for those given to an earlier append
    /// (``HealthStore/appendImporting(prepared:addsUnusedAsOfHead:mayBeUsed:)``).
    mutating func add(_ line: UnsafeRawBufferPointer, prepared: UnsafeRawBufferPointer?, uuid: SampleUUID, checkedUnused: Bool) throws {
        pending.add(line, prepared: prepared, uuid: uuid, checkedUnused: checkedUnused)
    }

    /// Adds one event line (newline included) to the next append, checked in full.
    mutating func add(_ line: [UInt8]) throws {
        pending.add(line)
    }

    /// Adds to the next append an event whose UUID the store has already used, without its
    /// line: the append would skip it and count it as already present (`deleted` false)
    /// or deleted earlier. It counts toward the append size as its line would, so the
    /// appends hold the same events.
    mutating func addPresent(deleted: Bool) {
        pending.addPresent(deleted: deleted)
    }

    /// The bytes gathered at most before an append, whatever the count: route lines can
    /// be megabytes each, and two appends' lines with their prepared events must stay
    /// well inside the import's memory.
    static let maxPendingBytes = 4 << 20

    /// Appends what is gathered when it reaches the append size (in events or bytes).
    /// Called only between top-level elements, so a correlation and its members share an
    /// append.
    mutating func flushIfFull() throws {
        if pending.isFull(eventsPerAppend: eventsPerAppend, maxBytes: Self.maxPendingBytes) { try flush() }
    }

    /// Appends what is gathered, all-or-nothing.
    mutating func flush() throws {
        try append(pending)
        pending.removeAll()
    }

    /// Appends the events `gathered` holds, all-or-nothing, as the events added one by one
    /// would have been (nothing when it holds none); `gathered` is left as it is.
    mutating func append(_ gathered: GatheredAppend) throws {
        try ImportStop.check()
        guard gathered.events > 0 else { return }
        let done: AppendSummary
        let vouched = unusedAsOfHead != nil && gathered.checked
        var mayBeUsed: Set<SampleUUID> = []
        if vouched {
            for uuid in gathered.uuids where given?.mayContain(uuid) == true { mayBeUsed.insert(uuid) }
        }
        do {
            done = try store.appendImporting(prepared: gathered.lines, addsUnusedAsOfHead: vouched ? unusedAsOfHead : nil, mayBeUsed: mayBeUsed)
        } catch let error as HealthLogError where appends > 0 && appendsOutliveFailure {
            var error = error
            error.message += " (this import's first \(appends) appends were written; importing again completes it)"
            throw error
        }
        if unusedAsOfHead != nil, !gathered.untracked {
            // What this append may have used is in `given` now: the rest stays unused as of its head.
            for uuid in gathered.uuids { given?.insert(uuid) }
            unusedAsOfHead = done.anchor.seq
        } else {
            unusedAsOfHead = nil
        }
        appends += 1
        if vouched { vouchedAppends += 1 }
        summary.alreadyPresent += gathered.present.live
        summary.deletedEarlier += gathered.present.deleted
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

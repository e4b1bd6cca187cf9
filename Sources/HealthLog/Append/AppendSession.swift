/// One append: reads event lines, validates each alone and against the store, encodes
/// the events into batches and writes them; ``finish()`` commits, and any error rolls the
/// whole append back so the store's files are byte-identical to before.
///
/// Sequence numbers are given in input order; a sync-identifier replacement becomes a
/// delete of the old sample followed by the add.
///
/// An importing session (``skipsUsedUUIDs``) skips and counts an add whose UUID was ever
/// used, instead of refusing it, and takes correlation members from anywhere in the store:
/// that is how an import adds each record of an export once, however often it runs.
final class AppendSession {
    private let writer: LogWriter
    /// Encodes full batches in the background and writes them in order.
    private let batches: BatchPipeline
    // Unchecked exclusivity: the session is used by one thread at a time and none of its
    // methods re-enters it, so no two accesses overlap; the runtime check cost ~5% of an append.
    @exclusivity(unchecked) private var state: WriterState
    @exclusivity(unchecked) private var builder = BatchBuilder()
    @exclusivity(unchecked) private var nextSeq: UInt64
    private let startHead: UInt64
    @exclusivity(unchecked) private var summary = AppendSummary()
    /// Correlation members to check at the end, the line that names them and the UUID:
    /// those not added in this append yet when their correlation came (a member added
    /// before it, as members usually are, is known at once and not kept, so memory does not
    /// grow with the correlations).
    private var members: [(line: String, uuid: SampleUUID)] = []
    /// How many correlation members wait for the check at the end.
    var pendingMemberCount: Int { members.count }
    /// UUIDs given on adds of this input that were skipped for their sync version.
    @exclusivity(unchecked) private var skippedUUIDs: Set<SampleUUID> = []
    /// The current input's name prefix for messages (`"file: "` or empty).
    private var label = ""
    private var generator = SystemRandomNumberGenerator()
    private let appendedMillis = Clock.nowMillis()
    /// Whether an add whose UUID was ever used is skipped (import) rather than refused.
    private let skipsUsedUUIDs: Bool
    /// What messages call an input's Nth line: `line`, or `sample` and `UUID` for the
    /// lines ``HealthStore/save(_:)`` and ``HealthStore/delete(_:)-([SampleUUID])`` build.
    private let item: String
    /// Whether the caller vouched that no add's given UUID was used in the store, as of a
    /// head that is still the head: adds are then looked up among this append's samples
    /// alone, never in the UUID index (``HealthStore/appendImporting(ndjson:addsUnusedAsOfHead:)``).
    private let addsUnusedInStore: Bool
    /// The adds' UUIDs the caller could not vouch for when it vouched for the rest: these
    /// are looked up in the UUID index even when ``addsUnusedInStore``.
    private let mayBeUsed: Set<SampleUUID>

    /// Opens the store's writer (taking its lock and cutting any torn tail); messages name
    /// a bad line as `ITEM N`. With `addsUnusedAsOfHead`, the adds but those whose UUID is
    /// in `mayBeUsed` are vouched unused in the store as of that head.
    init(
        _ layout: StoreLayout, options: StoreOptions, skipsUsedUUIDs: Bool = false, item: String = "line", addsUnusedAsOfHead: UInt64? = nil,
        mayBeUsed: Set<SampleUUID> = []
    ) throws {
        self.skipsUsedUUIDs = skipsUsedUUIDs
        self.mayBeUsed = mayBeUsed
        self.item = item
        writer = try LogWriter(layout, options: options)
        addsUnusedInStore = addsUnusedAsOfHead == writer.headSeq
        batches = BatchPipeline(writer)
        state = try WriterState(layout, snapshot: writer.snapshot, cipher: writer.snapshot?.cipher, chunkEvents: options.appendChunkEvents, checkedRuns: options.checkedRuns)
        startHead = writer.headSeq
        nextSeq = writer.snapshot?.timelines.nextSeq(head: startHead) ?? startHead + 1
        summary.recoveredTail = writer.recoveredTail
    }

    /// Validates and appends every line of `inputs`, in order, as one all-or-nothing append.
    func run(_ inputs: [LineReader]) throws -> AppendSummary {
        do {
            for var reader in inputs {
                label = reader.name.map { "\($0): " } ?? ""
                try consume(&reader)
            }
            return try finish()
        } catch {
            state.discard()
            writer.rollback()
            throw error
        }
    }

    /// Appends the lines `lines` holds, already prepared, as one all-or-nothing append:
    /// the same as ``run(_:)`` on a reader of ``ImportPreparedLines/bytes``.
    func run(prepared lines: ImportPreparedLines) throws -> AppendSummary {
        do {
            label = ""
            try lines.bytes.withUnsafeBytes { bytes in
                try lines.forEachChunk { prepared, linesBefore in
                    try store(prepared, bytes: bytes, linesBefore: linesBefore)
                    if let failure = prepared.failure {
                        let number = linesBefore + failure.index + 1
                        switch failure.reason {
                        case .tooLong: throw LineReader.tooLong(number, name: nil)
                        case .field(let error): throw badLine(number, error)
                        }
                    }
                }
            }
            return try finish()
        } catch {
            state.discard()
            writer.rollback()
            throw error
        }
    }

    /// Appends the lines of `reader`: its chunks are prepared (``LinePreparer``) on
    /// background threads, a few ahead, and stored here in input order, so the first line
    /// refused — by the preparer or by what the lines before it did — is the one reported.
    private func consume(_ reader: inout LineReader) throws {
        let jobs = OrderedJobs<(chunk: LineChunk, prepared: PreparedChunk)>()
        // The chunks stored, emptied, for the next ones to be prepared into: their buffers
        // (about 2 MB a chunk) are reused, not allocated and freed a chunk at a time.
        var spares: [PreparedChunk] = []
        var readError: (any Error)?
        var isAtEnd = false
        func submit() {
            guard !isAtEnd else { return }
            do {
                guard let chunk = try reader.nextChunk() else {
                    isAtEnd = true
                    return
                }
                let spare = PreparedChunkHandoff(spares.popLast() ?? PreparedChunk(checker: InputChecker(importing: skipsUsedUUIDs)))
                jobs.submit { (chunk, LinePreparer.prepare(chunk, into: spare.take())) }
            } catch {
                // Reported once the lines read before it are stored.
                readError = error
                isAtEnd = true
            }
        }
        for _ in 0..<Self.chunksAhead { submit() }
        var linesBefore = 0
        while case (let chunk, var prepared)? = jobs.next() {
            submit()
            try store(prepared, of: chunk, linesBefore: linesBefore)
            linesBefore += prepared.lineCount
            chunk.release()
            if let failure = prepared.failure {
                let number = linesBefore - prepared.lineCount + failure.index + 1
                switch failure.reason {
                case .tooLong: throw reader.tooLong(number)
                case .field(let error): throw badLine(number, error)
                }
            }
            if chunk.isFollowedByTooLongLine { throw reader.tooLong(linesBefore + 1) }
            prepared.empty()
            spares.append(prepared)
        }
        if let readError { throw readError }
    }

    /// How many chunks are prepared ahead of the one being stored: enough to keep both
    /// cores busy, few enough to bound the memory (a chunk is about a MiB of input).
    private static let chunksAhead = 4

    /// The error for line `number`, refused for `error`.
    private func badLine(_ number: Int, _ error: FieldError) -> HealthLogError {
        HealthLogError(.badInput, "\(label)\(item) \(number): " + (error.field.map { "field '\($0)': " } ?? "") + error.reason)
    }

    /// Stores the prepared events of `chunk`, whose first line is the input's line
    /// `linesBefore + 1`.
    private func store(_ prepared: PreparedChunk, of chunk: LineChunk, linesBefore: Int) throws {
        try chunk.withBytes { try store(prepared, bytes: $0, linesBefore: linesBefore) }
    }

    /// Stores the prepared events of the lines in `bytes`, whose first line is the input's
    /// line `linesBefore + 1`.
    private func store(_ prepared: PreparedChunk, bytes: UnsafeRawBufferPointer, linesBefore: Int) throws {
        for note in prepared.notes where !summary.notes.contains(note) { summary.notes.append(note) }
        try prepared.rewritten.withUnsafeBytes { rewritten in
            try prepared.encoded.withUnsafeBytes { encoded in
                // Read in place: a copy of each event would retain and release its arrays.
                try prepared.events.withUnsafeBufferPointer { events in
                    prefetch(events[0..<min(events.count, Self.prefetchEvents)])
                    for k in events.indices {
                        if k % Self.prefetchEvents == 0, k + Self.prefetchEvents < events.count {
                            prefetch(events[(k + Self.prefetchEvents)..<min(events.count, k + 2 * Self.prefetchEvents)])
                        }
                        let line = UnsafeRawBufferPointer(rebasing: (events[k].isRewritten ? rewritten : bytes)[events[k].line])
                        try store(events[k], line: line, encoded: UnsafeRawBufferPointer(rebasing: encoded[events[k].encoded]), number: linesBefore + events[k].index + 1)
                    }
                }
            }
        }
    }

    /// How many events ahead the UUID lookups' memory is brought into the cache: one group
    /// is loaded while the group before it is stored, so the loads overlap each other and
    /// the storing, and a group's lines (two per event) stay far below the L1 cache.
    private static let prefetchEvents = 64

    /// Loads the memory the UUID lookups of `events` start with (see ``WriterState/prefetch(_:isDelete:)``).
    private func prefetch(_ events: Slice<UnsafeBufferPointer<PreparedEvent>>) {
        for k in events.indices {
            if let uuid = events[k].uuid { state.prefetch(uuid, isDelete: events[k].isDelete) }
        }
    }

    /// Appends one prepared event: `line` is its line, `encoded` its prepared stored line.
    private func store(_ event: PreparedEvent, line: UnsafeRawBufferPointer, encoded: UnsafeRawBufferPointer, number: Int) throws {
        func bad(_ field: String, _ reason: String) -> HealthLogError {
            HealthLogError(.badInput, "\(label)\(item) \(number): field '\(field)': \(reason)")
        }
        if event.isDelete {
            guard let uuid = event.uuid else { throw bad("uuid", "a delete names the sample it deletes") }
            guard let stub = try state.stub(uuid) else { throw bad("uuid", "no sample in the store has UUID \(uuid)") }
            guard stub.isLive else { throw bad("uuid", "sample \(uuid) is already deleted") }
            if let type = event.type, !state.names[stub.type].elementsEqual(line[type]) {
                throw bad("type", "does not match the deleted sample's type \(String(decoding: state.names[stub.type], as: UTF8.self))")
            }
            try emitDelete(uuid, stub)
            summary.deleted += 1
            return
        }
        let uuid: SampleUUID
        if let given = event.uuid {
            uuid = given
            if skipsUsedUUIDs, skippedUUIDs.contains(uuid) {
                summary.alreadyPresent += 1
                return
            }
            let inAppendOnly = addsUnusedInStore && (mayBeUsed.isEmpty || !mayBeUsed.contains(uuid))
            if skipsUsedUUIDs, let deleted = try state.isDeleted(uuid, inAppendOnly: inAppendOnly) {
                if deleted { summary.deletedEarlier += 1 } else { summary.alreadyPresent += 1 }
                return
            }
            if let stub = try state.stub(uuid, inAppendOnly: inAppendOnly) {
                let reason = stub.seq > startHead ? "UUID \(uuid) is added earlier in this input"
                    : stub.isLive ? "UUID \(uuid) is already in the store" : "UUID \(uuid) belonged to a deleted sample; a UUID is used once"
                throw bad("uuid", reason)
            }
            // Most appends skip nothing: the empty set is not hashed into for every add.
            if !skippedUUIDs.isEmpty, skippedUUIDs.contains(uuid) { throw bad("uuid", "UUID \(uuid) is added earlier in this input") }
        } else {
            uuid = SampleUUID.random(using: &generator)
        }
        let sync = event.sync
        if let sync {
            if let liveUUID = try state.liveSample(syncIdentifier: sync.identifier), let live = try state.stub(liveUUID),
                let liveSync = state.sync(of: liveUUID)
            {
                guard sync.version > liveSync.version else {
                    summary.skipped += 1
                    if let given = event.uuid { skippedUUIDs.insert(given) }
                    return
                }
                try emitDelete(liveUUID, live)
                summary.replaced += 1
            } else {
                summary.added += 1
            }
        } else {
            summary.added += 1
        }
        let seq = try nextSequence()
        let stub = state.stubFor(type: event.type, source: event.source, device: event.device, start: event.start, end: event.end, seq: seq, line: line)
        let generated = event.uuid == nil ? uuid : nil
        builder.add(kind: FormatConstants.groupKindAdd, type: stub.type, seq: seq, start: stub.start.microseconds, end: stub.end.microseconds) {
            LineEncoder.appendAdd(seq: seq, uuid: generated, prepared: encoded, verbatim: event.verbatim.map { UnsafeRawBufferPointer(rebasing: line[$0]) }, to: &$0)
        }
        try state.recordAdd(uuid, stub, sync: sync)
        summary.lastAdded = uuid
        for member in event.objects ?? [] where try !state.isAddedInAppend(member) {
            members.append(("\(label)\(item) \(number)", member))
        }
    }

    private func emitDelete(_ uuid: SampleUUID, _ stub: SampleStub) throws {
        let seq = try nextSequence()
        let sync = state.sync(of: uuid)
        let names = state.names
        builder.add(kind: FormatConstants.groupKindDelete, type: stub.type, seq: seq, start: stub.start.microseconds, end: stub.end.microseconds) {
            LineEncoder.appendDelete(uuid: uuid, seq: seq, stub: stub, sync: sync, names: names, to: &$0)
        }
        try state.recordDelete(uuid, seq: seq, deletingAdd: stub.seq)
    }

    /// The next sequence number, after writing the current batch if it is full.
    private func nextSequence() throws -> UInt64 {
        if builder.rawBytes >= min(writer.options.batchBytes, FormatConstants.maxBatchBytes) { try flush(endOfAppend: false) }
        defer { nextSeq += 1 }
        return nextSeq
    }

    private func flush(endOfAppend: Bool) throws {
        guard !builder.isEmpty else { return }
        let tag = try writer.prepareStoreTag()
        var origin: BatchOrigin?
        if endOfAppend {
            // The witness needs the origin record: one is written without a named origin too.
            let witness = state.deletedAddWitness()
            if writer.options.origin != nil || witness != nil {
                origin = BatchOrigin(committedMillis: Clock.nowMillis(), origin: writer.options.origin, deletedAdds: witness)
            }
        }
        builder = try batches.submit(builder, storeTag: tag, appendedMillis: appendedMillis, endOfAppend: endOfAppend, origin: origin, names: state.names)
        if endOfAppend { try batches.drain() }
    }

    private func finish() throws -> AppendSummary {
        for (line, uuid) in members {
            if skipsUsedUUIDs, try state.wasUsed(uuid) || skippedUUIDs.contains(uuid) { continue }
            guard let stub = try state.stub(uuid), stub.seq > startHead else {
                throw HealthLogError(.badInput, "\(line): field 'objects': member \(uuid) is not added in this append")
            }
        }
        if builder.isEmpty {
            writer.rollback()
        } else {
            try flush(endOfAppend: true)
            state.preparePersist(through: writer.headSeq)
            try writer.commit()
            try? state.persist(from: startHead + 1, to: writer.headSeq, binding: writer.binding, reach: writer.reach)
        }
        if let meta = writer.meta {
            summary.anchor = QueryAnchor(seq: writer.headSeq, storeTag: meta.storeID.tag, generation: writer.snapshot?.compactions.generation ?? 0)
        }
        return summary
    }
}

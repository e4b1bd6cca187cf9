/// The writer's view of the samples an append touches: UUIDs ever used, which are live,
/// what a delete must copy, and the live sample of each sync identifier.
///
/// Samples of the append in progress live in memory, so later lines of the same input can
/// delete them. Older samples are found through the store's UUID index (``UUIDRunSet``)
/// and, for a delete, their stored add line; sync identifiers through the ``SyncTable``.
/// Both are opened only when an append first needs them, so appending fresh samples never
/// reads the log. ``persist(through:)`` adds the append to both indexes after it commits.
struct WriterState {
    /// Interned type identifiers and source and device tokens.
    var names = Interner()
    private let layout: StoreLayout
    private let snapshot: LogSnapshot?
    private var index = UUIDIndex()
    private var stubs: [SampleStub] = []
    private var syncByUUID: [SampleUUID: SyncStub] = [:]
    private var runs: UUIDRunSet?
    private var syncTable: SyncTable?
    private var stored: StoredEvents?
    /// Adds and deletes of the append in progress, for the UUID index.
    private var events: [(uuid: SampleUUID, seq: UInt64, isDelete: Bool)] = []

    /// A state over the committed log of `snapshot` (`nil` for a store not created yet).
    init(_ layout: StoreLayout, snapshot: LogSnapshot?) {
        self.layout = layout
        self.snapshot = snapshot
    }

    /// What is known of `uuid`: a sample of this append, or one found in the store.
    mutating func stub(_ uuid: SampleUUID) throws -> SampleStub? {
        if let at = index[uuid] { return stubs[at] }
        guard let snapshot, snapshot.headSeq > 0 else { return nil }
        if runs == nil { runs = try UUIDRunSet(layout, snapshot: snapshot) }
        guard let found = try runs!.lookup(uuid) else { return nil }
        if stored == nil { stored = StoredEvents(snapshot) }
        guard found.addSeq != 0, let line = try stored!.addLine(seq: found.addSeq) else {
            throw HealthLogError(.corrupt, "the UUID index names event \(found.addSeq) for \(uuid), but the log has no such add: run 'healthlog reindex'")
        }
        let stub: SampleStub = try line.withUnsafeBytes { raw in
            let event: ParsedEvent
            do {
                event = try EventLineParser.parse(raw)
            } catch let error as FieldError {
                throw HealthLogError(.corrupt, "stored event \(found.addSeq) is invalid: \(error.reason)")
            }
            var stub = stubFor(event, seq: found.addSeq, line: raw)
            stub.isLive = found.deleteSeq == 0
            if let sync = syncFor(event, line: raw) { syncByUUID[uuid] = sync }
            return stub
        }
        index.set(uuid, stubs.count)
        stubs.append(stub)
        return stub
    }

    /// Whether `uuid` was ever used: by this append, or by any add or delete in the store.
    /// Unlike ``stub(_:)`` it reads only the UUID index, never the log.
    mutating func wasUsed(_ uuid: SampleUUID) throws -> Bool {
        if index[uuid] != nil { return true }
        guard let snapshot, snapshot.headSeq > 0 else { return false }
        if runs == nil { runs = try UUIDRunSet(layout, snapshot: snapshot) }
        return try runs!.lookup(uuid) != nil
    }

    /// The sync data of a sample looked up before.
    func sync(of uuid: SampleUUID) -> SyncStub? { syncByUUID[uuid] }

    /// The live sample holding sync identifier `identifier` (a JSON token). The table is
    /// loaded on first use, as of the committed log, and then corrected for the samples
    /// this append already deleted.
    mutating func liveSample(syncIdentifier identifier: [UInt8]) throws -> SampleUUID? {
        if syncTable == nil {
            var table = try SyncTable.load(layout, snapshot: snapshot)
            for event in events where event.isDelete {
                if let sync = syncByUUID[event.uuid], table.entries[sync.identifier]?.uuid == event.uuid {
                    table.entries[sync.identifier] = nil
                }
            }
            syncTable = table
        }
        return syncTable!.entries[identifier]?.uuid
    }

    /// Records a sample added by this append.
    mutating func recordAdd(_ uuid: SampleUUID, _ stub: SampleStub, sync: SyncStub?) {
        index.set(uuid, stubs.count)
        stubs.append(stub)
        events.append((uuid, stub.seq, false))
        if let sync {
            syncByUUID[uuid] = sync
            syncTable?.entries[sync.identifier] = SyncTable.Entry(uuid: uuid, sync: sync)
        }
    }

    /// Records that this append deleted `uuid` at `seq` (its stub was looked up before).
    mutating func recordDelete(_ uuid: SampleUUID, seq: UInt64) {
        guard let at = index[uuid] else { return }
        stubs[at].isLive = false
        events.append((uuid, seq, true))
        if let sync = syncByUUID[uuid], syncTable?.entries[sync.identifier]?.uuid == uuid {
            syncTable?.entries[sync.identifier] = nil
        }
    }

    /// After the append committed events `from...to`: adds them to the UUID index and,
    /// when this append read it, rewrites the sync table.
    mutating func persist(from: UInt64, to: UInt64, reach: (FaultPlan.Point) -> Void) throws {
        guard to >= from else { return }
        if runs == nil { runs = try UUIDRunSet(layout, snapshot: snapshot) }
        if runs!.coveredSeq == from - 1 { try runs!.add(UUIDRunSet.combine(events), from: from, to: to, written: reach) }
        if var table = syncTable, table.coveredSeq == from - 1 {
            table.coveredSeq = to
            try table.write(layout)
        } else if syncTable == nil, FileDescriptor.exists(SyncTable.path(layout)), SyncTable.read(layout) == nil {
            // Damaged, and this append did not need it: rebuild it as of the log before this
            // append (it is caught up past that when next loaded) rather than leave it damaged.
            try SyncTable.load(layout, snapshot: snapshot).write(layout)
        }
    }

    /// The stub of an add event.
    mutating func stubFor(_ event: ParsedEvent, seq: UInt64, line: UnsafeRawBufferPointer) -> SampleStub {
        func intern(_ range: Range<Int>?) -> UInt32 {
            guard let range else { return 0 }
            return names.id(of: UnsafeRawBufferPointer(rebasing: line[range]))
        }
        let start = event.start ?? Timestamp(microseconds: 0)
        return SampleStub(
            seq: seq, type: intern(event.type), source: intern(event.source), device: intern(event.device),
            start: start, end: event.end ?? start, isLive: true)
    }

    /// The sync stub of an event that carries a sync identifier.
    func syncFor(_ event: ParsedEvent, line: UnsafeRawBufferPointer) -> SyncStub? {
        guard let id = event.syncIdentifier, let token = event.syncVersionToken, let version = event.syncVersion else { return nil }
        return SyncStub(identifier: Array(line[id]), versionToken: Array(line[token]), version: version)
    }
}

/// The writer's view of the samples an append touches: UUIDs ever used, which are live,
/// what a delete must copy, and the live sample of each sync identifier.
///
/// Samples of the append in progress are kept so later lines of the same input can delete
/// them: a hash of their UUIDs in memory, their stubs in a ``StubSpill`` (a buffer, older
/// ones in a scratch file), and their adds and deletes in a ``UUIDRunBuilder`` that spills
/// sorted chunks, so memory grows by the hash's slots per sample, not by stubs and events.
/// Older samples are found through the store's UUID index (``UUIDRunSet``) and, for a
/// delete, their stored add line; sync identifiers through the ``SyncTable``. Both are
/// opened only when an append first needs them, so appending fresh samples never reads
/// the log. ``persist(from:to:reach:)`` adds the append to both indexes after it commits.
struct WriterState {
    /// Interned type identifiers and source and device tokens.
    var names = Interner()
    private let layout: StoreLayout
    private let snapshot: LogSnapshot?
    private var index = UUIDIndex()
    private let stubs = StubSpill()
    private var syncByUUID: [SampleUUID: SyncStub] = [:]
    private var runs: UUIDRunSet?
    private var syncTable: SyncTable?
    private var stored: StoredEvents?
    /// Adds and deletes of the append in progress, for the UUID index (made at its first event).
    private var appended: UUIDRunBuilder?
    /// Samples with a sync identifier this append deleted before the sync table was loaded.
    private var deletedSynced: [SampleUUID] = []

    /// A state over the committed log of `snapshot` (`nil` for a store not created yet).
    init(_ layout: StoreLayout, snapshot: LogSnapshot?) {
        self.layout = layout
        self.snapshot = snapshot
    }

    /// What is known of `uuid`: a sample of this append, or one found in the store.
    mutating func stub(_ uuid: SampleUUID) throws -> SampleStub? {
        if let at = index[uuid] { return try stubs.stub(at) }
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
        index.set(uuid, try stubs.append(stub))
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
            for uuid in deletedSynced {
                if let sync = syncByUUID[uuid], table.entries[sync.identifier]?.uuid == uuid {
                    table.entries[sync.identifier] = nil
                }
            }
            deletedSynced = []
            syncTable = table
        }
        return syncTable!.entries[identifier]?.uuid
    }

    /// Records a sample added by this append.
    mutating func recordAdd(_ uuid: SampleUUID, _ stub: SampleStub, sync: SyncStub?) throws {
        index.set(uuid, try stubs.append(stub))
        try record(uuid, seq: stub.seq, isDelete: false)
        if let sync {
            syncByUUID[uuid] = sync
            syncTable?.entries[sync.identifier] = SyncTable.Entry(uuid: uuid, sync: sync)
        }
    }

    /// Records that this append deleted `uuid` at `seq` (its stub was looked up before).
    mutating func recordDelete(_ uuid: SampleUUID, seq: UInt64) throws {
        guard let at = index[uuid] else { return }
        try stubs.markDeleted(at)
        try record(uuid, seq: seq, isDelete: true)
        if let sync = syncByUUID[uuid] {
            if syncTable == nil {
                deletedSynced.append(uuid)
            } else if syncTable?.entries[sync.identifier]?.uuid == uuid {
                syncTable?.entries[sync.identifier] = nil
            }
        }
    }

    /// Gives event `seq` of this append to the UUID-index builder.
    private mutating func record(_ uuid: SampleUUID, seq: UInt64, isDelete: Bool) throws {
        if appended == nil { appended = UUIDRunBuilder(from: seq, directory: nil) }
        try appended!.add(uuid, seq: seq, isDelete: isDelete)
    }

    /// Removes what the append in progress spilled (after a rollback).
    mutating func discard() {
        appended?.discard()
        appended = nil
    }

    /// After the append committed events `from...to`: adds them to the UUID index and,
    /// when this append read it, rewrites the sync table.
    mutating func persist(from: UInt64, to: UInt64, reach: (FaultPlan.Point) -> Void) throws {
        guard to >= from else { return }
        if let builder = appended {
            appended = nil
            let run: UUIDRun?
            do {
                if runs == nil { runs = try UUIDRunSet(layout, snapshot: snapshot) }
                run = runs!.coveredSeq == from - 1 ? try builder.finish(through: to, into: runs!.directory) : nil
            } catch {
                builder.discard()
                throw error
            }
            if let run { try runs!.adopt(run, written: reach) } else { builder.discard() }
        }
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

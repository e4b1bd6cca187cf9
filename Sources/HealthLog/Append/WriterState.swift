/// The writer's view of the samples an append touches: UUIDs ever used, which are live,
/// what a delete must copy, and the live sample of each sync identifier.
///
/// Samples of the append in progress are kept so later lines of the same input can delete
/// them: their adds and deletes in ``AppendedUUIDs`` (which spills sorted chunks and keeps
/// a Bloom filter in memory) and their stubs in a ``StubSpill`` by sequence number (a
/// buffer, older ones in a scratch file), so memory holds about 16 bits per sample, not a
/// hash slot, a stub and an event.
/// Older samples are found through the store's UUID index (``UUIDRunSet``) and, for a
/// delete, their stored add line; sync identifiers through the ``SyncTable``. Both are
/// opened only when an append first needs them, so appending fresh samples never reads
/// the log. ``persist(from:to:binding:reach:)`` adds the append to both indexes after it commits,
/// and to the deleted-add index, whose witness ``deletedAddWitness()`` gives the append's
/// last batch.
struct WriterState {
    /// Interned type identifiers and source and device tokens.
    var names = Interner()
    private let layout: StoreLayout
    private let snapshot: LogSnapshot?
    /// What seals the store's derived files (`nil`: a plaintext store).
    private let cipher: StoreCipher?
    /// The stub of each event of this append, by `seq - appendFrom` (a placeholder for a delete).
    private let stubs: StubSpill
    private var syncByUUID: [SampleUUID: SyncStub] = [:]
    private var runs: UUIDRunSet?
    private var syncTable: SyncTable?
    /// Adds and deletes of the append in progress, for the UUID index (made at its first event).
    private var appended: AppendedUUIDs?
    /// The sequence number of this append's first event.
    private var appendFrom: UInt64 = 0
    /// Samples with a sync identifier this append deleted before the sync table was loaded.
    private var deletedSynced: [SampleUUID] = []
    /// The sequence numbers of the adds this append deleted, for the ``DeletedAddIndex``
    /// (spilled to a scratch file, so memory does not grow with the deletes).
    private var deletedAdds: DeletedAddSpill
    /// The adds deleted in the log before this append, found for the witness the append
    /// records (``deletedAddWitness()``); `nil` until then, or when they could not be read.
    private var deletedAddsBefore: DeletedAddIndex.Before?

    /// Events held in memory by ``appended`` before it writes them out.
    private let chunkEvents: Int
    /// The UUID index runs checked before by the same handle (`nil`: opened and checked).
    private let checkedRuns: CheckedUUIDRuns?
    /// The cipher the append's scratch files are sealed with: an encrypted store's; `nil`
    /// for a plaintext one.
    private let scratchSealing: ScratchCipher?

    /// A state over the committed log of `snapshot` (`nil` for a store not created yet),
    /// whose derived files `cipher` seals (`nil`: a plaintext store), holding `chunkEvents`
    /// of the append's events in memory at a time, taking the UUID index runs in
    /// `checkedRuns` as they are.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when the key for an encrypted store's scratch
    ///   files cannot be made.
    init(
        _ layout: StoreLayout, snapshot: LogSnapshot?, cipher: StoreCipher?, chunkEvents: Int = AppendedUUIDs.defaultChunkEvents,
        checkedRuns: CheckedUUIDRuns? = nil
    ) throws {
        self.layout = layout
        self.snapshot = snapshot
        self.cipher = cipher
        self.chunkEvents = chunkEvents
        self.checkedRuns = checkedRuns
        scratchSealing = snapshot?.meta.isEncrypted == true ? try ScratchCipher.forProcess() : nil
        stubs = StubSpill(sealing: scratchSealing)
        deletedAdds = DeletedAddSpill(sealing: scratchSealing)
    }

    /// What is known of `uuid`: a sample of this append, or one found in the store (not live
    /// when this append deleted it). `inAppendOnly` looks among this append's samples
    /// alone, for a UUID known to be unused in the store.
    mutating func stub(_ uuid: SampleUUID, inAppendOnly: Bool = false) throws -> SampleStub? {
        let mine = try appended?.lookup(uuid)
        if let mine, mine.addSeq != 0 {
            var stub = try stubs.stub(Int(mine.addSeq - appendFrom))
            stub.isLive = mine.deleteSeq == 0
            return stub
        }
        guard !inAppendOnly, var stub = try storedStub(uuid) else { return nil }
        if mine != nil { stub.isLive = false }
        return stub
    }

    /// Brings into the cache what looking up `uuid` (for a delete when `isDelete`) among
    /// this append's events first reads (see ``AppendedUUIDs/prefetch(_:isDelete:)``).
    func prefetch(_ uuid: SampleUUID, isDelete: Bool) {
        appended?.prefetch(uuid, isDelete: isDelete)
    }

    /// The stub of the store's sample `uuid`, from the UUID index and its stored add line.
    private mutating func storedStub(_ uuid: SampleUUID) throws -> SampleStub? {
        guard let snapshot, snapshot.headSeq > 0 else { return nil }
        let runs = try uuidRuns()
        guard let found = try runs.lookup(uuid) else { return nil }
        let compacted = SampleStub(seq: found.addSeq, type: 0, source: 0, device: 0, start: Timestamp(microseconds: 0), end: Timestamp(microseconds: 0), isLive: false)
        if found.deleteSeq != 0, found.addSeq != 0, try snapshot.wasDropped(found.addSeq) {
            // A compacted sample: gone from the log, but its UUID stays used.
            return compacted
        }
        guard found.addSeq != 0, let line = try runs.addLine(seq: found.addSeq) else {
            // A compacted sample whose delete a point-in-time restore cut off (the cut lies
            // between its add and its delete, below the horizon): its UUID stays used too.
            if found.addSeq != 0, try snapshot.wasDropped(found.addSeq) { return compacted }
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
            if let sync = SyncStub(event, line: raw) { syncByUUID[uuid] = sync }
            return stub
        }
        return stub
    }

    /// Whether `uuid` was ever used: by this append, or by any add or delete in the store.
    /// Unlike ``stub(_:)`` it reads only the UUID index, never the log.
    mutating func wasUsed(_ uuid: SampleUUID) throws -> Bool {
        try isDeleted(uuid) != nil
    }

    /// Whether this append added `uuid` (deleted since or not): then it stays so.
    mutating func isAddedInAppend(_ uuid: SampleUUID) throws -> Bool {
        try appended?.lookup(uuid).map { $0.addSeq != 0 } ?? false
    }

    /// Whether the sample `uuid` is deleted (by this append or in the store), `false` when
    /// it is live, `nil` when the UUID was never used. Reads only the UUID index;
    /// `inAppendOnly` looks among this append's samples alone, for a UUID known to be
    /// unused in the store.
    mutating func isDeleted(_ uuid: SampleUUID, inAppendOnly: Bool = false) throws -> Bool? {
        if let mine = try appended?.lookup(uuid) { return mine.deleteSeq != 0 }
        guard !inAppendOnly, let snapshot, snapshot.headSeq > 0 else { return nil }
        return try uuidRuns().lookup(uuid).map { $0.deleteSeq != 0 }
    }

    /// The store's UUID index, opened on first use.
    private mutating func uuidRuns() throws -> UUIDRunSet {
        if let runs { return runs }
        let opened = try UUIDRunSet(layout, snapshot: snapshot, cipher: cipher, checked: checkedRuns)
        runs = opened
        return opened
    }

    /// The sync data of a sample looked up before.
    func sync(of uuid: SampleUUID) -> SyncStub? { syncByUUID[uuid] }

    /// The live sample holding sync identifier `identifier` (a JSON token). The table is
    /// loaded on first use, as of the committed log, and then corrected for the samples
    /// this append already deleted.
    mutating func liveSample(syncIdentifier identifier: [UInt8]) throws -> SampleUUID? {
        if let syncTable { return syncTable.entries[identifier]?.uuid }
        var table = try SyncTable.load(layout, snapshot: snapshot, cipher: cipher)
        for uuid in deletedSynced {
            if let sync = syncByUUID[uuid], table.entries[sync.identifier]?.uuid == uuid {
                table.entries[sync.identifier] = nil
            }
        }
        deletedSynced = []
        syncTable = table
        return table.entries[identifier]?.uuid
    }

    /// Records a sample added by this append.
    mutating func recordAdd(_ uuid: SampleUUID, _ stub: SampleStub, sync: SyncStub?) throws {
        try record(uuid, stub, isDelete: false)
        if let sync {
            syncByUUID[uuid] = sync
            syncTable?.entries[sync.identifier] = SyncTable.Entry(uuid: uuid, sync: sync)
        }
    }

    /// Records that this append deleted `uuid` at `seq` (its stub was looked up before),
    /// the sample added at `addSeq`.
    mutating func recordDelete(_ uuid: SampleUUID, seq: UInt64, deletingAdd addSeq: UInt64) throws {
        try deletedAdds.append(addSeq)
        let placeholder = SampleStub(
            seq: seq, type: 0, source: 0, device: 0, start: Timestamp(microseconds: 0), end: Timestamp(microseconds: 0), isLive: false)
        try record(uuid, placeholder, isDelete: true)
        if let sync = syncByUUID[uuid] {
            if syncTable == nil {
                deletedSynced.append(uuid)
            } else if syncTable?.entries[sync.identifier]?.uuid == uuid {
                syncTable?.entries[sync.identifier] = nil
            }
        }
    }

    /// Records event `stub.seq` of this append: its stub, and its UUID for lookups and the
    /// UUID index.
    private mutating func record(_ uuid: SampleUUID, _ stub: SampleStub, isDelete: Bool) throws {
        if appended == nil {
            // The run starts just past the head: after a restore it spans the discarded numbers.
            appended = AppendedUUIDs(from: (snapshot?.headSeq ?? 0) + 1, chunkEvents: chunkEvents, sealing: scratchSealing)
            appendFrom = stub.seq
        }
        precondition(stub.seq == appendFrom + UInt64(stubs.count), "events are recorded in sequence order, each once")
        _ = try stubs.append(stub)
        try appended!.add(uuid, seq: stub.seq, isDelete: isDelete)
    }

    /// Removes what the append in progress spilled (after a rollback).
    mutating func discard() {
        appended?.discard()
        appended = nil
        deletedAdds = DeletedAddSpill(sealing: scratchSealing)
        deletedAddsBefore = nil
    }

    /// Before the batch that ends the append is encoded: the witness of every add deleted up
    /// to the append's end (``BatchOrigin/DeletedAddWitness``), for that batch's header;
    /// `nil` (nothing recorded) while no add was ever deleted and the last append recorded
    /// none, so a store without deletes keeps its bytes, and when the log before could not
    /// be read. Loads the adds deleted before, which ``persist(from:to:binding:reach:)`` then
    /// writes to the deleted-add index with the append's own.
    mutating func deletedAddWitness() -> BatchOrigin.DeletedAddWitness? {
        let before = DeletedAddIndex.before(snapshot)
        deletedAddsBefore = before.adds
        guard let witness = before.witness?.adding(deletedAdds.witness) else { return nil }
        return before.recorded || witness.count > 0 ? witness : nil
    }

    /// Before the append of events up to `to` commits: starts encoding its UUID run in the
    /// background, so the encoding overlaps the commit's syncs (``persist(from:to:binding:reach:)``
    /// then waits for it). Derived data: the store's files are not touched.
    func preparePersist(through to: UInt64) {
        appended?.prepareFinish(through: to, cipher: cipher)
    }

    /// After the append committed events `from...to` (`binding`: the log's as of `to`, `nil`
    /// when unknown): adds them to the UUID index, when this append read it rewrites the sync
    /// table, and brings the deleted-add index up to `to`.
    mutating func persist(from: UInt64, to: UInt64, binding: LogBinding?, reach: (FaultPlan.Point) -> Void) throws {
        guard to >= from else { return }
        if let builder = appended {
            appended = nil
            let run: UUIDFingerprintRun?
            do {
                let runs = try uuidRuns()
                // Without the log's binding the run is not written: the next writer indexes the append from the log.
                if runs.coveredSeq == from - 1, let binding {
                    run = try builder.finish(through: to, binding: binding, cipher: cipher, into: runs.directory)
                } else {
                    run = nil
                }
            } catch {
                builder.discard()
                throw error
            }
            if let run { try uuidRuns().adopt(run, written: reach) } else { builder.discard() }
        }
        if var table = syncTable, table.coveredSeq == from - 1, let binding {
            table.coveredSeq = to
            try table.write(layout, binding: binding, cipher: cipher)
        } else if syncTable == nil, FileDescriptor.exists(SyncTable.path(layout)), !(SyncTable.read(layout, cipher: cipher)?.isBound(to: snapshot) ?? false),
            let snapshot, let before = snapshot.binding(at: snapshot.headSeq)
        {
            // Damaged or bound to another log, and this append did not need it: rebuild it as of
            // the log before this append (it is caught up past that when next loaded) rather
            // than leave it so.
            try SyncTable.load(layout, snapshot: snapshot, cipher: cipher).write(layout, binding: before, cipher: cipher)
        }
        let adds = deletedAdds
        deletedAdds = DeletedAddSpill(sealing: scratchSealing)
        let before = deletedAddsBefore
        deletedAddsBefore = nil
        if let binding, let before {
            try DeletedAddIndex.extend(layout, before: before, adding: adds.count, adds.forEachSorted, to: to, binding: binding, cipher: cipher)
        }
    }

    /// The stub of an add event.
    mutating func stubFor(_ event: ParsedEvent, seq: UInt64, line: UnsafeRawBufferPointer) -> SampleStub {
        stubFor(type: event.type, source: event.source, device: event.device, start: event.start, end: event.end, seq: seq, line: line)
    }

    /// The stub of an add event given by its tokens in `line` and its dates.
    mutating func stubFor(
        type: Range<Int>?, source: Range<Int>?, device: Range<Int>?, start: Timestamp?, end: Timestamp?, seq: UInt64, line: UnsafeRawBufferPointer
    ) -> SampleStub {
        func intern(_ range: Range<Int>?) -> UInt32 {
            guard let range else { return 0 }
            return names.id(of: UnsafeRawBufferPointer(rebasing: line[range]))
        }
        let start = start ?? Timestamp(microseconds: 0)
        return SampleStub(
            seq: seq, type: intern(type), source: intern(source), device: intern(device),
            start: start, end: end ?? start, isLive: true)
    }
}

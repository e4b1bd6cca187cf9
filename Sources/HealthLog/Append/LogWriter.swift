#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The single writer of a store: holds the lock, has the torn tail cut on open
/// (``TailRecovery``), writes batches through a ``SegmentAppender``, and makes an append
/// durable (``commit()``) or undoes it byte for byte (``rollback()``).
///
/// An append is all-or-nothing because only its last batch carries the end-of-append flag:
/// until that batch is on disk, readers and recovery treat every batch of the append as a
/// torn tail.
final class LogWriter {
    let layout: StoreLayout
    let options: StoreOptions
    private let lock: WriterLock
    /// Whether this writer created the store directory (so a rollback removes it).
    private let createdDirectory: Bool
    private let faults: FaultCounter
    /// The store's identity, once the store exists.
    private(set) var meta: StoreMeta?
    /// The committed log when the writer opened (after any torn tail was cut).
    private(set) var snapshot: LogSnapshot?
    /// What recovery did on open, for the caller to report.
    private(set) var recoveredTail: TornTail?

    /// The highest sequence number written (committed, or in the open append).
    private(set) var headSeq: UInt64 = 0
    /// Writes the batches; made with the store's identity once the store exists.
    private var appender: SegmentAppender?
    /// The committed batches of one segment (the last one when the writer opened), for its
    /// sidecar index.
    private var segmentCommitted: (name: SegmentName, batches: [BatchRef])?
    /// Batches the open append wrote into the current segment. Those of a segment it
    /// sealed are not kept: that segment's index is staged at once (``staged``), so the
    /// append's memory does not grow with its size.
    private var written: [(name: SegmentName, batch: BatchRef)] = []
    /// Segments the open append sealed, whose indexes wait under their temporary names.
    private var staged: [SegmentName] = []
    private var metaCreated = false
    private var isPoisoned = false
    /// Set by ``releaseLog()``: the writer holds the lock and appends nothing.
    private var isReleased = false
    /// Set while the new checkpoint may already be visible but is not yet known durable: a
    /// failure then leaves the append's (synced) data in place instead of rolling it back.
    private var isInDoubt = false
    /// Segments holding committed events past the checkpoint (written by `--no-sync`
    /// appends, or by an append that died before its checkpoint), to sync at the next
    /// synced commit.
    private var unsyncedSegments: [SegmentName] = []

    /// Opens the writer of the store at `layout`, creating the directory (0700) if needed.
    init(_ layout: StoreLayout, options: StoreOptions) throws {
        self.layout = layout
        self.options = options
        faults = FaultCounter(options.faults)
        (lock, createdDirectory) = try WriterLock.acquireCreatingStore(layout, timeout: options.lockTimeout)
        // Every stored property is set from here on, so if this initializer throws, `deinit`
        // runs and releases the lock: releasing it here too would close the descriptor
        // number twice, and the second close could hit another thread's file.
        if layout.exists {
            try openExisting()
        } else if try !layout.listSegments().isEmpty {
            throw HealthLogError(.corrupt, "\(layout.meta) is missing but segments exist: not a usable store")
        }
    }

    deinit {
        appender = nil
        lock.release()
    }

    private func openExisting() throws {
        try SpecialFileCheck.refuse(in: layout.directory)
        try Debris.remove(layout)
        _ = try UnusedSegments.remove(layout, faults: faults)
        if let keys = layout.keys, FileDescriptor.exists(layout.keySlots) { try keys.reopenIfRotated(layout) }
        let snapshot = try LogSnapshot(layout)
        meta = snapshot.meta
        headSeq = snapshot.headSeq
        if snapshot.headSeq > (snapshot.checkpoint?.seq ?? 0) {
            let since = snapshot.checkpoint?.segmentBase ?? 0
            // Segments that start past the head hold only the torn tail, which is cut below.
            unsyncedSegments = snapshot.segments.map(\.name).filter { $0.baseSeq >= since && $0.baseSeq <= snapshot.headSeq }
        }
        if let torn = snapshot.tornTail {
            try TailRecovery.cut(snapshot, layout, faults: faults)
            recoveredTail = torn
        }
        self.snapshot = snapshot
        var resume: (name: SegmentName, offset: Int)?
        if let point = snapshot.appendPoint {
            let name = snapshot.segments[point.segment].name
            if point.offset == SegmentLayout.prologueLength || !indexIsFull(name) {
                let batches = try snapshot.batches(inSegment: point.segment)
                if Self.listedBytes(batches) <= options.segmentIndexBytes {
                    resume = (name, point.offset)
                    segmentCommitted = (name, try Self.keepingPayloads(batches, of: name, layout))
                }
            }
        }
        if let cipher = snapshot.cipher, let last = try snapshot.lastCommittedPayload() {
            try Self.refuseOlderEpoch(cipher, last.payload, at: last.offset, of: snapshot.segments[last.segment].name, layout)
        }
        appender = try SegmentAppender(layout, options: options, faults: faults, storeID: snapshot.meta.storeID, cipher: snapshot.cipher, resume: resume)
        TailRecovery.repairIndexes(snapshot, layout)
    }

    /// Refuses to seal under `cipher`'s current epoch when the log ends with a batch sealed
    /// under a newer one (its stored header `payload`, at `offset` of segment `name`): a
    /// rotation made that epoch current in every slot, so a key slot's newer entry was
    /// damaged or its file put back to an older copy, and new data would go under a key the
    /// rotation retired.
    ///
    /// - Throws: ``HealthLogError/Code/corrupt``, before anything is written.
    private static func refuseOlderEpoch(_ cipher: StoreCipher, _ payload: [UInt8], at offset: Int, of name: SegmentName, _ layout: StoreLayout) throws {
        guard payload.count >= BatchHeader.FixedFields.length + 4,
            payload.withUnsafeBytes({ BatchHeader.FixedFields($0)?.flags }).map({ $0 & FormatConstants.flagSealed != 0 }) == true
        else { return }
        let epoch = ByteReaderValue.u32(payload, BatchHeader.FixedFields.length)
        guard epoch > cipher.currentEpoch else { return }
        throw HealthLogError(
            .corrupt,
            "\(layout.keySlots): the key slots make key epoch \(cipher.currentEpoch) current, but the last batch of \(layout.segment(baseSeq: name.baseSeq, generation: name.generation)) "
                + "(offset \(offset)) is sealed under epoch \(epoch): a slot's entry for epoch \(epoch) is damaged or its file is an older copy; "
                + "nothing was written (see 'healthlog key list'; removing the damaged slot lets writes go on)")
    }

    /// The size of a segment's sidecar index past which appends no longer go to that segment:
    /// every commit writes the index of the segment it wrote to again, whole, from the batch
    /// table the writer holds, so a segment of many small appends, or one a compaction left
    /// holding many dropped events, would make each append cost its whole table. Appends then
    /// start a new segment, as they do at the size limit (Kafka rolls a segment whose index
    /// is full the same way). The yardstick's full 64 MiB segment has an index of about half
    /// this; one of 1-event appends reaches it in about 5,000 appends.
    static let defaultMaxIndexBytes = 1 << 20

    /// Whether the sidecar index of segment `name` is larger than
    /// ``StoreOptions/segmentIndexBytes`` (``defaultMaxIndexBytes``).
    private func indexIsFull(_ name: SegmentName) -> Bool {
        var info = stat()
        return stat(SegmentIndex.path(layout, name), &info) == 0 && Int(info.st_size) > options.segmentIndexBytes
    }

    /// The bytes the entries of an index of `batches` take, at least: what tells a segment
    /// whose index is missing (a crash before it was written) from one the writer may resume.
    private static func listedBytes(_ batches: [BatchRef]) -> Int {
        batches.reduce(0) { $0 + 12 + $1.payloadLength }
    }

    /// `batches`, of segment `name`, the segment this writer resumes, each sealed one with its
    /// stored payload read back (``BatchRef/sealedPayload``), so the index written after
    /// every commit does not read them again: at most ``defaultMaxIndexBytes`` of them.
    private static func keepingPayloads(_ batches: [BatchRef], of name: SegmentName, _ layout: StoreLayout) throws -> [BatchRef] {
        guard batches.contains(where: \.header.isSealed) else { return batches }
        var payloads = StoredHeaderPayloads(layout, name)
        return try batches.map { batch in
            var kept = batch
            if batch.header.isSealed { kept.sealedPayload = Array(try payloads.payload(of: batch)) }
            return kept
        }
    }

    /// Writes one encoded batch (`bytes`, whose header is `header`); an encrypted store's is
    /// sealed here, on the caller's thread.
    func write(_ bytes: [UInt8], header: BatchHeader) throws {
        try record { try $0.write(bytes, header: header) }
    }

    /// In an encrypted store, the place of the next batch not yet placed (its header
    /// `header`, its plaintext encoding `length` bytes), where it is to be sealed on any
    /// thread and then written with ``write(sealed:header:at:)`` in the order placed;
    /// `nil` in a plaintext store (``write(_:header:)`` then).
    func place(_ header: BatchHeader, length: Int) throws -> BatchPlace? {
        try ensureStore().place(header, length: length)
    }

    /// Lets go of what the writer read of the log when it opened (its snapshot and the last
    /// segment's batches) and keeps the lock, for a caller that walks the log itself under
    /// it (`reindex`): a compacted log's headers can run to tens of megabytes, and two
    /// tables of them are not held at once. The writer appends nothing after this.
    func releaseLog() {
        snapshot = nil
        segmentCommitted = nil
        isReleased = true
    }

    /// Writes a batch sealed at `place` (``place(_:length:)``): `bytes` and `header` from
    /// ``BatchHeader/sealed(_:at:)``.
    func write(sealed bytes: [UInt8], header: BatchHeader, at place: BatchPlace) throws {
        try record { try $0.write(sealed: bytes, header: header, at: place) }
    }

    /// Runs `write` (one batch's) on the appender and records the batch it wrote; a failed
    /// sync poisons the writer.
    private func record(_ write: (SegmentAppender) throws -> (name: SegmentName, batch: BatchRef)) throws {
        precondition(!isReleased, "a writer that let go of its log appends nothing")
        guard !isPoisoned else { throw HealthLogError(.syncFailed, "an earlier fsync failed; this append's writer refuses further writes") }
        let appender = try ensureStore()
        let entry: (name: SegmentName, batch: BatchRef)
        do {
            entry = try write(appender)
        } catch let error as HealthLogError where error.code == .syncFailed {
            isPoisoned = true
            throw error
        }
        if let sealed = written.last?.name, sealed != entry.name { stageIndex(of: sealed) }
        written.append(entry)
        headSeq = entry.batch.header.lastSeq
        faults.reach(.batchWritten)
    }

    /// The store's tag, creating the store's `meta` first when the store is new.
    func prepareStoreTag() throws -> UInt64 {
        try ensureStore()
        return try storeMeta().storeID.tag
    }

    /// Marks that the write reached `point` (see ``FaultCounter``).
    func reach(_ point: FaultPlan.Point) {
        faults.reach(point)
    }

    /// The appender, after creating `meta` and `segments/` for a new store.
    @discardableResult
    private func ensureStore() throws -> SegmentAppender {
        if let appender { return appender }
        let newMeta = StoreMeta.new(StoreID.random(), encrypted: false)
        try OwnedDirectory.prepare(layout.segments)
        try DurableFile.replace(layout.meta, with: Array(newMeta.text.utf8), sync: options.sync)
        meta = newMeta
        metaCreated = true
        let made = try SegmentAppender(layout, options: options, faults: faults, storeID: newMeta.storeID, cipher: nil, resume: nil)
        appender = made
        return made
    }

    private func storeMeta() throws -> StoreMeta {
        guard let meta else { throw HealthLogError(.io, "\(layout.meta): the store has no identity yet") }
        return meta
    }

    /// Makes the open append durable: `fdatasync` of the segment written (and of segments
    /// that earlier `--no-sync` appends left unsynced), `fsync` of the directories that
    /// gained entries, then the checkpoint (fsynced, renamed, directory fsynced), then the
    /// segments' indexes. Every durability step that fails fails the append and poisons the
    /// writer (a failed sync is not retried: Linux may have dropped the dirty pages and
    /// would report success the second time). Up to the checkpoint's rename the caller
    /// rolls the append back; once the new checkpoint is visible the append's data stays,
    /// since truncating it would leave a checkpoint naming events that are gone.
    func commit() throws {
        do {
            if options.sync { try syncAppend() }
            faults.reach(.synced)
            if options.sync, let segment = appender?.current {
                try Checkpoint(seq: headSeq, segmentBase: segment.name.baseSeq, endOffset: UInt64(segment.offset)).write(layout, sync: true)
                isInDoubt = true
                try DurableFile.syncDirectory(layout.directory)
                isInDoubt = false
                faults.reach(.checkpointWritten)
            }
        } catch {
            isPoisoned = true
            throw error
        }
        writeIndexes()
        appender?.finishAppend()
        if let current = appender?.current?.name, indexIsFull(current) { appender?.endSegment() }
    }

    /// The syncs that make the open append's data durable, before its checkpoint.
    private func syncAppend() throws {
        try appender?.syncCurrent()
        let created = appender?.created ?? []
        let current = appender?.current?.name
        for name in unsyncedSegments where name != current && !created.contains(name) {
            let fd = try FileDescriptor.open(layout.segment(baseSeq: name.baseSeq, generation: name.generation), flags: O_RDONLY)
            defer { fd.close() }
            try fd.syncData()
        }
        unsyncedSegments = []
        if !created.isEmpty { try DurableFile.syncDirectory(layout.segments) }
        if metaCreated || createdDirectory { try DurableFile.syncDirectory(layout.directory) }
    }

    /// Undoes the open append: removes the segment files it added, last first, then
    /// truncates back to where it started (``SegmentAppender/undoAppend()``; the order of
    /// ``TailRecovery/cut(_:_:faults:)``, so a writer killed mid-rollback leaves a torn
    /// tail, not a gap), and for a store this writer created removes every file.
    func rollback() {
        guard !isInDoubt else { return }
        appender?.undoAppend()
        written = []
        for name in staged { unlink(SegmentIndex.stagedPath(layout, name)) }
        staged = []
        if metaCreated {
            unlink(layout.meta)
            rmdir(layout.segments)
            meta = nil
            appender = nil
        }
        if createdDirectory {
            unlink(layout.lock)
            rmdir(layout.directory)
        }
    }

    /// Stages the index of `sealed`, a segment the open append has just left, and forgets
    /// its batches. Indexes are derived: one that cannot be written is rebuilt later.
    private func stageIndex(of sealed: SegmentName) {
        let batches = committedBatches(of: sealed) + written.map(\.batch)
        written = []
        guard (try? SegmentIndex.write(layout, name: sealed, batches: batches, cipher: snapshot?.cipher, staged: true)) != nil else { return }
        staged.append(sealed)
    }

    /// Puts in place the index of every segment the committed append wrote to: the staged
    /// ones of the segments it sealed, then the current segment's.
    private func writeIndexes() {
        for name in staged {
            try? SegmentIndex.publishStaged(layout, name)
            faults.reach(.segmentIndexWritten)
        }
        staged = []
        if let current = written.last?.name {
            let batches = committedBatches(of: current) + written.map(\.batch)
            try? SegmentIndex.write(layout, name: current, batches: batches, cipher: snapshot?.cipher)
            faults.reach(.segmentIndexWritten)
            segmentCommitted = (current, batches)
        }
        written = []
    }

    /// The binding (``LogBinding``) of the log as of the last committed append: `nil` when
    /// this writer committed none or no longer knows its last batch.
    var binding: LogBinding? {
        guard let meta, let last = segmentCommitted?.batches.last, last.header.lastSeq == headSeq else { return nil }
        return LogBinding(storeID: meta.storeID, lastBatch: last.header)
    }

    /// The batches of segment `name` committed before the open append.
    private func committedBatches(of name: SegmentName) -> [BatchRef] {
        guard let committed = segmentCommitted, committed.name == name else { return [] }
        return committed.batches
    }
}

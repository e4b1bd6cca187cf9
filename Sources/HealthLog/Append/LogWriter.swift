#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The single writer of a store: holds the lock, cuts a torn tail on open, writes batches
/// at the end of the log (rolling segments at the size limit), and makes an append durable
/// (``commit()``) or undoes it byte for byte (``rollback()``).
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
    /// The store's identity, once the store exists.
    private(set) var meta: StoreMeta?
    /// The committed log when the writer opened (after any torn tail was cut).
    private(set) var snapshot: LogSnapshot?
    /// What recovery did on open, for the caller to report.
    private(set) var recoveredTail: TornTail?

    /// The highest sequence number written (committed, or in the open append).
    private(set) var headSeq: UInt64 = 0
    /// The segment being appended to.
    private var segment: (name: SegmentName, fd: FileDescriptor, offset: Int)?
    /// Where the open append started: segment and offset, to roll back to.
    private var appendStart: (name: SegmentName, offset: Int)?
    /// Segment files created by the open append.
    private var createdSegments: [SegmentName] = []
    /// Descriptors written by the open append, to sync at commit: only the current
    /// segment's, since a segment sealed during the append is synced and closed then (see
    /// ``startSegment(baseSeq:)``), so an append across any number of segments holds one.
    private var dirty: [FileDescriptor] = []
    private var batchesWritten = 0
    /// The committed batches of one segment (the last one when the writer opened), for its
    /// sidecar index.
    private var segmentCommitted: (name: SegmentName, batches: [BatchRef])?
    /// Batches written by the open append, with their segments.
    private var written: [(name: SegmentName, batch: BatchRef)] = []
    private var metaCreated = false
    private var isPoisoned = false
    /// Set while the new checkpoint may already be visible but is not yet known durable: a
    /// failure then leaves the append's (synced) data in place instead of rolling it back.
    private var isInDoubt = false
    /// Segments holding committed events past the checkpoint (written by `--no-sync`
    /// appends, or by an append that died before its checkpoint), to sync at the next
    /// synced commit.
    private var unsyncedSegments: [SegmentName] = []
    /// How often each fault point was reached, and the segment bytes written (fault hooks).
    private var faultHits: [FaultPlan.Point: Int] = [:]
    private var bytesWrittenInAll = 0

    /// Opens the writer of the store at `layout`, creating the directory (0700) if needed.
    init(_ layout: StoreLayout, options: StoreOptions) throws {
        self.layout = layout
        self.options = options
        var created = false
        var acquired: WriterLock
        repeat {
            created = try OwnedDirectory.prepare(layout.directory, isPrivate: true, isNamedByUser: true)
            acquired = try WriterLock.acquire(layout, timeout: options.lockTimeout)
            // The writer we waited for may have created the store and rolled it back, removing
            // `lock` and the directory: a lock on that unlinked file excludes no one. Start over.
            if acquired.isLinked(at: layout.lock) { break }
            acquired.release()
        } while true
        createdDirectory = created
        lock = acquired
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
        segment?.fd.close()
        lock.release()
    }

    private func openExisting() throws {
        try Debris.remove(layout)
        let snapshot = try LogSnapshot(layout)
        meta = snapshot.meta
        headSeq = snapshot.headSeq
        if snapshot.headSeq > (snapshot.checkpoint?.seq ?? 0) {
            let since = snapshot.checkpoint?.segmentBase ?? 0
            // Segments that start past the head hold only the torn tail, which is cut below.
            unsyncedSegments = snapshot.segments.map(\.name).filter { $0.baseSeq >= since && $0.baseSeq <= snapshot.headSeq }
        }
        if let torn = snapshot.tornTail {
            try cut(torn, snapshot: snapshot)
            recoveredTail = torn
        }
        self.snapshot = snapshot
        if let point = snapshot.appendPoint {
            let name = snapshot.segments[point.segment].name
            let fd = try FileDescriptor.open(layout.segment(baseSeq: name.baseSeq, generation: name.generation), flags: O_RDWR)
            segment = (name, fd, point.offset)
            segmentCommitted = (name, try snapshot.batches(inSegment: point.segment))
        }
        let damagedPrefix = (0..<snapshot.prefixSegmentCount).filter { !SegmentIndex.isSound(layout, snapshot.segments[$0].name) }
        for index in snapshot.segmentsNeedingIndex + damagedPrefix where index < snapshot.segments.count {
            let name = snapshot.segments[index].name
            guard FileDescriptor.exists(layout.segment(baseSeq: name.baseSeq, generation: name.generation)) else { continue }
            try? SegmentIndex(name: name, batches: snapshot.batches(inSegment: index)).write(layout)
        }
    }

    /// Cuts the torn tail: removes the segments after the one where it starts, last first,
    /// then truncates that one. Killed at any step, the writer leaves a prefix of the log
    /// ending in a torn tail; removing the first segment first would leave a log that
    /// starts past sequence 1 (or jumps a gap), which is damage, not a torn tail.
    private func cut(_ torn: TornTail, snapshot: LogSnapshot) throws {
        let point = snapshot.appendPoint
        for (index, file) in snapshot.segments.enumerated().reversed() {
            let path = layout.segment(baseSeq: file.name.baseSeq, generation: file.name.generation)
            if let point, index == point.segment {
                let fd = try FileDescriptor.open(path, flags: O_RDWR)
                defer { fd.close() }
                try fd.truncate(to: point.offset)
                try fd.sync()
            } else if point == nil || index > point!.segment {
                try retryingOnInterrupt("cannot remove", path: path) { unlink(path) }
                unlink(SegmentIndex.path(layout, file.name))
                reach(.unfinishedSegmentRemoved)
            }
        }
        try DurableFile.syncDirectory(layout.segments)
    }

    /// Writes one encoded batch (`bytes`, whose header is `header`).
    func write(_ bytes: [UInt8], header: BatchHeader) throws {
        guard !isPoisoned else { throw HealthLogError(.syncFailed, "an earlier fsync failed; this append's writer refuses further writes") }
        try ensureStore()
        if segment == nil || (segment!.offset > SegmentLayout.prologueLength && segment!.offset + bytes.count > options.segmentBytes) {
            try startSegment(baseSeq: header.firstSeq)
        }
        guard let current = segment else { return }
        if appendStart == nil { appendStart = (current.name, current.offset) }
        try writeSegmentBytes(bytes, current.fd, at: current.offset)
        let headerLength = 8 + Int(ByteReaderValue.u32(bytes, 4))
        var groupOffsets: [Int] = []
        var at = current.offset + headerLength
        for group in header.groups {
            groupOffsets.append(at)
            at += Int(group.frameLength)
        }
        written.append((current.name, BatchRef(segment: -1, offset: current.offset, groupOffsets: groupOffsets, end: at, header: header)))
        segment!.offset += bytes.count
        if !dirty.contains(where: { $0.rawValue == current.fd.rawValue }) { dirty.append(current.fd) }
        headSeq = header.lastSeq
        batchesWritten += 1
        reach(.batchWritten)
    }

    /// The store's tag, creating the store's `meta` first when the store is new.
    func prepareStoreTag() throws -> UInt64 {
        try ensureStore()
        return meta!.storeID.tag
    }

    /// Creates `meta` and `segments/` for a new store.
    private func ensureStore() throws {
        guard meta == nil else { return }
        let newMeta = StoreMeta(storeID: StoreID.random(), version: FormatConstants.version)
        try OwnedDirectory.prepare(layout.segments)
        try DurableFile.replace(layout.meta, with: Array(newMeta.text.utf8), sync: options.sync)
        meta = newMeta
        metaCreated = true
    }

    /// Seals the current segment (if any) and starts a new one at `baseSeq`. The sealed
    /// segment is synced first when this append wrote to it (with ``StoreOptions/sync``),
    /// then closed: its bytes are final, and holding its descriptor until ``commit()``
    /// would cost one per segment the append crosses.
    private func startSegment(baseSeq: UInt64) throws {
        guard let meta else { return }
        try OwnedDirectory.prepare(layout.segments)
        if options.sync, let previous = segment, dirty.contains(where: { $0.rawValue == previous.fd.rawValue }) {
            try syncSegment(previous.fd)
        }
        let name = SegmentName(baseSeq: baseSeq, generation: 0)
        let fd = try FileDescriptor.open(layout.segment(baseSeq: baseSeq), flags: O_RDWR | O_CREAT | O_EXCL)
        createdSegments.append(name)
        do {
            try fd.setMode(0o600)
            let header = SegmentHeader(storeID: meta.storeID, baseSeq: baseSeq, generation: 0, createdMillis: Clock.nowMillis())
            try writeSegmentBytes(LZ4Frame.emptyFrame + header.encoded(), fd, at: 0)
        } catch {
            fd.close()
            throw error
        }
        if let previous = segment, previous.fd.rawValue != fd.rawValue {
            dirty.removeAll { $0.rawValue == previous.fd.rawValue }
            previous.fd.close()
        }
        segment = (name, fd, SegmentLayout.prologueLength)
        dirty.append(fd)
        reach(.segmentCreated)
    }

    /// Writes segment bytes, or fails the way ``FaultPlan/failWritesAfterBytes`` asks: the
    /// bytes that still fit, then `ENOSPC`.
    private func writeSegmentBytes(_ bytes: [UInt8], _ fd: FileDescriptor, at offset: Int) throws {
        if let limit = options.faults.failWritesAfterBytes, bytesWrittenInAll + bytes.count > limit {
            let fits = max(0, limit - bytesWrittenInAll)
            try fd.write(Array(bytes[0..<fits]), at: offset)
            bytesWrittenInAll += fits
            throw HealthLogError(.io, "cannot write \(fd.path): \(describeErrno(ENOSPC))", errno: ENOSPC)
        }
        try fd.write(bytes, at: offset)
        bytesWrittenInAll += bytes.count
    }

    /// Marks that the write reached `point`; kills the process when the fault plan says so.
    func reach(_ point: FaultPlan.Point) {
        faultHits[point, default: 0] += 1
        if let planned = options.faults.kill, planned.point == point, faultHits[point] == planned.occurrence {
            kill(getpid(), SIGKILL)
        }
    }

    /// Makes the open append durable: `fdatasync` of every file written (and of segments
    /// that earlier `--no-sync` appends left unsynced), `fsync` of the directories that
    /// gained entries, then the checkpoint (fsynced, renamed, directory fsynced), then the
    /// segments' indexes. Every durability step that fails fails the append and poisons the
    /// writer (a failed sync is not retried: Linux may have dropped the dirty pages and
    /// would report success the second time). Up to the checkpoint's rename the caller
    /// rolls the append back; once the new checkpoint is visible the append's data stays,
    /// since truncating it would leave a checkpoint naming events that are gone.
    func commit() throws {
        do {
            if options.sync {
                for fd in dirty { try syncSegment(fd) }
                try syncEarlierUnsyncedSegments()
                if !createdSegments.isEmpty { try DurableFile.syncDirectory(layout.segments) }
                if metaCreated || createdDirectory { try DurableFile.syncDirectory(layout.directory) }
            }
            reach(.synced)
            if options.sync, let segment {
                try Checkpoint(seq: headSeq, segmentBase: segment.name.baseSeq, endOffset: UInt64(segment.offset)).write(layout, sync: true)
                isInDoubt = true
                try DurableFile.syncDirectory(layout.directory)
                isInDoubt = false
                reach(.checkpointWritten)
            }
        } catch {
            isPoisoned = true
            throw error
        }
        writeIndexes()
        closeSealedSegments()
        appendStart = nil
        createdSegments = []
        dirty = []
        batchesWritten = 0
    }

    /// Fsyncs the segments that `--no-sync` appends wrote after the checkpoint and this
    /// writer did not write itself, once: a synced append's checkpoint vouches for every
    /// event before it, so those must be on stable storage too.
    private func syncEarlierUnsyncedSegments() throws {
        for name in unsyncedSegments where name != segment?.name && !createdSegments.contains(name) {
            let fd = try FileDescriptor.open(layout.segment(baseSeq: name.baseSeq, generation: name.generation), flags: O_RDONLY)
            defer { fd.close() }
            try fd.syncData()
        }
        unsyncedSegments = []
    }

    /// `fdatasync` of segment `fd`, or the failure ``FaultPlan/failSync`` asks for. A failed
    /// sync is not retried and poisons the writer (see ``commit()``).
    private func syncSegment(_ fd: FileDescriptor) throws {
        do {
            if options.faults.failSync {
                throw HealthLogError(.syncFailed, "cannot fdatasync \(fd.path): \(describeErrno(EIO))", errno: EIO)
            }
            try fd.syncData()
        } catch {
            isPoisoned = true
            throw error
        }
    }

    /// Undoes the open append: removes the segment files it added, last first, then
    /// truncates back to where it started (and, for a store this writer created, removes
    /// every file). The order is ``cut(_:snapshot:)``'s, so a writer killed mid-rollback
    /// leaves a torn tail, not a gap.
    func rollback() {
        guard !isInDoubt else { return }
        for name in createdSegments.reversed() where name != appendStart?.name || appendStart?.offset == SegmentLayout.prologueLength {
            unlink(layout.segment(baseSeq: name.baseSeq, generation: name.generation))
            reach(.unfinishedSegmentRemoved)
        }
        if let start = appendStart {
            let path = layout.segment(baseSeq: start.name.baseSeq, generation: start.name.generation)
            if let fd = try? FileDescriptor.open(path, flags: O_RDWR) {
                try? fd.truncate(to: start.offset)
                fd.close()
            }
        }
        written = []
        if metaCreated {
            unlink(layout.meta)
            rmdir(layout.segments)
            meta = nil
        }
        if createdDirectory {
            unlink(layout.lock)
            rmdir(layout.directory)
        }
        closeSealedSegments()
        appendStart = nil
        createdSegments = []
        dirty = []
    }

    /// Rewrites the sidecar index of every segment the committed append wrote to.
    private func writeIndexes() {
        var names: [SegmentName] = []
        for entry in written where names.last != entry.name { names.append(entry.name) }
        for name in names {
            let mine = written.lazy.filter { $0.name == name }.map(\.batch)
            let before = segmentCommitted?.name == name ? segmentCommitted!.batches : []
            try? SegmentIndex(name: name, batches: before + mine).write(layout)
            reach(.segmentIndexWritten)
        }
        if let current = segment?.name {
            let before = segmentCommitted?.name == current ? segmentCommitted!.batches : []
            segmentCommitted = (current, before + written.filter { $0.name == current }.map(\.batch))
        }
        written = []
    }

    private func closeSealedSegments() {
        for fd in dirty where fd.rawValue != segment?.fd.rawValue { fd.close() }
    }
}

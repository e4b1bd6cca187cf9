#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The batches a replay reads, decoded a few ahead on a second thread: each batch's chosen
/// frames are read from its segment, checked (CRC-32C), decompressed and their lines listed
/// in sequence order by whichever of the two threads claims the batch first. The decoder
/// thread claims the next batch not yet claimed as soon as it is free; the snapshot's thread
/// delivers the batches in order and, while the one it needs next is still being decoded,
/// claims the next free one too rather than wait. Decompressing is most of a long replay's
/// work, so a replay of the whole log runs on both cores, neither waiting for the other to
/// read frames.
///
/// Batches are taken in order, and whatever went wrong reading or decoding one is thrown
/// when it is taken, so a replay delivers, and fails, exactly as one reading each batch
/// only when it reaches it; read-ahead a caller never takes (a limit reached) is dropped
/// unseen. The decoder thread never touches the snapshot: it reads the segments the snapshot
/// recorded through descriptors of its own, and sees the frames' bytes and the batch's header
/// only. A replay expected to decompress less than ``threadedBytes`` (or only one batch)
/// decodes in place, without a thread, and so does a limited one expected to decompress less
/// than ``threadedLimitedBytes``.
final class ReplayPipeline {
    /// One batch of the work: its chosen groups (indexes into its header's groups) and its
    /// segment, as the snapshot's thread reads it.
    fileprivate struct Item {
        let batch: BatchRef
        let groups: [Int]
        let file: SegmentFile
    }

    /// The memory a slot is given before its first read: what the largest batch of the work
    /// needs, so no slot's memory is grown (and faulted in anew) midway.
    fileprivate struct Room {
        var storage = 0
        var frames = 0
        var lines = 0

        /// Raises each to what the largest batch of `items` needs.
        mutating func raise(for items: [Item]) {
            for item in items {
                storage = max(storage, BatchLines.room(for: item.groups, of: item.batch))
                frames = max(frames, item.groups.reduce(0) { $0 + Int(item.batch.header.groups[$1].frameLength) })
                lines = max(lines, BatchLines.lineRoom(for: item.groups, of: item.batch))
            }
        }
    }

    /// One batch on its way: its chosen groups, their frames, and once decoded, its lines.
    final class Slot: @unchecked Sendable {
        fileprivate(set) var batch: BatchRef
        /// The groups chosen (indexes into the batch header's groups).
        fileprivate(set) var groups: [Int]
        /// The batch's segment, read through the claiming thread's descriptors, named in errors.
        fileprivate var file: SegmentFile
        /// The store's cipher, for a sealed batch's frames.
        fileprivate let cipher: StoreCipher?
        /// The chosen groups' stored frames, back to back.
        fileprivate var frames: [UInt8] = []
        /// Where each chosen group's frame starts in ``frames``.
        fileprivate var starts: [Int] = []
        /// A run of frames read before it is appended to ``frames``.
        fileprivate var scratch: [UInt8] = []
        /// The decoded lines, valid once the slot is taken; those deleted later are marked
        /// hidden (``BatchLines/Line/isHidden``).
        fileprivate(set) var lines = BatchLines()
        /// What went wrong reading or decoding the batch, thrown when it is taken.
        fileprivate var failure: (any Error)?
        /// Whether it is decoded (guarded by the crew's mutex while claimed).
        fileprivate var isDone = false

        fileprivate init(_ item: Item, cipher: StoreCipher?) {
            batch = item.batch
            groups = item.groups
            file = item.file
            self.cipher = cipher
        }

        /// Takes on `item`, read through `file`, with memory for `room`, and reads its frames
        /// (or keeps the read's failure).
        fileprivate func load(_ item: Item, through file: SegmentFile, room: Room) {
            batch = item.batch
            groups = item.groups
            self.file = file
            failure = nil
            isDone = false
            lines.reserve(room.storage, lines: room.lines)
            if frames.capacity < room.frames {
                // Unzeroed (each read overwrites what it uses), its pages mapped in at once.
                let count = room.frames
                frames = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                    Prefault.populate(buffer.baseAddress!, count: count)
                    initialized = count
                }
            }
            do {
                try readFrames()
            } catch {
                failure = error
            }
        }

        /// Decompresses the frames read (or keeps the read's failure), skipping the blocks
        /// whose lines are all at or before `after`.
        fileprivate func decompress(_ decoder: LZ4FrameDecoder, checkContent: Bool, after: UInt64) {
            guard failure == nil else { return }
            do {
                try frames.withUnsafeMutableBytes { raw in
                    try lines.decompress(
                        frames: raw, at: starts, of: batch, groups: groups, in: file, decoder: decoder, cipher: cipher, checkContent: checkContent, after: after)
                }
            } catch {
                failure = error
            }
        }

        /// Lists the decompressed lines, hiding the adds of samples in `deleted`.
        fileprivate func index(hiding deleted: DeletedSamples) {
            guard failure == nil else { return }
            do {
                try lines.index(batch, groups: groups, in: file, hiding: Self.hider(deleted))
            } catch {
                failure = error
            }
        }

        /// Loads `item`, decompresses and indexes it: the whole of a batch's decoding.
        fileprivate func decode(
            _ item: Item, through file: SegmentFile, room: Room, decoder: LZ4FrameDecoder, checkContent: Bool, after: UInt64, hiding deleted: DeletedSamples
        ) {
            load(item, through: file, room: room)
            decompress(decoder, checkContent: checkContent, after: after)
            index(hiding: deleted)
        }

        /// Whether a line is the add of a sample in `deleted`.
        fileprivate static func hider(_ deleted: DeletedSamples) -> (BatchLines.Line, UnsafeRawBufferPointer) -> Bool {
            { line, raw in !line.isDelete && deleted.count > 0 && deleted.contains(line, in: raw) }
        }

        /// Reads the chosen groups' frames: each run of adjacent frames with one read.
        private func readFrames() throws {
            starts.removeAll(keepingCapacity: true)
            var k = 0
            while k < groups.count {
                var end = k + 1
                while end < groups.count, batch.groupOffsets[groups[end]] == batch.groupOffsets[groups[end - 1]] + Int(batch.header.groups[groups[end - 1]].frameLength) {
                    end += 1
                }
                let first = groups[k]
                let last = groups[end - 1]
                let offset = batch.groupOffsets[first]
                let length = batch.groupOffsets[last] + Int(batch.header.groups[last].frameLength) - offset
                // The first run replaces what the frames held (the last batch's).
                let at = k == 0 ? 0 : frames.count
                for g in groups[k..<end] { starts.append(at + batch.groupOffsets[g] - offset) }
                if k == 0 {
                    try file.read(into: &frames, at: offset, count: length)
                } else {
                    try file.read(into: &scratch, at: offset, count: length)
                    frames.append(contentsOf: scratch)
                }
                k = end
            }
        }
    }

    private let snapshot: LogSnapshot
    /// The replay's anchor: blocks whose lines all lie at or before it are not decoded.
    private let after: UInt64
    private var work: [Item]
    private var room = Room()
    private var deleted: DeletedSamples?
    /// The index in ``work`` of the batch ``next()`` takes next.
    private var nextTake = 0
    /// The slot taken last, until the next is taken.
    private var taken: Slot?
    /// Slots free for the next batch decoded on this thread without the crew.
    private var spare: [Slot] = []
    /// The decoder thread and what it shares with this one; it decodes the batches before
    /// the limit's expected end, the rest are decoded here when taken.
    private let crew: Crew?
    /// The decoder of this thread's share of the batches (all of them without a crew).
    private let ownDecoder: LZ4FrameDecoder
    /// The decompressed bytes a replay is expected to read from which a decoder thread pays
    /// for its start (a rare type's few small frames are decoded faster in place).
    private static let threadedBytes = 2 << 20
    /// The same for a replay a limit is expected to end: a page of 10,000 heart-rate lines
    /// (4 MB in seven batches) costs a third less CPU and a third fewer page faults decoded
    /// in place, with one slot's memory, than with the thread's start, hand-overs and three
    /// slots, and its wall time is no longer (the thread's gain is eaten by its own cost and
    /// by the reader of its output, which runs on the other core).
    private static let threadedLimitedBytes = 16 << 20

    /// A pipeline over `work` (batches in order, each with its chosen groups, none empty),
    /// which hides the adds of the samples ``publish(_:)`` gives. Batches from `limitEnd`
    /// on (where a limit is expected to be reached; `nil`: none is) are read only when
    /// taken. A group holding the anchor `after` is decoded from the block its lines after
    /// the anchor start in (``BatchLines/decompress(frames:at:of:groups:in:decoder:cipher:checkContent:after:)``).
    /// A decoder thread starts when the batches before the limit's expected end decompress to
    /// `threadFrom` bytes or more (by default ``threadedBytes``, or ``threadedLimitedBytes``
    /// with a limit).
    init(_ snapshot: LogSnapshot, _ work: [(batch: BatchRef, groups: [Int])], limitEnd: Int?, after: UInt64 = 0, threadFrom: Int? = nil) throws {
        self.snapshot = snapshot
        self.after = after
        self.work = work.map { Item(batch: $0.batch, groups: $0.groups, file: snapshot.segments[$0.batch.segment]) }
        let readAheadEnd = min(limitEnd ?? work.count, work.count)
        let bytes = work.prefix(readAheadEnd).reduce(0) { sum, item in item.groups.reduce(sum) { $0 + Int(item.batch.header.groups[$1].rawLength) } }
        let threshold = threadFrom ?? (limitEnd == nil ? Self.threadedBytes : Self.threadedLimitedBytes)
        snapshot.cipher?.expect(work.prefix(readAheadEnd).reduce(0) { sum, item in item.groups.reduce(sum) { $0 + Int(item.batch.header.groups[$1].frameLength) } })
        ownDecoder = try LZ4FrameDecoder()
        room.raise(for: self.work)
        crew =
            work.count > 1 && bytes >= threshold
            ? try Crew.start(
                Array(self.work.prefix(readAheadEnd)), snapshot: snapshot, room: room, depth: limitEnd != nil ? 2 : 5, checkContent: snapshot.checksContent, after: after)
            : nil
    }

    /// Adds batches to take after those of `work` (decoded when taken, not ahead, as those
    /// past the limit's expected end are): a limited replay whose first batches fell short
    /// of the limit goes on with the same slots, their memory already faulted in.
    func extend(_ more: [(batch: BatchRef, groups: [Int])]) {
        let items = more.map { Item(batch: $0.batch, groups: $0.groups, file: snapshot.segments[$0.batch.segment]) }
        work += items
        room.raise(for: items)
    }

    deinit {
        crew?.close()
    }

    /// Whether a decoder thread decodes batches beside this one.
    var isThreaded: Bool { crew != nil }

    /// Gives the samples to hide; batches are not taken before it is given.
    func publish(_ deleted: DeletedSamples) {
        self.deleted = deleted
        crew?.publish(deleted)
    }

    /// The next batch, decoded; `nil` after the last. The slot is valid until the next
    /// call, which gives it back for a batch not decoded yet.
    func next() throws -> Slot? {
        if let taken {
            if let crew { crew.recycle(taken) } else { spare.append(taken) }
        }
        taken = nil
        guard nextTake < work.count else { return nil }
        let hidden = deleted ?? DeletedSamples(capacity: 0)
        let slot: Slot
        if let crew, nextTake < crew.count {
            slot = crew.take(decoder: ownDecoder, hiding: hidden)
        } else {
            let item = work[nextTake]
            slot = crew?.spareSlot() ?? spare.popLast() ?? Slot(item, cipher: snapshot.cipher)
            slot.decode(item, through: item.file, room: room, decoder: ownDecoder, checkContent: snapshot.checksContent, after: after, hiding: hidden)
        }
        nextTake += 1
        taken = slot
        if let failure = slot.failure { throw failure }
        return slot
    }

    /// The decoder thread and the batches it shares with the snapshot's thread: those before
    /// the limit's expected end, claimed in order by whichever thread is free, at most
    /// ``depth`` past the one taken next.
    private final class Crew: @unchecked Sendable {
        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        /// The batches it decodes.
        private let items: [Item]
        /// The decoder thread's descriptors of the snapshot's segments.
        private let descriptors: SegmentDescriptors
        private let decoder: LZ4FrameDecoder
        private let room: Room
        private let cipher: StoreCipher?
        private let checkContent: Bool
        private let after: UInt64
        /// How many batches past the one taken next may be claimed: enough that neither
        /// thread waits on a long replay, fewer (less memory to fault in) when a limit is
        /// expected to end it within a few batches.
        private let depth: Int
        /// The slots of the batches claimed and not taken, in order: from ``nextTake`` up
        /// to ``nextClaim``.
        private var claimed: [Slot] = []
        private var nextTake = 0
        private var nextClaim = 0
        /// Slots free for the next claim.
        private var spare: [Slot] = []
        private var deleted: DeletedSamples?
        private var isClosed = false
        private var isFinished = false

        /// How many batches it decodes.
        var count: Int { items.count }

        private init(_ items: [Item], snapshot: LogSnapshot, room: Room, depth: Int, checkContent: Bool, after: UInt64) throws {
            self.items = items
            descriptors = SegmentDescriptors(snapshot.layout)
            decoder = try LZ4FrameDecoder()
            self.room = room
            cipher = snapshot.cipher
            self.depth = depth
            self.checkContent = checkContent
            self.after = after
            pthread_mutex_init(mutex, nil)
            pthread_cond_init(changed, nil)
        }

        /// A crew with its decoder thread running, made on the snapshot's thread; `nil`
        /// when no thread can be started.
        static func start(_ items: [Item], snapshot: LogSnapshot, room: Room, depth: Int, checkContent: Bool, after: UInt64) throws -> Crew? {
            let crew = try Crew(items, snapshot: snapshot, room: room, depth: depth, checkContent: checkContent, after: after)
            return OSThread.detachIfPossible { crew.run() } ? crew : nil
        }

        deinit {
            pthread_cond_destroy(changed)
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
            changed.deallocate()
        }

        /// Gives the decoder thread the samples to hide.
        func publish(_ deleted: DeletedSamples) {
            pthread_mutex_lock(mutex)
            self.deleted = deleted
            pthread_cond_broadcast(changed)
            pthread_mutex_unlock(mutex)
        }

        /// The slot of the next batch, decoded. While the decoder thread is still on it, the
        /// caller decodes the next batch nobody claimed yet, with `decoder`, hiding `deleted`,
        /// rather than wait; it waits only when every batch it may claim is claimed.
        func take(decoder own: LZ4FrameDecoder, hiding deleted: DeletedSamples) -> Slot {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            while true {
                if let first = claimed.first, first.isDone {
                    claimed.removeFirst()
                    nextTake += 1
                    pthread_cond_broadcast(changed)
                    return first
                }
                if let (index, slot) = claim() {
                    pthread_mutex_unlock(mutex)
                    slot.decode(items[index], through: items[index].file, room: room, decoder: own, checkContent: checkContent, after: after, hiding: deleted)
                    pthread_mutex_lock(mutex)
                    slot.isDone = true
                    continue
                }
                pthread_cond_wait(changed, mutex)
            }
        }

        /// Gives back a slot taken, for a later claim.
        func recycle(_ slot: Slot) {
            pthread_mutex_lock(mutex)
            spare.append(slot)
            pthread_cond_broadcast(changed)
            pthread_mutex_unlock(mutex)
        }

        /// A spare slot, for a batch past those the crew decodes.
        func spareSlot() -> Slot? {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return spare.popLast()
        }

        /// Claims the next batch nobody claimed, when it is at most ``depth`` past the one
        /// taken next, with a slot for it (spare or new); called with the mutex held.
        private func claim() -> (index: Int, slot: Slot)? {
            guard nextClaim < items.count, nextClaim < nextTake + depth else { return nil }
            let index = nextClaim
            nextClaim += 1
            let slot = spare.popLast() ?? Slot(items[index], cipher: cipher)
            slot.isDone = false
            claimed.append(slot)
            return (index, slot)
        }

        /// Stops the decoder thread once it has finished the batch at hand, and waits for that.
        func close() {
            pthread_mutex_lock(mutex)
            isClosed = true
            pthread_cond_broadcast(changed)
            while !isFinished { pthread_cond_wait(changed, mutex) }
            pthread_mutex_unlock(mutex)
        }

        /// The decoder thread's loop: claims batches in order, reads and decompresses each,
        /// and lists its lines once the samples to hide are given.
        private func run() {
            pthread_mutex_lock(mutex)
            while !isClosed {
                guard let (index, slot) = claim() else {
                    pthread_cond_wait(changed, mutex)
                    continue
                }
                pthread_mutex_unlock(mutex)
                let item = items[index]
                slot.load(item, through: item.file.reading(through: descriptors), room: room)
                slot.decompress(decoder, checkContent: checkContent, after: after)
                pthread_mutex_lock(mutex)
                while deleted == nil, !isClosed { pthread_cond_wait(changed, mutex) }
                if let deleted {
                    pthread_mutex_unlock(mutex)
                    slot.index(hiding: deleted)
                    pthread_mutex_lock(mutex)
                }
                slot.isDone = true
                pthread_cond_broadcast(changed)
            }
            isFinished = true
            pthread_cond_broadcast(changed)
            pthread_mutex_unlock(mutex)
        }
    }
}

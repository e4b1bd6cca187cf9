#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The batches a replay reads, decoded a few ahead on a second thread: the snapshot's
/// thread reads each batch's chosen frames (still compressed) from its segment, and the
/// decoder thread checks their CRC-32C, decompresses them and lists their lines in
/// sequence order, while the snapshot's thread delivers the batch before. Decompressing
/// is most of a long replay's work, so a replay of the whole log runs on both cores.
///
/// Batches are taken in order, and whatever went wrong reading or decoding one is thrown
/// when it is taken, so a replay delivers, and fails, exactly as one reading each batch
/// only when it reaches it; read-ahead a caller never takes (a limit reached) is dropped
/// unseen. Only the snapshot's thread touches the snapshot; the decoder thread sees the
/// frames' bytes and the batch's header only. A replay expected to decompress less than
/// ``threadedBytes`` (or only one batch) decodes in place, without a thread, and so does a
/// limited one expected to decompress less than ``threadedLimitedBytes``.
final class ReplayPipeline {
    /// One batch on its way: its chosen groups, their frames, and once decoded, its lines.
    final class Slot: @unchecked Sendable {
        fileprivate(set) var batch: BatchRef
        /// The groups chosen (indexes into the batch header's groups).
        fileprivate(set) var groups: [Int]
        /// The batch's segment, named in errors.
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
        /// Whether it is decoded (guarded by the channel's mutex while in flight).
        fileprivate var isDone = false
        /// Whether it went to the decoder thread (else it is decoded when taken).
        fileprivate var isSubmitted = false

        fileprivate init(_ batch: BatchRef, _ groups: [Int], _ file: SegmentFile, cipher: StoreCipher?) {
            self.batch = batch
            self.groups = groups
            self.file = file
            self.cipher = cipher
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

        /// Whether a line is the add of a sample in `deleted`.
        fileprivate static func hider(_ deleted: DeletedSamples) -> (BatchLines.Line, UnsafeRawBufferPointer) -> Bool {
            { line, raw in !line.isDelete && deleted.count > 0 && deleted.contains(line, in: raw) }
        }
    }

    private let snapshot: LogSnapshot
    /// The replay's anchor: blocks whose lines all lie at or before it are not decoded.
    private let after: UInt64
    private var work: [(batch: BatchRef, groups: [Int])]
    /// The storage, frame buffer and line lists a slot is given before its first read: the
    /// largest any batch of ``work`` needs, so no slot's memory is grown (and faulted in
    /// anew) midway.
    private var room = (storage: 0, frames: 0, lines: 0)
    /// Batches past this one are read only when taken, not ahead.
    private let readAheadEnd: Int
    private var deleted: DeletedSamples?
    /// Slots read and not yet taken, in batch order.
    private var inFlight: [Slot] = []
    /// Slots free for the next read.
    private var spare: [Slot] = []
    /// The slot taken last, until the next is taken.
    private var taken: Slot?
    private var nextRead = 0
    private let channel: Channel?
    /// The decoder of this thread's share of the batches (all of them without a decoder
    /// thread).
    private let ownDecoder: LZ4FrameDecoder
    /// How many batches are read ahead of the one being delivered: enough that neither
    /// thread waits on a long replay, fewer (less memory to fault in) when a limit is
    /// expected to end it within a few batches.
    private let depth: Int
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
    init(_ snapshot: LogSnapshot, _ work: [(batch: BatchRef, groups: [Int])], limitEnd: Int?, after: UInt64 = 0) throws {
        self.snapshot = snapshot
        self.after = after
        self.work = work
        readAheadEnd = min(limitEnd ?? work.count, work.count)
        let bytes = work.prefix(readAheadEnd).reduce(0) { sum, item in item.groups.reduce(sum) { $0 + Int(item.batch.header.groups[$1].rawLength) } }
        let threshold = limitEnd == nil ? Self.threadedBytes : Self.threadedLimitedBytes
        channel = work.count > 1 && bytes >= threshold ? try Channel.start(checkContent: snapshot.checksContent, after: after) : nil
        depth = channel == nil ? 1 : limitEnd != nil ? 2 : 5
        snapshot.cipher?.expect(work.prefix(readAheadEnd).reduce(0) { sum, item in item.groups.reduce(sum) { $0 + Int(item.batch.header.groups[$1].frameLength) } })
        ownDecoder = try LZ4FrameDecoder()
        makeRoom(for: work)
        readAhead()
    }

    /// Adds batches to take after those of `work` (read when taken, not ahead, as those
    /// past the limit's expected end are): a limited replay whose first batches fell short
    /// of the limit goes on with the same slots, their memory already faulted in.
    func extend(_ more: [(batch: BatchRef, groups: [Int])]) {
        work += more
        makeRoom(for: more)
    }

    /// Raises ``room`` to what `work`'s largest batch needs.
    private func makeRoom(for work: [(batch: BatchRef, groups: [Int])]) {
        for (batch, groups) in work {
            room.storage = max(room.storage, BatchLines.room(for: groups, of: batch))
            room.frames = max(room.frames, groups.reduce(0) { $0 + Int(batch.header.groups[$1].frameLength) })
            room.lines = max(room.lines, BatchLines.lineRoom(for: groups, of: batch))
        }
    }

    deinit {
        channel?.close()
    }

    /// Gives the samples to hide; batches are kept back until it is given.
    func publish(_ deleted: DeletedSamples) {
        self.deleted = deleted
        channel?.publish(deleted)
    }

    /// The next batch, decoded; `nil` after the last. The slot is valid until the next
    /// call, which puts it to work on a batch not read yet.
    func next() throws -> Slot? {
        if let taken { spare.append(taken) }
        taken = nil
        readAhead()
        if inFlight.isEmpty, nextRead < work.count { read() }
        guard !inFlight.isEmpty else { return nil }
        let slot = inFlight.removeFirst()
        taken = slot
        if let channel, slot.isSubmitted {
            // Rather than wait, decode a batch the decoder thread has not started on.
            while !channel.isDone(slot), let other = channel.takeNewestPending() {
                other.decompress(ownDecoder, checkContent: snapshot.checksContent, after: after)
                other.index(hiding: deleted ?? DeletedSamples(capacity: 0))
                channel.finish(other)
            }
            channel.wait(for: slot)
        } else {
            do {
                try Self.readFrames(slot, slot.file)
            } catch {
                slot.failure = error
            }
            slot.decompress(ownDecoder, checkContent: snapshot.checksContent, after: after)
            slot.index(hiding: deleted ?? DeletedSamples(capacity: 0))
        }
        if let failure = slot.failure { throw failure }
        return slot
    }

    /// Reads batches until ``depth`` are in flight (one without a decoder thread) or
    /// ``readAheadEnd`` is reached.
    private func readAhead() {
        while inFlight.count < depth, nextRead < readAheadEnd { read() }
    }

    /// Reads the frames of the next batch into a spare slot or a new one and hands it to
    /// the decoder thread when read ahead; otherwise (without a thread, or past
    /// ``readAheadEnd``) the slot is read and decoded when taken, on this thread.
    private func read() {
        let isAhead = nextRead < readAheadEnd
        let (batch, groups) = work[nextRead]
        let file = snapshot.segments[batch.segment]
        let slot: Slot
        if let reused = spare.popLast() {
            slot = reused
            slot.batch = batch
            slot.groups = groups
            slot.file = file
            slot.failure = nil
            slot.isDone = false
        } else {
            slot = Slot(batch, groups, file, cipher: snapshot.cipher)
        }
        slot.lines.reserve(room.storage, lines: room.lines)
        if slot.frames.capacity < room.frames {
            // Unzeroed (each read overwrites what it uses), its pages mapped in at once.
            let frames = room.frames
            slot.frames = [UInt8](unsafeUninitializedCapacity: frames) { buffer, count in
                Prefault.populate(buffer.baseAddress!, count: frames)
                count = frames
            }
        }
        slot.isSubmitted = channel != nil && isAhead
        nextRead += 1
        inFlight.append(slot)
        guard let channel, isAhead else { return }
        do {
            try Self.readFrames(slot, file)
        } catch {
            slot.failure = error
        }
        channel.submit(slot)
    }

    /// Reads the chosen groups' frames: each run of adjacent frames with one read.
    private static func readFrames(_ slot: Slot, _ file: SegmentFile) throws {
        let batch = slot.batch
        slot.starts.removeAll(keepingCapacity: true)
        var k = 0
        while k < slot.groups.count {
            var end = k + 1
            while end < slot.groups.count, batch.groupOffsets[slot.groups[end]] == batch.groupOffsets[slot.groups[end - 1]] + Int(batch.header.groups[slot.groups[end - 1]].frameLength) {
                end += 1
            }
            let first = slot.groups[k]
            let last = slot.groups[end - 1]
            let offset = batch.groupOffsets[first]
            let length = batch.groupOffsets[last] + Int(batch.header.groups[last].frameLength) - offset
            // The first run replaces what the slot's frames held (the last batch's).
            let at = k == 0 ? 0 : slot.frames.count
            for g in slot.groups[k..<end] { slot.starts.append(at + batch.groupOffsets[g] - offset) }
            if k == 0 {
                try file.read(into: &slot.frames, at: offset, count: length)
            } else {
                try file.read(into: &slot.scratch, at: offset, count: length)
                slot.frames.append(contentsOf: slot.scratch)
            }
            k = end
        }
    }

    /// The hand-over between the snapshot's thread and the decoder thread.
    private final class Channel: @unchecked Sendable {
        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        private var pending: [Slot] = []
        private var isClosed = false
        private var isFinished = false
        private var deleted: DeletedSamples?
        private let decoder: LZ4FrameDecoder
        private let checkContent: Bool
        private let after: UInt64

        private init(checkContent: Bool, after: UInt64) throws {
            decoder = try LZ4FrameDecoder()
            self.checkContent = checkContent
            self.after = after
            pthread_mutex_init(mutex, nil)
            pthread_cond_init(changed, nil)
        }

        /// A channel with its decoder thread running; `nil` when no thread can be started.
        static func start(checkContent: Bool, after: UInt64) throws -> Channel? {
            let channel = try Channel(checkContent: checkContent, after: after)
            return OSThread.detachIfPossible { channel.run() } ? channel : nil
        }

        deinit {
            pthread_cond_destroy(changed)
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
            changed.deallocate()
        }

        /// Queues `slot` for decoding.
        func submit(_ slot: Slot) {
            pthread_mutex_lock(mutex)
            pending.append(slot)
            pthread_cond_broadcast(changed)
            pthread_mutex_unlock(mutex)
        }

        /// Gives the decoder thread the samples to hide.
        func publish(_ deleted: DeletedSamples) {
            pthread_mutex_lock(mutex)
            self.deleted = deleted
            pthread_cond_broadcast(changed)
            pthread_mutex_unlock(mutex)
        }

        /// Whether `slot` is decoded.
        func isDone(_ slot: Slot) -> Bool {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return slot.isDone
        }

        /// Takes back the slot queued last that the decoder thread has not started on, for
        /// the caller to decode and then ``finish(_:)``; `nil` unless another stays queued
        /// for the decoder thread (which would otherwise sit idle while the caller works).
        func takeNewestPending() -> Slot? {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return pending.count >= 2 ? pending.popLast() : nil
        }

        /// Marks a slot taken back with ``takeNewestPending()`` decoded.
        func finish(_ slot: Slot) {
            pthread_mutex_lock(mutex)
            slot.isDone = true
            pthread_cond_broadcast(changed)
            pthread_mutex_unlock(mutex)
        }

        /// Waits until `slot` is decoded.
        func wait(for slot: Slot) {
            pthread_mutex_lock(mutex)
            while !slot.isDone { pthread_cond_wait(changed, mutex) }
            pthread_mutex_unlock(mutex)
        }

        /// Stops the decoder thread once it has finished the slot at hand, and waits for that.
        func close() {
            pthread_mutex_lock(mutex)
            isClosed = true
            pending.removeAll()
            pthread_cond_broadcast(changed)
            while !isFinished { pthread_cond_wait(changed, mutex) }
            pthread_mutex_unlock(mutex)
        }

        /// The decoder thread's loop.
        private func run() {
            pthread_mutex_lock(mutex)
            while true {
                while pending.isEmpty, !isClosed { pthread_cond_wait(changed, mutex) }
                if isClosed { break }
                let slot = pending.removeFirst()
                pthread_mutex_unlock(mutex)
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

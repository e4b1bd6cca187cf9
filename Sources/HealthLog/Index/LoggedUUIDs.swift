/// The events of the log as the fingerprint UUID index confirms them: which events in a
/// stretch of sequence numbers add or delete a given UUID, read from the batches holding
/// the stretch (their lines and the events `compact` dropped from them,
/// ``BatchLines/uuidEvents(_:in:)``).
///
/// A batch read for one lookup is scanned: its lines in the stretch are compared with the
/// UUID (the text's first eight characters, then the whole UUID where they match), and its
/// lines stay loaded, so the writer's read of the add line that follows
/// (``addLine(seq:)``) decompresses nothing more. A batch looked up again while it is
/// loaded is lookups coming in log order (a re-import of an export, a run of deletes from
/// one import, a compaction's deletes): once ``scansBeforeSorting`` lookups have scanned
/// it, it is kept decoded, its UUIDs sorted, for the ``cachedBatches`` batches decoded
/// last, so each is read about once, not once a lookup.
///
/// Lookups that follow the log event by event (a re-import of an unchanged export, whose
/// records were added in export order) are confirmed at the line after the one confirmed
/// last (``nextSeq``): when the run names one event of the UUID's fingerprint in the
/// stretch and that line holds the UUID, the one event is found without scanning or
/// decoding the batch. Any other case takes the scan or the sorted batch. Where each
/// batch lies (``LogSnapshot/BatchSpan``, 32 bytes a batch) is loaded at the first read,
/// and a batch's header only when its lines are, so memory does not hold the store's
/// batch headers. One thread at a time.
final class LoggedUUIDs {
    /// One batch's events sorted by UUID, then sequence number.
    private final class Decoded {
        /// The UUIDs, sorted.
        let uuids: [SampleUUID]
        /// Beside each UUID: its event's sequence number shifted left by one, 1 for a delete.
        let events: [UInt64]

        init(uuids: [SampleUUID], events: [UInt64]) {
            self.uuids = uuids
            self.events = events
        }
    }

    /// How many decoded batches are kept: with about 2,500 events a batch, about 0.5 MB.
    /// Lookups come in log order, so a batch is seldom looked up again once a few after it
    /// were: 64 kept 4 MB that a compaction of 400,000 events filled and never read again
    /// (its peak 17.9 MB against 14.2), and a re-import of 400,000 records took as long
    /// with 8.
    static let cachedBatches = 8
    /// How many lookups scan the loaded batch before the next one decodes and sorts it: a
    /// scan costs a pass over its lines' UUID prefixes, the sort a parse of all of them.
    static let scansBeforeSorting = 8

    /// The log read.
    let snapshot: LogSnapshot
    /// Where the committed batches lie, loaded at the first read.
    private var spans: [LogSnapshot.BatchSpan] = []
    /// Whether ``spans`` was loaded.
    private var isLoaded = false
    /// The batches whose headers were read last, by their index in ``spans``: those of
    /// ``loaded`` and the spare's among them.
    private var headers: [(index: Int, batch: BatchRef)] = []
    /// How many headers ``headers`` keeps.
    static let keptHeaders = 4
    /// Decoded batches by their index in ``spans``.
    private var decoded: [Int: Decoded] = [:]
    /// The indexes of the decoded batches, the one decoded longest ago first.
    private var age: [Int] = []
    /// The batch decoded last and its index, looked at before the cache.
    private var last: (index: Int, batch: Decoded)?
    /// The batch whose every group is in ``lines``.
    private var loaded: Int?
    /// The lines of batch ``loaded``.
    private var lines = BatchLines()
    /// How many lookups have scanned the lines of batch ``loaded``.
    private var scans = 0
    /// The batch loaded before ``loaded``, its lines and scans, kept so that lookups moving
    /// between two neighbouring batches (a block of sequence numbers across their border,
    /// the two mapping threads of an import taking turns) do not decompress them in turn.
    private var spare: (index: Int?, lines: BatchLines, scans: Int) = (nil, BatchLines(), 0)
    /// The sequence number after the latest event confirmed (0 before the first): where a
    /// lookup in log order finds its UUID.
    private var nextSeq: UInt64 = 0
    /// The last ``recentCalls`` calls of ``events(of:in:expected:)`` and their answers, which
    /// a call with the same arguments gives again without reading (an export repeats the
    /// records just before a blood-pressure correlation as its members).
    private var recent: [(uuid: SampleUUID, seqs: ClosedRange<UInt64>, expected: Int, found: (addSeq: UInt64, deleteSeq: UInt64))] = []
    /// Where in ``recent`` the next call's answer goes.
    private var recentNext = 0
    /// How many calls ``recent`` remembers.
    static let recentCalls = 4

    /// Reads of `snapshot`'s log.
    init(_ snapshot: LogSnapshot) {
        self.snapshot = snapshot
    }

    /// The largest add and delete sequence numbers (0 when none) among the events in `seqs`
    /// whose UUID is `uuid`, once `expected` of them are found (the run's keys in this
    /// block: an event each), the later batches of the stretch left unread.
    ///
    /// - Throws: ``HealthLogError/Code/corrupt`` with the location when a batch is damaged
    ///   or holds a line whose UUID is unreadable.
    func events(of uuid: SampleUUID, in seqs: ClosedRange<UInt64>, expected: Int) throws -> (addSeq: UInt64, deleteSeq: UInt64) {
        for call in recent where call.uuid == uuid && call.seqs == seqs && call.expected == expected { return call.found }
        let found = try find(uuid, in: seqs, expected: expected)
        if recent.count < Self.recentCalls {
            recent.append((uuid, seqs, expected, found))
        } else {
            recent[recentNext] = (uuid, seqs, expected, found)
        }
        recentNext = (recentNext + 1) % Self.recentCalls
        return found
    }

    /// What ``events(of:in:expected:)`` answers, read from the log: at ``nextSeq`` when the
    /// one event expected is there, else from the batches of `seqs` in order.
    private func find(_ uuid: SampleUUID, in seqs: ClosedRange<UInt64>, expected: Int) throws -> (addSeq: UInt64, deleteSeq: UInt64) {
        if expected == 1, let event = try nextEvent(is: uuid, in: seqs) {
            nextSeq = event.seq + 1
            return event.isDelete ? (0, event.seq) : (event.seq, 0)
        }
        var index = try batchOrder(of: seqs.lowerBound)
        var found: (addSeq: UInt64, deleteSeq: UInt64) = (0, 0)
        var count = 0
        func note(_ seq: UInt64, isDelete: Bool) {
            guard seqs.contains(seq) else { return }
            count += 1
            if isDelete { found.deleteSeq = max(found.deleteSeq, seq) } else { found.addSeq = max(found.addSeq, seq) }
        }
        while count < expected, index < spans.count, spans[index].firstSeq <= seqs.upperBound {
            if let batch = try sorted(index) {
                var at = Self.firstIndex(of: uuid, in: batch.uuids)
                while at < batch.uuids.count, batch.uuids[at] == uuid {
                    note(batch.events[at] >> 1, isDelete: batch.events[at] & 1 == 1)
                    at += 1
                }
            } else {
                try load(index)
                scans += 1
                try scan(for: uuid, in: seqs, of: try batch(index), note)
            }
            index += 1
        }
        // Only forward: a lookup behind the stream (a record the export repeats) leaves it.
        if count > 0 { nextSeq = max(nextSeq, max(found.addSeq, found.deleteSeq) + 1) }
        return found
    }

    /// The event ``nextSeq`` when it lies in `seqs` and its stored line holds `uuid`
    /// (its batch loaded if it is not); `nil` otherwise, also when that batch cannot be
    /// read (the lookup's own reads then report what they find).
    private func nextEvent(is uuid: SampleUUID, in seqs: ClosedRange<UInt64>) throws -> (seq: UInt64, isDelete: Bool)? {
        let seq = nextSeq
        guard seqs.contains(seq) else { return nil }
        if loaded.map({ spans[$0].firstSeq > seq || spans[$0].lastSeq < seq }) ?? true {
            let index = try batchOrder(of: seq)
            guard index < spans.count, spans[index].firstSeq <= seq, (try? load(index)) != nil else { return nil }
        }
        guard let at = lineIndex(of: seq) else { return nil }
        let line = lines.lines[at]
        let matches = lines.withBytes { raw in
            let text = UnsafeRawBufferPointer(rebasing: raw[line.start..<line.end])
            return StoredLinePrefix.uuid(text, isDelete: line.isDelete) == uuid
        }
        return matches ? (seq, line.isDelete) : nil
    }

    /// The position in the loaded lines of the line of event `seq`, or `nil` when none is
    /// (compaction dropped it): its place counted from the batch's first number when no
    /// event before it was dropped, else found by bisection.
    private func lineIndex(of seq: UInt64) -> Int? {
        guard let loaded else { return nil }
        let all = lines.lines
        let direct = Int(seq - spans[loaded].firstSeq)
        if direct < all.count, all[direct].seq == seq { return direct }
        var low = 0
        var high = all.count
        while low < high {
            let mid = (low + high) / 2
            if all[mid].seq < seq { low = mid + 1 } else { high = mid }
        }
        return low < all.count && all[low].seq == seq ? low : nil
    }

    /// The stored line (without newline) of the add event `seq`, or `nil` if there is none:
    /// read from the batch loaded last when it holds `seq`.
    func addLine(seq: UInt64) throws -> [UInt8]? {
        let index = try batchOrder(of: seq)
        guard index < spans.count, spans[index].firstSeq <= seq else { return nil }
        try load(index)
        let all = lines.lines
        var low = 0
        var high = all.count
        while low < high {
            let mid = (low + high) / 2
            if all[mid].seq < seq { low = mid + 1 } else { high = mid }
        }
        guard low < all.count, all[low].seq == seq, !all[low].isDelete else { return nil }
        let line = all[low]
        return lines.withBytes { Array($0[line.start..<line.end - 1]) }
    }

    /// The position in the log of the batch holding `seq` (or of the first after it):
    /// lookups sorted by it read the log in order.
    func batchOrder(of seq: UInt64) throws -> Int {
        if !isLoaded {
            spans = try snapshot.batchSpans()
            isLoaded = true
        }
        var low = 0
        var high = spans.count
        while low < high {
            let mid = (low + high) / 2
            if spans[mid].lastSeq < seq { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Batch `index` of ``spans`` with its header: from ``headers``, or read now and kept
    /// there in place of the one read longest ago.
    private func batch(_ index: Int) throws -> BatchRef {
        if let kept = headers.first(where: { $0.index == index }) { return kept.batch }
        let batch = try snapshot.batch(at: spans[index])
        if headers.count == Self.keptHeaders { headers.removeFirst() }
        headers.append((index, batch))
        return batch
    }

    /// The first position in `sorted` holding `uuid` or a larger UUID.
    private static func firstIndex(of uuid: SampleUUID, in sorted: [SampleUUID]) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] < uuid { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Loads every group of batch `index` into ``lines``, unless it is there already or in
    /// ``spare`` (then the two change places); the batch loaded before becomes the spare.
    private func load(_ index: Int) throws {
        guard loaded != index else { return }
        swap(&lines, &spare.lines)
        swap(&scans, &spare.scans)
        (loaded, spare.index) = (spare.index, loaded)
        guard loaded != index else { return }
        loaded = nil
        scans = 0
        let batch = try batch(index)
        try lines.load(snapshot, batch, groups: Array(batch.header.groups.indices))
        loaded = index
    }

    /// Calls `note` with each event of `batch` (the one in ``lines``) in `seqs` whose UUID is
    /// `uuid`, in sequence order.
    private func scan(for uuid: SampleUUID, in seqs: ClosedRange<UInt64>, of batch: BatchRef, _ note: (UInt64, Bool) -> Void) throws {
        let head = Self.lowercasedHead(of: uuid)
        let all = lines.lines
        // The lines are in sequence order: those of `seqs` start at the first not below it.
        var low = 0
        var high = all.count
        while low < high {
            let mid = (low + high) / 2
            if all[mid].seq < seqs.lowerBound { low = mid + 1 } else { high = mid }
        }
        try lines.withBytes { raw in
            for line in all[low...] {
                guard line.seq <= seqs.upperBound else { break }
                let text = UnsafeRawBufferPointer(rebasing: raw[line.start..<line.end])
                guard let at = StoredLinePrefix.uuidOffset(text, isDelete: line.isDelete) else { throw unreadable(batch, line.seq) }
                // Hex digits and '-' OR 0x20 are themselves in lower case: a cheap first test in any case.
                guard text.loadUnaligned(fromByteOffset: at, as: UInt64.self) | 0x2020_2020_2020_2020 == head else { continue }
                guard let found = StoredLinePrefix.uuid(text, isDelete: line.isDelete) else { throw unreadable(batch, line.seq) }
                if found == uuid { note(line.seq, line.isDelete) }
            }
        }
        // A lookup's path: most batches dropped nothing, and their headers are not copied.
        guard !batch.header.dropped.isEmpty else { return }
        for event in try snapshot.fullHeader(of: batch).dropped where event.uuid == uuid { note(event.seq, event.isDelete) }
    }

    /// The first eight characters of `uuid`'s text in lower case, as the bytes of a word
    /// loaded from memory.
    private static func lowercasedHead(of uuid: SampleUUID) -> UInt64 {
        var word: UInt64 = 0
        for k in 0..<8 {
            let nibble = UInt8((uuid.high >> UInt64(60 - 4 * k)) & 0xF)
            let character = nibble < 10 ? 48 + nibble : 87 + nibble
            word |= UInt64(character) << UInt64(8 * k)
        }
        return UInt64(littleEndian: word)
    }

    /// The error for a line of `batch` whose UUID cannot be read.
    private func unreadable(_ batch: BatchRef, _ seq: UInt64) -> HealthLogError {
        HealthLogError(.corrupt, "\(snapshot.segments[batch.segment].location(batch.offset)): event \(seq) has no readable uuid")
    }

    /// Batch `index` decoded and sorted, from the cache, or made now from ``lines`` when it
    /// is loaded there and ``scansBeforeSorting`` lookups have scanned it; `nil` otherwise.
    private func sorted(_ index: Int) throws -> Decoded? {
        if let last, last.index == index { return last.batch }
        if let kept = decoded[index] {
            last = (index, kept)
            return kept
        }
        guard loaded == index, scans >= Self.scansBeforeSorting else { return nil }
        let batch = try batch(index)
        let dropped = try snapshot.fullHeader(of: batch).dropped
        let events = try lines.withBytes { raw in
            try lines.uuidEvents(dropped, in: raw).map { event -> (SampleUUID, UInt64) in
                guard let uuid = event.uuid else { throw unreadable(batch, event.seq) }
                return (uuid, event.seq << 1 | (event.isDelete ? 1 : 0))
            }
        }
        let sorted = events.sorted { ($0.0, $0.1) < ($1.0, $1.1) }
        let entry = Decoded(uuids: sorted.map(\.0), events: sorted.map(\.1))
        if age.count == Self.cachedBatches { decoded[age.removeFirst()] = nil }
        decoded[index] = entry
        age.append(index)
        last = (index, entry)
        return entry
    }
}

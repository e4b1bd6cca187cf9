/// Reads the live samples of one type for statistics, on two threads: the batches holding
/// the type go in windows, the first part of each read on the calling thread, the rest
/// (at first ``workerShare``, as the calling thread also adds up every sample) on a second one (its own ``GroupReader`` and ``StoredLineView/SummaryReader``) into a
/// buffer; the samples then reach the accumulator on the calling thread in sequence
/// order, exactly as one thread would deliver them, so figures (compensated sums, most
/// recent values, errors and which sample raises them) do not depend on the split. The
/// second thread runs a window ahead (two buffers, ``WindowRelay``), so it reads the next
/// window while the calling thread adds up this one's. The split follows the two
/// threads' pace (``SplitPace``): the second thread reads a batch more of the window two
/// ahead each time the calling thread found its part ready, a batch fewer each time it
/// had to wait for it.
///
/// Answers what ``Replayer`` answers for the type from the beginning of the log without a
/// predicate (the adds not deleted later), with the same checks and errors. As a replay
/// does, it holds the UUIDs the type's deletes name in memory up to ``residentDeletes`` of
/// them; past that, each thread checks its adds' numbers against the ``DeletedAddIndex``
/// with a cursor of its own (only the deletes after what the index covers are held), and a
/// block of the index found damaged midway ends the scan with ``IndexDamaged``, for the
/// caller to scan again without the index.
struct StatisticsScan {
    /// The snapshot read.
    let snapshot: LogSnapshot
    /// The type identifier.
    let type: String
    /// Whether each sample's `HKTimeZone` metadata is read.
    let needsZones: Bool
    /// The store directory, for the message about a line that is not a stored line.
    let directory: String
    /// The type's deletes held in memory before the ``DeletedAddIndex`` is checked
    /// instead (``Replayer/defaultResidentDeletes``; `Int.max`: never; tests make it small).
    var residentDeletes = Replayer.defaultResidentDeletes

    /// A block of the deleted-add index did not read: the scan stopped, and its samples so
    /// far are to be discarded.
    struct IndexDamaged: Error {
        /// What reading the block threw.
        let underlying: HealthLogError
    }

    /// Batches per window: how much a second thread reads ahead before its samples are
    /// handed over (a window's samples are held at once, so this bounds the memory). Small
    /// enough that the two windows' buffers stay a few megabytes, whose pages are touched
    /// once and then reused (at 64 the yardstick's heart rates faulted in 15 MB of them),
    /// and that neither thread waits long at the first and last window.
    static let window = 16
    /// The part of the first two windows the second thread reads, where the split starts;
    /// from there it adapts to the two threads' pace, since where they balance depends on
    /// the machine (on the benchmark's heart rates, between 0.60 and 0.64).
    static let workerShare = 0.60

    /// One batch's groups of the type.
    private struct Work {
        var batch: BatchRef
        var groups: [Int]
    }

    /// What the second thread read in one window: the samples, in sequence order, then
    /// what stopped it, if anything. The samples' texts are numbered by their place in
    /// ``units``, ``sources`` and ``zones`` (from 1; 0 for none), where a text is added each
    /// time it changes from one sample to the next.
    private struct Harvest {
        var samples: [Kept] = []
        var units: [String] = []
        var sources: [String] = []
        var zones: [String] = []
        var failure: (any Error)?
        /// How many batches the second thread reads of the next window this buffer carries:
        /// set by the calling thread when it hands the buffer back, read by the second
        /// thread before it fills it (the relay orders the two).
        var nextShare: Int
        private var last = (unit: -1, source: -1, zone: -1)

        /// A harvest whose samples never outgrow room for `capacity` (the most a window
        /// holds: the second thread's part may grow to all of it), so they are not copied
        /// to a larger buffer midway; the second thread starts with `share` batches.
        init(capacity: Int, share: Int) {
            samples.reserveCapacity(capacity)
            nextShare = share
        }

        /// Empties it for the next window.
        mutating func reset() {
            samples.removeAll(keepingCapacity: true)
            units.removeAll(keepingCapacity: true)
            sources.removeAll(keepingCapacity: true)
            zones.removeAll(keepingCapacity: true)
            failure = nil
            last = (-1, -1, -1)
        }

        /// Keeps a sample `reader` has just read, its texts renumbered.
        mutating func keep(_ fields: StoredLineView.SummaryReader.Fields, from reader: StoredLineView.SummaryReader) {
            samples.append(
                Kept(
                    start: fields.start, end: fields.end, value: fields.value ?? 0,
                    unit: Int32(Self.number(fields.unit, &last.unit, &units, reader.unitText)),
                    source: Int32(Self.number(fields.source, &last.source, &sources, reader.sourceText)),
                    timeZone: Int32(Self.number(fields.timeZone, &last.zone, &zones, reader.timeZoneText)),
                    startOffset: fields.startOffset, hasValue: fields.value != nil))
        }

        /// The place in `table` of the text a reader numbered `serial` (0 stays 0), adding
        /// `text` when the number is not the last one's (`last`).
        private static func number(_ serial: Int, _ last: inout Int, _ table: inout [String], _ text: @autoclosure () -> String) -> Int {
            guard serial != 0 else { return 0 }
            if serial != last {
                last = serial
                table.append(text())
            }
            return table.count
        }
    }

    /// A sample as the second thread keeps it for the calling thread: the
    /// ``StoredLineView/SummaryReader/Fields`` in 40 bytes instead of 64 (a window's samples
    /// are written once and read once, so their memory is most of what the hand-over costs).
    private struct Kept {
        var start: Int64
        var end: Int64
        var value: Double
        var unit: Int32
        var source: Int32
        var timeZone: Int32
        var startOffset: Int16
        var hasValue: Bool

        /// The fields as the reader gave them (text numbers as renumbered by the harvest).
        var fields: StoredLineView.SummaryReader.Fields {
            .init(start: start, end: end, value: hasValue ? value : nil, unit: Int(unit), source: Int(source), startOffset: startOffset, timeZone: Int(timeZone))
        }
    }

    /// Adds every live sample of the type to `accumulator`, in sequence order.
    ///
    /// - Throws: ``HealthLogError/Code/corrupt`` for damage or a line that is not shaped as
    ///   a stored line; what the accumulator throws, which ends the scan.
    func run(into accumulator: inout StatisticsAccumulator) throws {
        let tag = snapshot.meta.storeID.tag
        try snapshot.timelines.check(.beginning, storeTag: tag)
        try snapshot.compactions.check(.beginning, storeTag: tag)
        try QueryAnchor.beginning.validate(storeTag: tag, head: snapshot.headSeq)
        let batches = try snapshot.batches(after: 0, types: [type])
        let work = groups(of: batches, deletes: false)
        let deletes = groups(of: batches, deletes: true)
        snapshot.cipher?.expect((work + deletes).reduce(0) { sum, item in item.groups.reduce(sum) { $0 + Int(item.batch.header.groups[$1].frameLength) } })
        let groupReader = work.count > 1 || deletes.count > 1 ? try GroupReader(snapshot) : nil
        let deleteCount = deletes.reduce(0) { sum, item in item.groups.reduce(sum) { $0 + Int(item.batch.header.groups[$1].count) } }
        // Past the budget, the index answers for the deletes it covers, through a cursor a
        // thread (each opened on its own: a cursor reads and opens its blocks as it goes).
        let indexes =
            deleteCount > residentDeletes
            ? DeletedAddIndex.open(for: snapshot).flatMap { first in
                DeletedAddIndex.open(for: snapshot).flatMap { second in second.coveredSeq == first.coveredSeq ? (first, second) : nil }
            } : nil
        let covered = indexes?.0.coveredSeq ?? 0
        let tail = deletes.compactMap { item -> Work? in
            let groups = item.groups.filter { item.batch.header.groups[$0].lastSeq > covered }
            return groups.isEmpty ? nil : Work(batch: item.batch, groups: groups)
        }
        let deleted = try deletedSamples(tail, through: groupReader)
        var reading = Reading(cursor: indexes.map { DeletedAddCursor($0.0) })
        var texts = SampleTexts()
        guard work.count > 1, let groupReader else {
            for item in work {
                try read(item, &reading, deleted: deleted, through: nil) { fields, reader in
                    texts.take(fields, from: reader)
                    try accumulator.add(fields, texts)
                }
            }
            return
        }
        // Window k: the calling thread reads the first part and adds it up, then adds up
        // what the second thread read of the rest (its last `share` batches); meanwhile the
        // second thread reads window k + 1's.
        let windows = stride(from: 0, to: work.count, by: Self.window).map { work[$0..<min(work.count, $0 + Self.window)] }
        let capacity = windows.map { window in window.reduce(0) { sum, item in item.groups.reduce(sum) { $0 + Int(item.batch.header.groups[$1].count) } } }.max() ?? 0
        var pace = SplitPace(window: Self.window, share: Self.workerShare)
        let relay = WindowRelay { Harvest(capacity: capacity, share: pace.share) }
        var workerReading = Reading(cursor: indexes.map { DeletedAddCursor($0.1) })
        let produce = {
            for (k, window) in windows.enumerated() {
                var failed = false
                let going = relay.produce(k) { harvest in
                    let rest = window.suffix(harvest.nextShare)
                    harvest.reset()
                    do {
                        for item in rest where !relay.isStopped {
                            try read(item, &workerReading, deleted: deleted, through: groupReader) { harvest.keep($0, from: $1) }
                        }
                    } catch {
                        harvest.failure = error
                        failed = true
                    }
                }
                if !going || failed { return }
            }
        }
        try withoutActuallyEscaping(produce) { produce in
            guard let producer = OSThread.start(produce) else {
                for item in work {
                    try read(item, &reading, deleted: deleted, through: nil) { fields, reader in
                        texts.take(fields, from: reader)
                        try accumulator.add(fields, texts)
                    }
                }
                return
            }
            defer {
                relay.stop()
                producer.join()
            }
            // The second thread's share of windows k and k + 1, as handed to it.
            var shares = [pace.share, pace.share]
            for (k, window) in windows.enumerated() {
                for item in window.dropLast(shares[k & 1]) {
                    try read(item, &reading, deleted: deleted, through: nil) { fields, reader in
                        texts.take(fields, from: reader)
                        try accumulator.add(fields, texts)
                    }
                }
                try relay.consume(k) { harvest in
                    pace.adjust(callerWaited: relay.consumerWaited)
                    shares[k & 1] = pace.share
                    harvest.nextShare = pace.share
                    var harvested = SampleTexts()
                    for kept in harvest.samples {
                        let sample = kept.fields
                        harvested.take(sample, unit: { harvest.units[$0 - 1] }, source: { harvest.sources[$0 - 1] }, zone: { harvest.zones[$0 - 1] })
                        try accumulator.add(sample, harvested)
                    }
                    if let failure = harvest.failure { throw failure }
                }
            }
        }
    }

    /// What one thread reads batches with: their lines, the summary reader, and its cursor
    /// on the deleted-add index when the index answers for the deletes it covers.
    private struct Reading {
        var lines = BatchLines()
        var reader = StoredLineView.SummaryReader()
        var cursor: DeletedAddCursor?
    }

    /// Reads one batch's groups of the type and calls `deliver` with each live sample and
    /// the reader that read it.
    private func read(
        _ item: Work, _ reading: inout Reading, deleted: DeletedSamples, through groupReader: GroupReader?,
        _ deliver: (StoredLineView.SummaryReader.Fields, StoredLineView.SummaryReader) throws -> Void
    ) throws {
        try reading.lines.load(snapshot, item.batch, groups: item.groups, through: groupReader)
        let lines = reading.lines
        try lines.withBytes { raw in
            for line in lines.lines where !line.isDelete {
                if reading.cursor != nil {
                    do {
                        if try reading.cursor!.isDeleted(line.seq) { continue }
                    } catch let error as HealthLogError where error.code == .corrupt {
                        throw IndexDamaged(underlying: error)
                    }
                }
                let bytes = UnsafeRawBufferPointer(rebasing: raw[line.start..<line.end])
                let uuid = StoredLinePrefix.uuidOffset(bytes, isDelete: false)
                if let uuid, deleted.contains(bytes, uuidAt: uuid) { continue }
                guard let fields = reading.reader.fields(bytes, timeZone: needsZones, uuidAt: uuid) else {
                    throw HealthLogError(.corrupt, "\(directory): event \(line.seq) is not shaped as a stored line")
                }
                try deliver(fields, reading.reader)
            }
        }
    }

    /// The groups of the type in each of `batches` that has any: its delete groups, or the
    /// others.
    private func groups(of batches: [BatchRef], deletes: Bool) -> [Work] {
        batches.compactMap { batch -> Work? in
            let groups = batch.header.groups.indices.filter { g in
                let group = batch.header.groups[g]
                return group.isDelete == deletes && group.lastSeq > 0 && group.type == type
            }
            return groups.isEmpty ? nil : Work(batch: batch, groups: groups)
        }
    }

    /// The UUIDs the delete groups `deletes` delete: the first half read here, the rest
    /// on a second thread through `groupReader`, when given.
    private func deletedSamples(_ deletes: [Work], through groupReader: GroupReader?) throws -> DeletedSamples {
        var uuids: [SampleUUID] = []
        if let groupReader {
            let split = deletes.count / 2
            var more: [SampleUUID] = []
            var failure: (any Error)?
            var workerFailure: (any Error)?
            OSThread.run({
                do { try collect(deletes[split...], into: &more, through: groupReader) } catch { workerFailure = error }
            }, alongside: {
                do { try collect(deletes[..<split], into: &uuids, through: nil) } catch { failure = error }
            })
            if let failure = failure ?? workerFailure { throw failure }
            uuids += more
        } else {
            try collect(deletes[...], into: &uuids, through: nil)
        }
        var deleted = DeletedSamples(capacity: uuids.count)
        for uuid in uuids { deleted.insert(uuid) }
        return deleted
    }

    /// Adds the UUIDs the delete groups `deletes` delete to `uuids`.
    private func collect(_ deletes: ArraySlice<Work>, into uuids: inout [SampleUUID], through groupReader: GroupReader?) throws {
        var lines = BatchLines()
        for item in deletes {
            try lines.load(snapshot, item.batch, groups: item.groups, through: groupReader)
            lines.withBytes { raw in
                for line in lines.lines {
                    if let uuid = StoredLinePrefix.uuid(UnsafeRawBufferPointer(rebasing: raw[line.start..<line.end]), isDelete: true) { uuids.append(uuid) }
                }
            }
        }
    }
}

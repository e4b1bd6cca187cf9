/// Reads the live samples of one type for statistics, on two threads: the batches holding
/// the type go in windows, the first part of each read on the calling thread, the rest on
/// a second one (its own ``GroupReader`` and ``StoredLineView/SummaryReader``) into a
/// buffer; the samples then reach the accumulator on the calling thread in sequence
/// order, exactly as one thread would deliver them, so figures (compensated sums, most
/// recent values, errors and which sample raises them) do not depend on the split.
///
/// Answers what ``Replayer`` answers for the type from the beginning of the log without a
/// predicate (the adds not deleted later), with the same checks and errors.
struct StatisticsScan {
    /// The snapshot read.
    let snapshot: LogSnapshot
    /// The type identifier.
    let type: String
    /// Whether each sample's `HKTimeZone` metadata is read.
    let needsZones: Bool
    /// The store directory, for the message about a line that is not a stored line.
    let directory: String

    /// Batches per window: how much a second thread reads ahead before its samples are
    /// handed over (a window's samples are held at once, so this bounds the memory).
    static let window = 16

    /// One batch's groups of the type.
    private struct Work {
        var batch: BatchRef
        var groups: [Int]
    }

    /// What the second thread read in one window: the samples, in sequence order, then
    /// what stopped it, if anything.
    private struct Harvest {
        var samples: [StoredLineView.SummaryReader.Fields] = []
        var failure: (any Error)?
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
        let batches = try snapshot.batches(after: 0)
        let deleted = try deletedSamples(in: batches)
        let work = batches.compactMap { batch -> Work? in
            let groups = batch.header.groups.indices.filter { g in
                let group = batch.header.groups[g]
                return !group.isDelete && group.lastSeq > 0 && group.type == type
            }
            return groups.isEmpty ? nil : Work(batch: batch, groups: groups)
        }
        var lines = BatchLines()
        var reader = StoredLineView.SummaryReader()
        guard work.count > 1 else {
            for item in work { try read(item, lines: &lines, reader: &reader, deleted: deleted, through: nil) { try accumulator.add($0) } }
            return
        }
        let groupReader = try GroupReader(snapshot)
        var workerLines = BatchLines()
        var workerReader = StoredLineView.SummaryReader()
        var harvest = Harvest()
        for windowStart in stride(from: 0, to: work.count, by: Self.window) {
            let window = work[windowStart..<min(work.count, windowStart + Self.window)]
            let split = window.startIndex + (window.count + 1) / 2
            harvest.samples.removeAll(keepingCapacity: true)
            harvest.failure = nil
            var failure: (any Error)?
            SecondThread.run({
                do {
                    for item in window[split...] {
                        try read(item, lines: &workerLines, reader: &workerReader, deleted: deleted, through: groupReader) { harvest.samples.append($0) }
                    }
                } catch {
                    harvest.failure = error
                }
            }, alongside: {
                do {
                    for item in window[..<split] { try read(item, lines: &lines, reader: &reader, deleted: deleted, through: nil) { try accumulator.add($0) } }
                } catch {
                    failure = error
                }
            })
            if let failure { throw failure }
            for sample in harvest.samples { try accumulator.add(sample) }
            if let failure = harvest.failure { throw failure }
        }
    }

    /// Reads one batch's groups of the type and calls `deliver` with each live sample.
    private func read(
        _ item: Work, lines: inout BatchLines, reader: inout StoredLineView.SummaryReader, deleted: DeletedSamples, through groupReader: GroupReader?,
        _ deliver: (StoredLineView.SummaryReader.Fields) throws -> Void
    ) throws {
        try lines.load(snapshot, item.batch, groups: item.groups, through: groupReader)
        try lines.withBytes { raw in
            for line in lines.lines where !line.isDelete {
                if deleted.contains(UnsafeRawBufferPointer(rebasing: raw[line.start..<line.end])) { continue }
                guard let fields = reader.fields(UnsafeRawBufferPointer(rebasing: raw[line.start..<line.end]), timeZone: needsZones) else {
                    throw HealthLogError(.corrupt, "\(directory): event \(line.seq) is not shaped as a stored line")
                }
                try deliver(fields)
            }
        }
    }

    /// The UUIDs the log deletes of the type.
    private func deletedSamples(in batches: [BatchRef]) throws -> DeletedSamples {
        var deleted = DeletedSamples()
        var lines = BatchLines()
        for batch in batches {
            let groups = batch.header.groups.indices.filter { g in
                let group = batch.header.groups[g]
                return group.isDelete && group.lastSeq > 0 && group.type == type
            }
            if groups.isEmpty { continue }
            try lines.load(snapshot, batch, groups: groups)
            lines.withBytes { raw in
                for line in lines.lines {
                    deleted.insert(UnsafeRawBufferPointer(rebasing: raw[line.start..<line.end]))
                }
            }
        }
        return deleted
    }
}

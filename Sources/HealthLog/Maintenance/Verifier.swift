/// `verify`: checks every checksum (segment headers, batch headers, frames, LZ4 content
/// checksums) and sequence continuity across the whole log, walking the headers rather
/// than trusting any index, then checks every index against the log (``IndexChecker``).
/// Reports each problem with its file and byte offset. A torn tail is a note, not a problem.
///
/// Memory holds one batch and, for the UUID index (``UUIDRunCheck``) and to find a UUID
/// added twice (``UUIDReuseCheck``), a stretch of fingerprint keys each, the rest sorted
/// in scratch files outside the store; nothing is written into the store, unless
/// ``rebuildsIndexes`` is set.
struct Verifier {
    /// The store checked.
    let layout: StoreLayout
    /// Called with (batches checked, batches in all) as the check goes.
    var progress: ((Int, Int) -> Void)?
    /// Whether the walk also gathers the derived files and, when the log is sound, writes
    /// them (``IndexRebuild``: every derived file but the segment indexes is replaced, a
    /// missing segment index written), instead of checking the UUID index, the sync table
    /// and the deleted-add index: a restore's one pass over a store it just copied, whose
    /// backup carried only the sealed segments' indexes.
    var rebuildsIndexes = false
    /// Whether an encrypted store is checked without its key (a backup's check of its
    /// copy): its structure only (``checkStructure(_:)``). A plaintext store gets every
    /// check regardless.
    var keyless = false

    /// Runs the checks.
    func run() throws -> VerifyReport {
        var report = VerifyReport()
        let snapshot: LogSnapshot
        do {
            snapshot = try LogSnapshot(layout, usingIndexes: false, keyless: keyless)
        } catch let error as HealthLogError where error.code == .corrupt {
            report.problems.append(error.message)
            return report
        }
        if snapshot.readsShells { return try checkStructure(snapshot) }
        snapshot.checksContent = true
        report.segments = snapshot.segments.count
        let batches = try snapshot.allBatches()
        report.batches = batches.count
        report.headSeq = snapshot.headSeq
        report.events = snapshot.headSeq - snapshot.timelines.discardedCount(through: snapshot.headSeq)
        if let torn = snapshot.tornTail { report.notes.append(torn.summary) }
        let uuidCheck = rebuildsIndexes ? nil : try UUIDRunCheck(layout: layout, snapshot: snapshot, cipher: snapshot.cipher)
        let reuseCheck = rebuildsIndexes ? nil : try UUIDReuseCheck(sealedLike: snapshot.cipher)
        var rebuild = try IndexRebuild(sealedLike: snapshot.cipher)
        let counts = try walk(snapshot, batches, uuidCheck, reuseCheck, &rebuild, &report)
        let checker = IndexChecker(layout: layout, snapshot: snapshot)
        checker.checkSegmentIndexes(&report)
        let sequenced = report.events
        report.events -= min(counts.dropped, report.events)
        let walked = report.problems.isEmpty
        if walked, counts.events == sequenced, let reuseCheck { try reuseCheck.finish(snapshot, batches, &report) }
        if walked, rebuildsIndexes {
            _ = try rebuild.write(layout, snapshot, keepsSegmentIndexes: true)
        } else if walked, counts.events == sequenced, let uuidCheck {
            try uuidCheck.finish(headSeq: snapshot.headSeq, &report)
            try checker.checkSyncTable(&report)
            try checker.checkDeletedAdds(&report)
        }
        return report
    }

    /// Reads every event of `batches` once: checks each group's frames and that each batch
    /// holds its sequence numbers once, stored or dropped, and gives the events to the
    /// checks (or to `rebuild`). Returns the events met and how many compaction dropped.
    private func walk(_ snapshot: LogSnapshot, _ batches: [BatchRef], _ uuidCheck: UUIDRunCheck?, _ reuseCheck: UUIDReuseCheck?,
                      _ rebuild: inout IndexRebuild, _ report: inout VerifyReport) throws -> (events: UInt64, dropped: UInt64) {
        var lines = BatchLines()
        var batchEvents: [(uuid: SampleUUID, seq: UInt64, isDelete: Bool)] = []
        var eventCount: UInt64 = 0
        var droppedCount: UInt64 = 0
        for (done, batch) in batches.enumerated() {
            progress?(done, batches.count)
            let header = batch.header
            var seen = [Bool](repeating: false, count: Int(header.lastSeq - header.firstSeq + 1))
            batchEvents.removeAll(keepingCapacity: true)
            for g in header.groups.indices {
                do {
                    try lines.load(snapshot, batch, groups: [g])
                } catch let error as HealthLogError {
                    report.problems.append(error.message)
                    continue
                }
                lines.withBytes { raw in
                    for line in lines.lines {
                        let at = Int(line.seq &- header.firstSeq)
                        guard line.seq >= header.firstSeq, at < seen.count, !seen[at] else {
                            report.problems.append("\(snapshot.segments[batch.segment].location(batch.groupOffsets[g])): event \(line.seq) is outside its batch or repeated")
                            continue
                        }
                        seen[at] = true
                        let uuid = BatchLines.uuid(of: line, in: raw)
                        if rebuildsIndexes {
                            if uuid == nil { report.problems.append("\(snapshot.segments[batch.segment].location(batch.groupOffsets[g])): stored event \(line.seq) is unreadable") }
                            rebuild.gather(line: UnsafeRawBufferPointer(rebasing: raw[line.start..<line.end - 1]), seq: line.seq)
                        }
                        batchEvents.append((uuid ?? SampleUUID(high: 0, low: 0), line.seq, line.isDelete))
                    }
                }
            }
            for event in try snapshot.fullHeader(of: batch).dropped {
                let at = Int(event.seq - header.firstSeq)
                guard !seen[at] else {
                    report.problems.append("\(snapshot.segments[batch.segment].location(batch.offset)): event \(event.seq) is both stored and listed as dropped by compaction")
                    continue
                }
                seen[at] = true
                batchEvents.append((event.uuid, event.seq, event.isDelete))
                droppedCount += 1
            }
            batchEvents.sort { $0.seq < $1.seq }
            for event in batchEvents {
                if rebuildsIndexes { try rebuild.add(event.uuid, seq: event.seq, isDelete: event.isDelete) }
                try uuidCheck?.add(event.uuid, seq: event.seq, isDelete: event.isDelete)
                if !event.isDelete { try reuseCheck?.add(event.uuid, seq: event.seq) }
            }
            if rebuildsIndexes, let seq = rebuild.endBatch() {
                report.problems.append(snapshot.unreadableEvent(seq, in: batch).message)
            }
            eventCount += UInt64(batchEvents.count)
        }
        return (eventCount, droppedCount)
    }

    /// The checks an encrypted store's ciphertext allows without its key: every segment
    /// header and batch header with its CRC-32C, this store's tag, sequence continuity (all
    /// of it done by the keyless snapshot's walk), the CRC-32C of each batch's stored
    /// frames against the one its header keeps in clear, and each segment's index against
    /// the headers. The sealed units themselves are opened only with the key (`verify`).
    private func checkStructure(_ snapshot: LogSnapshot) throws -> VerifyReport {
        var report = VerifyReport()
        report.segments = snapshot.segments.count
        let batches = try snapshot.allBatches(allowingShells: true)
        report.batches = batches.count
        report.headSeq = snapshot.headSeq
        report.events = snapshot.headSeq - snapshot.timelines.discardedCount(through: snapshot.headSeq)
        if let torn = snapshot.tornTail { report.notes.append(torn.summary) }
        var frames: [UInt8] = []
        for (done, batch) in batches.enumerated() {
            progress?(done, batches.count)
            guard let shell = batch.header.shell else { continue }
            let file = snapshot.segments[batch.segment]
            let start = batch.end - shell.framesLength
            try file.read(into: &frames, at: start, count: shell.framesLength)
            if CRC32C.checksum(frames[...]) != shell.framesCRC {
                report.problems.append("\(file.location(start)): frame checksum mismatch (events \(batch.header.firstSeq)...\(batch.header.lastSeq))")
            }
        }
        IndexChecker(layout: layout, snapshot: snapshot).checkSegmentIndexes(&report)
        return report
    }
}

/// What `verify` found.
public struct VerifyReport: Sendable, Equatable {
    /// Damage, each naming its file and byte offset. Empty when the store is sound.
    public var problems: [String] = []
    /// Remarks that are not damage (a torn tail that the next writer will cut).
    public var notes: [String] = []
    /// Segment files checked.
    public var segments = 0
    /// Committed batches checked.
    public var batches = 0
    /// Committed events: the head sequence number, less the numbers restores discarded and
    /// the events compaction dropped.
    public var events: UInt64 = 0
    /// The head sequence number.
    public var headSeq: UInt64 = 0

    /// Whether no damage was found.
    public var isSound: Bool { problems.isEmpty }
}

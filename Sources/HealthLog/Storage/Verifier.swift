/// `verify`: checks every checksum (segment headers, batch headers, frames, LZ4 content
/// checksums) and sequence continuity across the whole log, and reports each problem with
/// its file and byte offset. A torn tail is a note, not a problem.
struct Verifier {
    let layout: StoreLayout

    /// Runs the checks.
    func run() throws -> VerifyReport {
        var report = VerifyReport()
        let snapshot: LogSnapshot
        do {
            snapshot = try LogSnapshot(layout)
        } catch let error as HealthLogError where error.code == .corrupt {
            report.problems.append(error.message)
            return report
        }
        snapshot.checksContent = true
        report.segments = snapshot.segments.count
        report.batches = snapshot.batches.count
        report.events = snapshot.headSeq
        if let torn = snapshot.tornTail { report.notes.append(torn.summary) }
        var lines = BatchLines()
        for batch in snapshot.batches {
            let header = batch.header
            var seen = [Bool](repeating: false, count: Int(header.lastSeq - header.firstSeq + 1))
            for g in header.groups.indices {
                do {
                    try lines.load(snapshot, batch, groups: [g])
                } catch let error as HealthLogError {
                    report.problems.append(error.message)
                    continue
                }
                for line in lines.lines {
                    let at = Int(line.seq &- header.firstSeq)
                    guard line.seq >= header.firstSeq, at < seen.count, !seen[at] else {
                        report.problems.append("\(snapshot.segments[batch.segment].location(batch.groupOffsets[g])): event \(line.seq) is outside its batch or repeated")
                        continue
                    }
                    seen[at] = true
                }
            }
        }
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
    /// Committed events (the head sequence number).
    public var events: UInt64 = 0

    /// Whether no damage was found.
    public var isSound: Bool { problems.isEmpty }
}

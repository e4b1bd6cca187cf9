/// The check that the log holds everything the checkpoint says was acknowledged.
extension LogScan {
    /// Refuses a log that holds less than the checkpoint says was acknowledged: a segment
    /// truncated, deleted or replaced, or a checkpoint that names a position the log does
    /// not have. Called once the committed end (``committedCount``) is final.
    func checkAcknowledged(_ checkpoint: Checkpoint?) throws {
        guard let checkpoint else { return }
        let head = committedCount > 0 ? batches[committedCount - 1].header.lastSeq : prefix.last?.lastSeq ?? 0
        let located = segments.firstIndex { $0.name.baseSeq == checkpoint.segmentBase }
        let at = located.map { segments[$0].location(Int(clamping: checkpoint.endOffset)) }
            ?? "segments/\(SegmentName(baseSeq: checkpoint.segmentBase, generation: 0).fileName) (missing)"
        guard head >= checkpoint.seq else {
            throw HealthLogError(.corrupt, "\(at): acknowledged up to sequence \(checkpoint.seq), log ends at \(head): acknowledged events are missing")
        }
        guard let index = located else {
            throw HealthLogError(.corrupt, "\(at): the checkpoint names a segment the log does not have (acknowledged up to sequence \(checkpoint.seq))")
        }
        let matches: Bool
        if let summary = prefix.indices.contains(index) ? prefix[index] : nil {
            matches = summary.firstSeq <= checkpoint.seq && checkpoint.seq <= summary.lastSeq && checkpoint.endOffset <= summary.coveredLength
        } else {
            matches = batches[0..<committedCount].contains { $0.segment == index && $0.header.lastSeq == checkpoint.seq && UInt64($0.end) == checkpoint.endOffset }
        }
        guard matches else {
            throw HealthLogError(.corrupt, "\(at): the checkpoint (acknowledged up to sequence \(checkpoint.seq)) does not match the end of any batch in the log")
        }
    }
}

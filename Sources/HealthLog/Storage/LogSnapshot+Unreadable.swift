/// The one error for a stored event that cannot be read back (no UUID, or a line that does
/// not parse), named by its batch's place in its segment.
extension LogSnapshot {
    /// ``HealthLogError/Code/corrupt`` for stored event `seq` of `batch`, which cannot be read.
    func unreadableEvent(_ seq: UInt64, in batch: BatchRef) -> HealthLogError {
        HealthLogError(.corrupt, "\(segments[batch.segment].location(batch.offset)): stored event \(seq) is unreadable")
    }
}

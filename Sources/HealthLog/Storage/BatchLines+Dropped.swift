/// A batch's events as the UUID index sees them: the lines of its groups and the events
/// `compact` dropped from it (``BatchHeader/dropped``), whose UUIDs stay known so a
/// compacted UUID is still refused after the index is rebuilt from the log.
extension BatchLines {
    /// One event: its UUID (`nil` when a line's UUID is unreadable), sequence number,
    /// kind, and its line (`nil` for a dropped event).
    typealias UUIDEvent = (uuid: SampleUUID?, seq: UInt64, isDelete: Bool, line: Line?)

    /// The events of the loaded lines (every group of a batch) and of `dropped`, the batch's
    /// dropped list (whole: ``LogSnapshot/fullHeader(of:)``), in sequence order; `raw` is
    /// the storage of ``withBytes(_:)``.
    func uuidEvents(_ dropped: BatchHeader.DroppedList, in raw: UnsafeRawBufferPointer) -> [UUIDEvent] {
        var out: [UUIDEvent] = lines.map { (Self.uuid(of: $0, in: raw), $0.seq, $0.isDelete, $0) }
        guard !dropped.isEmpty else { return out }
        out += dropped.map { (Optional($0.uuid), $0.seq, $0.isDelete, nil) }
        out.sort { $0.seq < $1.seq }
        return out
    }
}

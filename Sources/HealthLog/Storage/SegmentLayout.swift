/// Sizes derived from the segment layout.
enum SegmentLayout {
    /// The empty LZ4 frame plus the segment header frame.
    static var prologueLength: Int { LZ4Frame.emptyFrame.count + SegmentHeader.encodedLength }
}

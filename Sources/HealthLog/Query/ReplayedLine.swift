/// A stored line as a replay delivers it: its bytes (newline included), its sequence
/// number, and whether it is a delete — the last two known from the batch, so no caller
/// has to look inside the line for them.
struct ReplayedLine {
    /// The stored line, newline included.
    let bytes: UnsafeRawBufferPointer
    /// Its sequence number.
    let seq: UInt64
    /// Whether it deletes rather than adds.
    let isDelete: Bool

    /// The line without its newline.
    var body: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[0..<bytes.count - 1]) }
}

/// The part of the log past the last complete append: the bytes of an append that never
/// finished (or failed its checksum). Readers ignore it; the next writer cuts it off.
package struct TornTail: Sendable, Equatable {
    /// The segment file where the tail starts (`segments/…`).
    package var file: String
    /// The byte offset where the tail starts in that file.
    package var offset: Int
    /// How many bytes the tail holds, over that file and any later segment files.
    package var bytes: Int
    /// Why the bytes do not count (e.g. "the append never finished").
    package var reason: String

    /// A one-line description, e.g. for `verify` and recovery notes.
    package var summary: String {
        "torn tail of \(bytes) bytes at \(file) at byte \(offset) (\(reason))"
    }
}

/// One input line made ready for the writer off its thread (``LinePreparer``): parsed,
/// checked, and an add's stored line encoded but for its sequence number (and its UUID,
/// when the line gives none). Ranges other than ``line`` and ``encoded`` are relative to
/// the line, as ``ParsedEvent``'s are.
struct PreparedEvent: Sendable {
    /// The line's index in its chunk (0 for the chunk's first line).
    var index: Int
    /// Whether the line deletes.
    var isDelete: Bool
    /// Whether ``line`` lies in ``PreparedChunk/rewritten`` (the checker rewrote the input
    /// line) rather than in the chunk's bytes.
    var isRewritten: Bool
    /// Where the line lies.
    var line: Range<Int>
    /// The `uuid`, if given.
    var uuid: SampleUUID?
    /// The `type`, `source` and `device` tokens, as in ``ParsedEvent``.
    var type: Range<Int>?, source: Range<Int>?, device: Range<Int>?
    /// `start` and `end` (an add's `end` defaults to its `start`).
    var start: Timestamp?, end: Timestamp?
    /// The sync identifier and version, when the line carries them.
    var sync: SyncStub?
    /// A correlation's members.
    var objects: [SampleUUID]?
    /// An add's stored line in ``PreparedChunk/encoded`` (see
    /// ``LineEncoder/appendAdd(seq:uuid:prepared:verbatim:to:)``); empty for a delete.
    var encoded: Range<Int>
    /// When the line holds the rest of its stored line as is (``LineEncoder/verbatimBody(_:line:)``):
    /// where, relative to the line; ``encoded`` then holds only the UUID's text, and the
    /// writer copies these bytes from the line instead of a copy of them.
    var verbatim: Range<Int>?
}

/// Why a chunk's line was refused.
enum LineFailure: Sendable {
    /// A field (or the JSON) is wrong.
    case field(FieldError)
    /// The line is longer than ``LineReader/maxLineLength``.
    case tooLong
}

/// The lines of one ``LineChunk`` made ready for the writer: every line up to the first
/// that fails, which is named with why. Blank lines are counted and left out.
struct PreparedChunk: Sendable {
    /// The events, in line order.
    var events: [PreparedEvent] = []
    /// The adds' encoded stored lines, one after the other.
    var encoded: [UInt8] = []
    /// The lines the checker rewrote, one after the other.
    var rewritten: [UInt8] = []
    /// How many lines the chunk holds.
    var lineCount = 0
    /// The first line refused, by its index in the chunk; nothing after it was prepared.
    var failure: (index: Int, reason: LineFailure)?
    /// The checker's notes, each once, in the order of the lines that raised them.
    var notes: [String] = []
    /// The checker the lines went through, with what it has looked up, for the next chunk.
    var checker: InputChecker

    /// Emptied for another chunk, keeping its checker and the room of its arrays, so a
    /// writer that hands its chunks' buffers back to the preparer allocates none per chunk.
    mutating func empty() {
        events.removeAll(keepingCapacity: true)
        encoded.removeAll(keepingCapacity: true)
        rewritten.removeAll(keepingCapacity: true)
        lineCount = 0
        failure = nil
        notes.removeAll()
    }
}

/// A ``PreparedChunk`` handed to the one job that prepares into it: the job takes it out
/// (``take()``), so it holds the only reference to its buffers and reuses them rather than
/// copying them on its first change.
///
/// `@unchecked Sendable`: made by the submitting thread and then touched only by the job,
/// which the queue's hand-over orders after it.
final class PreparedChunkHandoff: @unchecked Sendable {
    /// The chunk, until taken.
    private var chunk: PreparedChunk?

    /// Holds `chunk` for the job.
    init(_ chunk: PreparedChunk) {
        self.chunk = chunk
    }

    /// The chunk, taken out (once).
    func take() -> PreparedChunk {
        defer { chunk = nil }
        return chunk!
    }
}

/// The lines of one importing append, each with what the import prepared of it while
/// mapping (``ImportLineValidator/prepare(line:)``), for
/// ``HealthStore/appendImporting(prepared:addsUnusedAsOfHead:mayBeUsed:)``. A line given
/// without its preparation is prepared at the append, as an append prepares the lines it
/// reads. `package` access, like the rest of the import's door.
///
/// The lines are kept with their preparations' bytes, which take about a fifth of a line;
/// the events ``LinePreparer`` would make of them (about 230 bytes each, however short the
/// line) are made at the append, ``LineReader/chunkLines`` at a time
/// (``forEachChunk(_:)``), so an append of 50,000 deletes does not hold 50,000 of them.
package struct ImportPreparedLines {
    /// One line: where it lies in ``bytes`` (without its terminator) and where its
    /// preparation lies in ``preparations`` (an empty range: none).
    private struct Entry {
        var lineStart: Int
        var lineEnd: Int
        var preparedStart: Int
        var preparedEnd: Int
        /// Longer than ``LineReader/maxLineLength``: refused.
        var isTooLong: Bool
    }

    /// The lines, each with its newline, one after the other.
    private(set) var bytes: [UInt8] = []
    /// The lines, in order.
    private var entries: [Entry] = []
    /// The preparations of the lines that came with one, one after the other.
    private var preparations: [UInt8] = []

    /// Nothing gathered yet.
    package init() {}

    /// The bytes of the lines gathered.
    package var byteCount: Int { bytes.count }

    /// Adds `line` (its newline included) and, when the import prepared it, its
    /// preparation. Without one, `line` may hold several lines.
    package mutating func add(_ line: UnsafeRawBufferPointer, prepared: UnsafeRawBufferPointer?) {
        let from = bytes.count
        LineEncoder.append(line, to: &bytes)
        var stop = bytes.count
        if let prepared, !prepared.isEmpty, stop > from, bytes[stop - 1] == 10 {
            stop -= 1
            if stop > from, bytes[stop - 1] == 13 { stop -= 1 }
            let preparedStart = preparations.count
            LineEncoder.append(prepared, to: &preparations)
            entries.append(Entry(
                lineStart: from, lineEnd: stop, preparedStart: preparedStart, preparedEnd: preparations.count, isTooLong: stop - from > LineReader.maxLineLength))
            return
        }
        bytes.withUnsafeBytes { all in
            LineChunk.forEachLine(UnsafeRawBufferPointer(rebasing: all[from...])) { line, isTooLong in
                let start = line.isEmpty ? from : all.baseAddress!.distance(to: line.baseAddress!)
                entries.append(Entry(lineStart: start, lineEnd: start + line.count, preparedStart: 0, preparedEnd: 0, isTooLong: isTooLong))
                return true
            }
        }
    }

    /// Calls `body` with the events of the lines, ``LineReader/chunkLines`` lines at a time
    /// (their ranges into ``bytes``, their indices counted from the chunk's first line), and
    /// the number of lines before the chunk. A chunk that holds a line refused ends with it
    /// (``PreparedChunk/failure``), and no chunk follows.
    func forEachChunk(_ body: (PreparedChunk, _ linesBefore: Int) throws -> Void) rethrows {
        var chunk = PreparedChunk(checker: InputChecker(importing: true))
        chunk.events.reserveCapacity(min(entries.count, LineReader.chunkLines))
        try bytes.withUnsafeBytes { all in
            try preparations.withUnsafeBytes { prepared in
                var first = 0
                while first < entries.count {
                    let end = min(entries.count, first + LineReader.chunkLines)
                    for k in first..<end {
                        let entry = entries[k]
                        let index = k - first
                        chunk.lineCount = index + 1
                        if entry.isTooLong {
                            chunk.failure = (index, .tooLong)
                            break
                        }
                        let line = entry.lineStart..<entry.lineEnd
                        if entry.preparedEnd > entry.preparedStart,
                            PreparedEventCoding.decode(
                                UnsafeRawBufferPointer(rebasing: prepared[entry.preparedStart..<entry.preparedEnd]), index: index, line: line, into: &chunk)
                        {
                            continue
                        }
                        // No preparation, or not a whole one: prepared here, with the same result.
                        if !LinePreparer.prepare(UnsafeRawBufferPointer(rebasing: all[line]), at: line.lowerBound, index: index, into: &chunk) { break }
                    }
                    try body(chunk, first)
                    if chunk.failure != nil { return }
                    chunk.empty()
                    first = end
                }
            }
        }
    }

    /// Empties the lines, keeping the memory for the next append.
    package mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
        preparations.removeAll(keepingCapacity: true)
    }
}

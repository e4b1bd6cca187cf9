/// The lines of one importing append, each with what the import prepared of it while
/// mapping (``ImportLineValidator/prepare(line:)``): the events ``LinePreparer`` would make
/// of the lines, gathered without parsing or checking a prepared line again, for
/// ``HealthStore/appendImporting(prepared:addsUnusedAsOfHead:mayBeUsed:)``. A line given without its
/// preparation is prepared here, as an append prepares the lines it reads. `package`
/// access, like the rest of the import's door.
package struct ImportPreparedLines {
    /// The lines, each with its newline, one after the other.
    private(set) var bytes: [UInt8] = []
    /// The lines' events, as ``LinePreparer/prepare(_:into:)`` makes them of ``bytes``:
    /// up to the first line refused, which is named with why.
    private(set) var chunk = PreparedChunk(checker: InputChecker(importing: true))

    /// Nothing gathered yet.
    package init() {}

    /// The bytes of the lines gathered.
    package var byteCount: Int { bytes.count }

    /// Adds `line` (its newline included) and, when the import prepared it, its preparation.
    /// Lines after one that is refused are kept but not prepared: the append stores the
    /// events before it, then refuses it.
    package mutating func add(_ line: UnsafeRawBufferPointer, prepared: UnsafeRawBufferPointer?) {
        let from = bytes.count
        LineEncoder.append(line, to: &bytes)
        guard chunk.failure == nil else { return }
        var stop = bytes.count
        if let prepared, stop > from, bytes[stop - 1] == 10 {
            stop -= 1
            if stop > from, bytes[stop - 1] == 13 { stop -= 1 }
            let index = chunk.lineCount
            chunk.lineCount += 1
            if stop - from > LineReader.maxLineLength {
                chunk.failure = (index, .tooLong)
                return
            }
            if PreparedEventCoding.decode(prepared, index: index, line: from..<stop, into: &chunk) { return }
            // Not a whole preparation: prepared here instead, with the same result.
            prepareHere(from..<stop, index: index)
            return
        }
        bytes.withUnsafeBytes { all in
            LineChunk.forEachLine(UnsafeRawBufferPointer(rebasing: all[from...])) { line, isTooLong in
                let index = chunk.lineCount
                chunk.lineCount += 1
                if isTooLong {
                    chunk.failure = (index, .tooLong)
                    return false
                }
                let at = line.isEmpty ? from : all.baseAddress!.distance(to: line.baseAddress!)
                return LinePreparer.prepare(line, at: at, index: index, into: &chunk)
            }
        }
    }

    /// Prepares the line at `range` of ``bytes``, the append's line `index`.
    private mutating func prepareHere(_ range: Range<Int>, index: Int) {
        bytes.withUnsafeBytes { all in
            _ = LinePreparer.prepare(UnsafeRawBufferPointer(rebasing: all[range]), at: range.lowerBound, index: index, into: &chunk)
        }
    }

    /// Empties the lines, keeping the memory (and what the checker has looked up) for the next append.
    package mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        chunk.events.removeAll(keepingCapacity: true)
        chunk.encoded.removeAll(keepingCapacity: true)
        chunk.rewritten.removeAll(keepingCapacity: true)
        chunk.notes.removeAll()
        chunk.lineCount = 0
        chunk.failure = nil
    }
}

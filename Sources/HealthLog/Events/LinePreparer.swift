/// The part of an append that depends on one line alone, run on a background thread per
/// chunk: parse the line strictly (``EventLineParser``), check it against HealthKit's table
/// (``InputChecker``, whose rewrites are parsed again), and encode an add's stored line
/// but for its sequence number. What depends on the lines before — sequence numbers, UUIDs
/// used, deletes — stays with the writer, which takes the chunks in input order.
enum LinePreparer {
    /// The lines of `chunk` made ready into `out` (empty; its checker checks them and its
    /// arrays' room is reused).
    static func prepare(_ chunk: LineChunk, into out: consuming PreparedChunk) -> PreparedChunk {
        var out = out
        let memo = TokenMemo()
        out.encoded.reserveCapacity(chunk.range.count + chunk.range.count / 4)
        // About a line per 256 bytes (the yardstick's lines are ~370), and the lines of a
        // chunk cut short for its short lines (``LineReader/chunkLines``), so the events are
        // seldom moved as the array grows.
        out.events.reserveCapacity(max(chunk.range.count / 256, LineReader.chunkLines) + 16)
        chunk.withBytes { bytes in
            var index = 0
            LineChunk.forEachLine(bytes) { line, isTooLong in
                defer { index += 1 }
                if isTooLong {
                    out.failure = (index, .tooLong)
                    return false
                }
                let at = line.isEmpty ? 0 : bytes.baseAddress!.distance(to: line.baseAddress!)
                return prepare(line, at: at, index: index, memo: memo, into: &out)
            }
            out.lineCount = index
        }
        return out
    }

    /// Prepares `line` (at offset `at` of the bytes `out`'s lines lie in), line `index`,
    /// into `out`, parsed with the tokens of the lines before in `memo` when one is given:
    /// a blank line is left out, a refused one becomes ``PreparedChunk/failure`` and
    /// returns `false`.
    static func prepare(_ line: UnsafeRawBufferPointer, at: Int, index: Int, memo: TokenMemo? = nil, into out: inout PreparedChunk) -> Bool {
        if line.allSatisfy({ $0 == 32 || $0 == 9 }) { return true }
        do {
            try prepareLine(line, at: at, index: index, memo: memo, into: &out)
        } catch let error as FieldError {
            out.failure = (index, .field(error))
            return false
        } catch {
            out.failure = (index, .field(FieldError(field: nil, reason: "\(error)")))
            return false
        }
        return true
    }

    /// Prepares `line` (at offset `at` of the chunk's bytes), the chunk's line `index`,
    /// parsed with the tokens of the lines before in `memo`, if any.
    private static func prepareLine(_ line: UnsafeRawBufferPointer, at: Int, index: Int, memo: TokenMemo?, into out: inout PreparedChunk) throws {
        let event = try EventLineParser.parse(line, memo: memo)
        let outcome = try out.checker.check(event, line: line)
        if let note = outcome.note, !out.notes.contains(note) { out.notes.append(note) }
        guard let rewritten = outcome.rewritten else {
            return record(event, line: line, at: at..<at + line.count, isRewritten: false, index: index, into: &out)
        }
        let start = out.rewritten.count
        out.rewritten.append(contentsOf: rewritten)
        try rewritten.withUnsafeBytes { bytes in
            record(try EventLineParser.parse(bytes), line: bytes, at: start..<start + bytes.count, isRewritten: true, index: index, into: &out)
        }
    }

    /// Adds the prepared form of `event`, parsed from `line`, to `out`.
    static func record(
        _ event: ParsedEvent, line: UnsafeRawBufferPointer, at range: Range<Int>, isRewritten: Bool, index: Int, into out: inout PreparedChunk
    ) {
        let from = out.encoded.count
        var verbatim: Range<Int>?
        if !event.isDelete {
            if let uuid = event.uuid, let body = LineEncoder.verbatimBody(event, line: line) {
                uuid.render(into: &out.encoded)
                verbatim = body
            } else {
                LineEncoder.prepareAdd(event, line: line, to: &out.encoded)
            }
        }
        out.events.append(PreparedEvent(
            index: index, isDelete: event.isDelete, isRewritten: isRewritten, line: range, uuid: event.uuid,
            type: event.type, source: event.source, device: event.device, start: event.start, end: event.end,
            sync: SyncStub(event, line: line), objects: event.objects, encoded: from..<out.encoded.count, verbatim: verbatim))
    }
}

// libFuzzer target for the NDJSON input side of the library: the strict event-line parser
// and what sits around it. Built by tools/fuzz/run together with the library's sources as
// one module (so internal APIs are reachable); not part of Package.swift.
//
// Each input is used as
//   1. one event line for `EventLineParser.parse`; when it parses, the stored lines the
//      writer would make of it (`LineEncoder.appendAdd`, and `appendDelete` with the stub the
//      writer would keep) must parse again to the same event, and `BatchLines.uuid` must find
//      the UUID at its fixed place;
//   2. a stream for `LineReader`, each line of which goes through (1), and one chunk for
//      `LinePreparer` (what an append runs on background threads), whose events, stored-line
//      bytes (those completed from the line's own bytes, `verbatim`, too) and first refused
//      line must be those of the lines parsed, checked and encoded one by one; its lines,
//      each twice, and the whole input parsed with one `TokenMemo` must give the events
//      and errors of parses without one;
//   3. the text of a `Timestamp`, a `SampleUUID` and a `QueryAnchor` token (each that parses
//      must print back to text that parses to the same value);
//   4. text for `JSONText.string` / `JSONText.scalar` (what `healthlog add` builds its line
//      from): the line built from them must parse;
//   5. a `--where` expression, and (when it parses as an event) a line tested against every
//      kind of predicate condition and decoded as the library's values.
// A thrown error is a normal outcome; a trap, a sanitizer report or a failed `check` is a finding.

#if canImport(Glibc)
import Glibc
#endif

/// The text of a byte range, for messages.
func text(_ bytes: UnsafeRawBufferPointer) -> String {
    String(decoding: bytes, as: UTF8.self)
}

let fixedUUID = SampleUUID(high: 0x0D4A_1F9C_5E3B_4C61, low: 0x9B57_2A1E_4F8C_7D10)

/// The same field of two parsed lines holds the same bytes.
func sameToken(_ a: Range<Int>?, _ lineA: UnsafeRawBufferPointer, _ b: Range<Int>?, _ lineB: UnsafeRawBufferPointer) -> Bool {
    switch (a, b) {
    case (nil, nil): return true
    case (let a?, let b?): return lineA[a].elementsEqual(lineB[b])
    default: return false
    }
}

/// Parses `line`; when it is a valid event, checks the stored forms the writer makes of it.
func fuzzLine(_ line: UnsafeRawBufferPointer) {
    guard let event = try? EventLineParser.parse(line) else { return }
    if event.isDelete {
        check(event.uuid != nil, "a delete parsed without a uuid")
        return
    }
    guard let kind = event.kind, let start = event.start, let end = event.end, event.type != nil else {
        check(false, "an add parsed without type, start or end: \(text(line))")
        return
    }
    check(end.microseconds >= start.microseconds, "end before start accepted")

    // The stored add line (what replay --raw prints) must parse back to the same event.
    let uuid = event.uuid ?? fixedUUID
    var stored: [UInt8] = []
    LineEncoder.appendAdd(event, uuid: uuid, seq: 42, line: line, to: &stored)
    check(stored.last == 10, "stored line does not end with a newline")
    stored.withUnsafeBytes { raw in
        let body = UnsafeRawBufferPointer(rebasing: raw[0..<raw.count - 1])
        let again: ParsedEvent
        do {
            again = try EventLineParser.parse(body)
        } catch {
            check(false, "stored add line does not parse (\(error)):\n  input:  \(text(line))\n  stored: \(text(body))")
            return
        }
        check(!again.isDelete && again.uuid == uuid && again.kind == kind, "stored add line changed op, uuid or kind")
        check(again.start == start && again.end == end, "stored add line changed start or end")
        check(sameToken(event.unit, line, again.unit, body) && sameToken(event.source, line, again.source, body)
            && sameToken(event.device, line, again.device, body) && sameToken(event.metadata, line, again.metadata, body)
            && sameToken(event.totals, line, again.totals, body) && sameToken(event.activity, line, again.activity, body)
            && sameToken(event.duration, line, again.duration, body) && again.objects == event.objects
            && again.syncVersion == event.syncVersion,
            "stored add line changed a verbatim field:\n  input:  \(text(line))\n  stored: \(text(body))")
        let found = BatchLines.uuid(of: BatchLines.Line(seq: 42, start: 0, end: raw.count, isDelete: false), in: raw)
        check(found == uuid, "BatchLines.uuid misreads the stored add line")
    }

    // The delete the writer would store for this sample must parse, as a delete of the same UUID.
    var state = WriterState(StoreLayout(directory: "/nonexistent"), snapshot: nil)
    let stub = state.stubFor(event, seq: 42, line: line)
    let sync = SyncStub(event, line: line)
    var deletion: [UInt8] = []
    LineEncoder.appendDelete(uuid: uuid, seq: 43, stub: stub, sync: sync, names: state.names, to: &deletion)
    deletion.withUnsafeBytes { raw in
        let body = UnsafeRawBufferPointer(rebasing: raw[0..<raw.count - 1])
        do {
            let again = try EventLineParser.parse(body)
            check(again.isDelete && again.uuid == uuid, "stored delete line changed op or uuid")
            check(again.start?.microseconds == start.microseconds && again.end?.microseconds == end.microseconds,
                "stored delete line changed the instants: \(text(body))")
            check(again.syncVersion == sync?.version, "stored delete line lost the sync version")
        } catch {
            check(false, "stored delete line does not parse (\(error)):\n  input:  \(text(line))\n  stored: \(text(body))")
        }
        let found = BatchLines.uuid(of: BatchLines.Line(seq: 43, start: 0, end: raw.count, isDelete: true), in: raw)
        check(found == uuid, "BatchLines.uuid misreads the stored delete line")
    }
}

/// The input as one chunk through `LinePreparer`, against the same lines parsed, checked
/// and encoded one at a time: the same events in the same order, the same stored lines
/// (completed with a sequence number and, where the line gives none, a UUID), the same
/// first refused line.
func fuzzPrepared(_ input: UnsafeRawBufferPointer) {
    let chunk = LineChunk(storage: .bytes(Array(input)), range: 0..<input.count)
    let prepared = LinePreparer.prepare(chunk, checker: InputChecker(importing: false))
    var checker = InputChecker(importing: false)
    var index = 0
    var next = 0
    var failedAt: Int?
    LineChunk.forEachLine(input) { line, isTooLong in
        defer { index += 1 }
        if isTooLong {
            failedAt = index
            return false
        }
        if line.allSatisfy({ $0 == 32 || $0 == 9 }) { return true }
        do {
            var event = try EventLineParser.parse(line)
            var bytes = Array(line)
            if let rewritten = try checker.check(event, line: line).rewritten {
                bytes = rewritten
                event = try rewritten.withUnsafeBytes { try EventLineParser.parse($0) }
            }
            guard next < prepared.events.count else {
                check(false, "LinePreparer left out line \(index): \(text(line))")
                return false
            }
            let mine = prepared.events[next]
            next += 1
            check(mine.index == index && mine.isDelete == event.isDelete && mine.uuid == event.uuid, "LinePreparer's event \(index) differs")
            guard !event.isDelete else { return true }
            let uuid = event.uuid ?? fixedUUID
            var whole: [UInt8] = []
            bytes.withUnsafeBytes { LineEncoder.appendAdd(event, uuid: uuid, seq: 7, line: $0, to: &whole) }
            var completed: [UInt8] = []
            prepared.encoded.withUnsafeBytes { encoded in
                bytes.withUnsafeBytes { line in
                    LineEncoder.appendAdd(
                        seq: 7, uuid: event.uuid == nil ? uuid : nil, prepared: UnsafeRawBufferPointer(rebasing: encoded[mine.encoded]),
                        verbatim: mine.verbatim.map { UnsafeRawBufferPointer(rebasing: line[$0]) }, to: &completed)
                }
            }
            check(whole == completed, "LinePreparer's stored line differs:\n  whole:    \(String(decoding: whole, as: UTF8.self))\n  prepared: \(String(decoding: completed, as: UTF8.self))")
            return true
        } catch {
            failedAt = index
            return false
        }
    }
    check(next == prepared.events.count, "LinePreparer prepared \(prepared.events.count) events, the lines one by one \(next)")
    check(prepared.failure?.index == failedAt, "LinePreparer refuses line \(prepared.failure.map { "\($0.index)" } ?? "none"), the lines one by one \(failedAt.map { "\($0)" } ?? "none")")
}

/// The outcome of a parse, for comparing two: every field of the event (instants
/// compared apart, as their description leaves fields out), or the error's field and reason.
func outcome(_ line: UnsafeRawBufferPointer, memo: TokenMemo?) -> (text: String, start: Timestamp?, end: Timestamp?) {
    do {
        let event = try EventLineParser.parse(line, memo: memo)
        return (String(describing: event), event.start, event.end)
    } catch let error as FieldError {
        return ("error \(error.field ?? "-"): \(error.reason)", nil, nil)
    } catch {
        return ("error \(error)", nil, nil)
    }
}

/// The lines of the input parsed with one ``TokenMemo`` (as `LinePreparer` parses a chunk),
/// each twice (the second time every token it remembered is taken from the memo, and every
/// key compared first with the key order the memo kept of the line before), then the
/// whole input as one line: each parse must give what a parse without a memo gives, the
/// same event field for field or the same error.
func fuzzMemo(_ input: UnsafeRawBufferPointer) {
    let memo = TokenMemo()
    func compare(_ line: UnsafeRawBufferPointer) {
        let plain = outcome(line, memo: nil)
        let memoized = outcome(line, memo: memo)
        check(plain.text == memoized.text && plain.start == memoized.start && plain.end == memoized.end,
            "a parse with the token memo differs:\n  line:  \(text(line))\n  plain: \(plain.text)\n  memo:  \(memoized.text)")
    }
    LineChunk.forEachLine(input) { line, _ in
        compare(line)
        compare(line)
        return true
    }
    compare(input)
}

/// `Timestamp`, `SampleUUID` and `QueryAnchor` on the whole input: what parses prints back.
func fuzzScalars(_ input: UnsafeRawBufferPointer) {
    if let instant = Timestamp(utf8: input) {
        let printed = instant.description
        guard let again = Timestamp(iso8601: printed) else {
            check(false, "Timestamp prints \(printed) for \(text(input)), which does not parse")
            return
        }
        check(again.microseconds == instant.microseconds && again.offsetMinutes == instant.offsetMinutes && again.isZulu == instant.isZulu,
            "Timestamp round trip: \(text(input)) -> \(printed)")
    }
    if let uuid = SampleUUID(utf8: input) {
        check(uuid.description == text(input).uppercased(), "SampleUUID prints \(uuid) for \(text(input))")
        check(SampleUUID(uuid.description) == uuid, "SampleUUID round trip")
    }
    let token = text(input)
    if let anchor = try? QueryAnchor(token: token) {
        let again = try? QueryAnchor(token: anchor.token)
        check(again == anchor, "QueryAnchor round trip: \(token) -> \(anchor.token)")
    }
    _ = Timestamp(commandLine: token)
}

/// What `healthlog add` builds from command-line text must be an event line that parses.
func fuzzJSONText(_ input: UnsafeRawBufferPointer) {
    // Split at the first '=' the way --metadata KEY=VALUE is split.
    let all = text(input)
    let key: String
    let value: String
    if let eq = all.firstIndex(of: "=") {
        key = String(all[..<eq])
        value = String(all[all.index(after: eq)...])
    } else {
        key = all
        value = all
    }
    // The sync keys have rules of their own (a string identifier, an integer version, both or
    // neither); refusing them is right, so leave them out.
    if key.hasPrefix("HKMetadataKeySync") { return }
    let line = #"{"type":"HKDataTypeFuzz","start":"2024-03-01T08:00:00Z","source":"# + JSONText.string(value)
        + #","metadata":{"# + JSONText.string(key) + ":" + JSONText.scalar(value) + "}}"
    var bytes = Array(line.utf8)
    bytes.withUnsafeBytes { raw in
        do {
            _ = try EventLineParser.parse(raw)
        } catch let error as FieldError {
            // A repeated metadata key cannot happen (one key); anything else is the builder's fault.
            check(false, "line built by JSONText does not parse (field \(error.field ?? "-"): \(error.reason)):\n  \(line)")
        } catch {
            check(false, "line built by JSONText does not parse: \(error)")
        }
    }
    bytes.removeAll()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: size)

    // 1. The whole input as one line (LineReader would never hand over a '\n', but the
    //    parser must not care).
    fuzzLine(input)

    // 2. The input as a stream of lines.
    let newlines = input.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
    var reader = LineReader(bytes: Array(input))
    var lines = 0
    do {
        try reader.forEachLine { line, number in
            lines += 1
            check(number == lines, "LineReader numbers lines \(number), expected \(lines)")
            check(!line.contains(10), "LineReader returned a line holding a newline")
            if newlines > 0 { fuzzLine(line) }
        }
    } catch {
        check(false, "LineReader over memory threw \(error)")
    }
    fuzzPrepared(input)
    fuzzMemo(input)
    let lastNewline = input.lastIndex(of: 10)
    let trailing = lastNewline.map { size - $0 - 1 } ?? size
    check(lines == newlines + (trailing > 0 ? 1 : 0), "LineReader returned \(lines) lines for \(newlines) newlines")

    // 3. Scalars.
    if size <= 128 { fuzzScalars(input) }

    // 4. The add command's JSON builders (valid UTF-8 only: command-line text is decoded).
    if size <= 256, !input.contains(0), String(validating: input, as: UTF8.self) != nil {
        fuzzJSONText(input)
    }

    // 5. A `--where` expression, and a line that parses as an event tested against it:
    //    either may be refused, neither may trap.
    if size <= 256, let text = String(validating: input, as: UTF8.self), let predicate = try? WhereExpression.parse(text) {
        check(predicate.conditions.count == 1, "a --where expression made \(predicate.conditions.count) conditions")
    }
    if let subject = try? StoredLineView(line: input, seq: 1, location: "fuzz") {
        let all = QueryPredicate.and([
            .samples(withStart: Timestamp(microseconds: 0), end: nil, options: [.strictStartDate, .strictEndDate]),
            .metadata(key: "HKMetadataKeySyncIdentifier"), .metadata(key: "k", equals: "1"), .quantity(.greaterThan, 1),
            .categoryValues([.integer(1), .name("HKCategoryValueSleepAnalysisInBed")]), .sources(["s"]), .devices(["d"]),
        ])
        for condition in all.conditions { _ = QueryPredicate(conditions: [condition]).matches(subject) }
        _ = try? EventRecord(line: input, seq: 1, location: "fuzz")
    }
    return 0
}

/// The door between the core and the `HealthLogImport` target: the three things an import
/// needs from a store, and nothing of its storage. `package` access, so library users never
/// see it and the import never reaches past it.
extension HealthStore {
    /// Appends NDJSON event lines as one all-or-nothing append, in the importing mode: an
    /// add whose UUID was ever used (live, deleted, or earlier in the same input) is skipped
    /// and counted as ``AppendSummary/alreadyPresent`` instead of refused, so the same
    /// content can be imported again. Otherwise the same as ``append(ndjson:)``: durable
    /// when it returns (unless ``StoreOptions/sync`` is off), the store byte-identical on
    /// any error.
    ///
    /// - Parameter ndjson: event lines, each ending with a newline.
    /// - Returns: what the append did, and the new head anchor.
    /// - Throws: ``HealthLogError/Code/badInput`` for a line that is not a valid event
    ///   (naming the line and field), ``HealthLogError/Code/locked`` when another writer
    ///   holds the lock past the timeout, or a store code for I/O failure or damage.
    package func appendImporting(ndjson: [UInt8]) throws -> AppendSummary {
        let session = try AppendSession(layout, options: options, skipsUsedUUIDs: true)
        return try session.run([LineReader(bytes: ndjson, name: nil)])
    }

    /// Checks one event line (no newline) the way an importing append does, without a
    /// store: the JSON, the fields and their kinds, and HealthKit's rules for known types
    /// (units of the type's dimension, cumulative values not negative, category values of
    /// the type; ``InputChecker``). What needs the store (UUIDs used before,
    /// correlation members) is not checked.
    ///
    /// - Throws: ``HealthLogError/Code/badInput`` whose message is the reason, prefixed by
    ///   `field 'NAME': ` when one field is at fault.
    package static func validate(line: UnsafeRawBufferPointer) throws {
        var validator = ImportLineValidator()
        try validator.validate(line: line)
    }

    /// Fsyncs the directory that holds `path`, so an entry renamed there (a new store an
    /// import built beside its target) is durable.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when the directory cannot be opened or synced.
    package static func syncDirectory(containing path: String) throws {
        try DurableFile.syncDirectory(containing: path)
    }

    /// Calls `body` with the UUID of every live sample whose metadata holds `key`, in
    /// sequence order: HealthKit's view of the whole log, read by the replayer (the delete
    /// groups first, then the add groups), with deleted objects left out. Memory grows
    /// with the deletes in the log, not with the samples. No store: no call.
    ///
    /// - Throws: ``HealthLogError/Code/corrupt`` for damage, naming file and offset;
    ///   whatever `body` throws.
    package func forEachLiveSample(withMetadataKey key: String, _ body: (SampleUUID) throws -> Void) throws {
        guard layout.exists else { return }
        let pattern = Array("\"\(key)\":".utf8)
        let snapshot = try LogSnapshot(layout)
        _ = try Replayer(snapshot: snapshot, request: ReplayRequest(anchor: .beginning)).run { line in
            guard !line.isDelete, ByteSearch.contains(pattern, in: line.body) else { return }
            let place = BatchLines.Line(seq: line.seq, start: 0, end: line.bytes.count, isDelete: false)
            if let uuid = BatchLines.uuid(of: place, in: line.bytes) { try body(uuid) }
        }
    }
}

/// ``HealthStore/validate(line:)`` for many lines: the same checks, keeping what
/// ``InputChecker`` has looked up (a type's verdict, a unit's parse) from line to line, so an
/// import of a million heart rates parses `count/min` once, not a million times.
package struct ImportLineValidator {
    /// The one line ``prepare(line:)`` made ready last, with the checks and what they have
    /// looked up (its ``PreparedChunk/checker``, which ``validate(line:)`` uses too).
    private var scratch = PreparedChunk(checker: InputChecker(importing: true))
    /// The value tokens of the lines checked before (``TokenMemo``): an import's lines repeat
    /// their type, unit, source and device, and most end when they start.
    private let memo = TokenMemo()

    /// A validator that has looked up nothing yet.
    package init() {}

    /// Checks one event line (no newline) as ``HealthStore/validate(line:)`` does.
    ///
    /// - Throws: ``HealthLogError/Code/badInput`` whose message is the reason, prefixed by
    ///   `field 'NAME': ` when one field is at fault.
    package mutating func validate(line: UnsafeRawBufferPointer) throws {
        do {
            _ = try scratch.checker.check(try EventLineParser.parse(line, memo: memo), line: line)
        } catch let error as FieldError {
            throw Self.refusal(error)
        }
    }

    /// Checks one event line (no newline) as ``validate(line:)`` does and returns what an
    /// importing append makes of it before storing it (what ``LinePreparer`` makes of a line:
    /// the parsed fields, a rewrite, the stored line but for its sequence number), as bytes
    /// for ``ImportPreparedLines/add(_:prepared:)``, so the append neither parses nor checks
    /// the line again. `nil` when the checker's rewrite of the line does not parse: the
    /// append then prepares it itself, and refuses it as it always did.
    ///
    /// - Throws: what ``validate(line:)`` throws.
    package mutating func prepare(line: UnsafeRawBufferPointer) throws -> [UInt8]? {
        scratch.events.removeAll(keepingCapacity: true)
        scratch.encoded.removeAll(keepingCapacity: true)
        scratch.rewritten.removeAll(keepingCapacity: true)
        do {
            let event = try EventLineParser.parse(line, memo: memo)
            let outcome = try scratch.checker.check(event, line: line)
            if let rewritten = outcome.rewritten {
                scratch.rewritten.append(contentsOf: rewritten)
                guard let reparsed = try? rewritten.withUnsafeBytes({ try EventLineParser.parse($0) }) else { return nil }
                rewritten.withUnsafeBytes {
                    LinePreparer.record(reparsed, line: $0, at: 0..<$0.count, isRewritten: true, index: 0, into: &scratch)
                }
            } else {
                LinePreparer.record(event, line: line, at: 0..<line.count, isRewritten: false, index: 0, into: &scratch)
            }
        } catch let error as FieldError {
            throw Self.refusal(error)
        }
        var out: [UInt8] = []
        out.reserveCapacity(64)
        PreparedEventCoding.encode(scratch, to: &out)
        return out
    }

    /// The error for a line refused for `error`.
    private static func refusal(_ error: FieldError) -> HealthLogError {
        HealthLogError(.badInput, (error.field.map { "field '\($0)': " } ?? "") + error.reason)
    }
}

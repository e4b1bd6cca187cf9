/// A stored line, parsed (so its dates, UUID and kind are at hand) but with strings and
/// metadata decoded only when asked for: what predicates test, which keeps a predicate on
/// a million lines from allocating a million records, and what ``EventRecord`` decodes
/// in full.
struct StoredLineView {
    /// The stored line, without its newline.
    let line: UnsafeRawBufferPointer
    /// Its fields.
    let event: ParsedEvent

    /// Parses a stored line (without its newline); throws ``HealthLogError/Code/corrupt``
    /// naming `location` when it does not parse or lacks its UUID, type or dates.
    init(line: UnsafeRawBufferPointer, seq: UInt64, location: @autoclosure () -> String) throws {
        self.line = line
        do {
            event = try EventLineParser.parse(line)
        } catch let error as FieldError {
            throw HealthLogError(.corrupt, "\(location()): stored event \(seq) does not parse: \(error.field.map { "\($0): " } ?? "")\(error.reason)")
        }
        guard event.uuid != nil, event.type != nil, event.kind != nil, event.start != nil, event.end != nil else {
            throw HealthLogError(.corrupt, "\(location()): stored event \(seq) lacks its uuid, type or dates")
        }
    }

    var isDelete: Bool { event.isDelete }
    var kind: SampleKind { event.kind! }
    var uuid: SampleUUID { event.uuid! }
    var start: Int64 { event.start!.microseconds }
    var end: Int64 { event.end!.microseconds }

    /// The type identifier (identifiers have no escapes).
    var typeIdentifier: String { String(decoding: UnsafeRawBufferPointer(rebasing: line[event.type!]), as: UTF8.self) }

    /// The decoded string of a token.
    func string(_ range: Range<Int>?) -> String? {
        range.map { JSONStringDecoder.decode(UnsafeRawBufferPointer(rebasing: line[$0])) }
    }

    /// The number a token holds.
    func double(_ range: Range<Int>) -> Double? {
        Double(String(decoding: UnsafeRawBufferPointer(rebasing: line[range]), as: UTF8.self))
    }

    /// The number value, if the value is a number.
    var number: Double? {
        guard case .number(let range, _) = event.value else { return nil }
        return double(range)
    }

    /// The number value's JSON text, as recorded.
    var numberText: String? {
        guard case .number(let range, _) = event.value else { return nil }
        return String(decoding: UnsafeRawBufferPointer(rebasing: line[range]), as: UTF8.self)
    }

    /// The string value, if the value is a string.
    var text: String? {
        guard case .string(let range) = event.value else { return nil }
        return string(range)
    }

    /// The category value: a name, or an integer (a number beyond `Int` keeps its text
    /// as a name, so it matches nothing but itself).
    var categoryValue: CategoryValue? {
        if let text { return .name(text) }
        return numberText.map { text in Int(text).map { .integer($0) } ?? .name(text) }
    }

    /// The text form of the metadata value for `key`, or `nil` when the key is absent.
    func metadataText(_ key: String) -> String? {
        guard let range = event.metadata else { return nil }
        return JSONObjectReader.entries(UnsafeRawBufferPointer(rebasing: line[range])).first { $0.key == key }?.text
    }
}

/// A stored line decoded into values, for the library's samples and for CSV.
struct EventRecord {
    /// A metadata entry: its key, its value, and the value's text form (a string's
    /// characters, a number's or boolean's JSON text) that `--metadata KEY=VALUE` compares.
    struct MetadataEntry {
        var key: String
        var value: MetadataValue
        var text: String
    }

    var seq: UInt64
    var isDelete: Bool
    var uuid: SampleUUID
    var type: SampleType
    var start: Timestamp
    var end: Timestamp
    /// A number value (quantity samples, integer category values, characteristics).
    var number: Double?
    /// The number value's JSON text, as recorded.
    var numberText: String?
    /// A number value that is an integer in `Int`'s range (category values).
    var integer: Int?
    /// A string value (category constants' names, characteristics).
    var text: String?
    var unit: String?
    var source: String?
    var sourceVersion: String?
    var device: String?
    var metadata: [MetadataEntry] = []
    var activity: String?
    var duration: Double?
    var totals: [String: Quantity] = [:]
    var objects: [SampleUUID] = []

    /// Decodes a stored line (without its newline); throws ``HealthLogError/Code/corrupt``
    /// naming `location` when the stored line does not parse.
    init(line: UnsafeRawBufferPointer, seq: UInt64, location: @autoclosure () -> String) throws {
        let e: ParsedEvent
        do {
            e = try EventLineParser.parse(line)
        } catch let error as FieldError {
            throw HealthLogError(.corrupt, "\(location()): stored event \(seq) does not parse: \(error.field.map { "\($0): " } ?? "")\(error.reason)")
        }
        guard let uuid = e.uuid, let typeRange = e.type, let type = SampleType(String(decoding: UnsafeRawBufferPointer(rebasing: line[typeRange]), as: UTF8.self)),
            let start = e.start, let end = e.end
        else { throw HealthLogError(.corrupt, "\(location()): stored event \(seq) lacks its uuid, type or dates") }
        func string(_ range: Range<Int>?) -> String? {
            range.map { JSONStringDecoder.decode(UnsafeRawBufferPointer(rebasing: line[$0])) }
        }
        func double(_ range: Range<Int>) -> Double? {
            Double(String(decoding: UnsafeRawBufferPointer(rebasing: line[range]), as: UTF8.self))
        }
        self.seq = seq
        isDelete = e.isDelete
        self.uuid = uuid
        self.type = type
        self.start = start
        self.end = end
        switch e.value {
        case .number(let range, let isInteger):
            number = double(range)
            numberText = String(decoding: UnsafeRawBufferPointer(rebasing: line[range]), as: UTF8.self)
            if isInteger { integer = numberText.flatMap { Int($0) } }
        case .string(let range): text = string(range)
        case nil: break
        }
        unit = string(e.unit)
        source = string(e.source)
        sourceVersion = string(e.sourceVersion)
        device = string(e.device)
        activity = string(e.activity)
        duration = e.duration.flatMap(double)
        objects = e.objects ?? []
        if let range = e.metadata { metadata = JSONObjectReader.entries(UnsafeRawBufferPointer(rebasing: line[range])) }
        if let range = e.totals { totals = JSONObjectReader.totals(UnsafeRawBufferPointer(rebasing: line[range])) }
    }

    /// The category value: a constant's name, or an integer (a number beyond `Int` keeps
    /// its text as a name, so it matches nothing but itself).
    var categoryValue: CategoryValue? {
        if let text { return .name(text) }
        if let integer { return .integer(integer) }
        return numberText.map { .name($0) }
    }

    /// The metadata as a dictionary.
    var metadataDictionary: [String: MetadataValue] {
        Dictionary(metadata.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }
}

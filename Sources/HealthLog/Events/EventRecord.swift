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
    /// A string value (category constants' names, characteristics).
    var text: String?
    /// The value as a category value (see ``StoredLineView/categoryValue``).
    var categoryValue: CategoryValue?
    var unit: String?
    var source: String?
    var sourceVersion: String?
    var device: String?
    var metadata: [MetadataEntry] = [] {
        didSet { dictionary = nil }
    }
    /// ``metadata`` as a dictionary, when a ``RecordMemo`` had it.
    private var dictionary: [String: MetadataValue]?
    var activity: String?
    var duration: Double?
    var totals: [String: Quantity] = [:]
    var objects: [SampleUUID] = []
    /// A workout route's workout.
    var workout: SampleUUID?
    /// A workout route's points.
    var locations: [RouteLocation] = []
    /// An electrocardiogram's voltages.
    var voltages: [Double] = []

    /// Decodes a stored line (without its newline); throws ``HealthLogError/Code/corrupt``
    /// naming `location` when the stored line does not parse.
    init(line: UnsafeRawBufferPointer, seq: UInt64, location: @autoclosure () -> String) throws {
        var memo = RecordMemo()
        try self.init(line: line, seq: seq, memo: &memo, location: location())
    }

    /// Decodes a stored line as ``init(line:seq:location:)`` does, taking the type, unit,
    /// source, device and metadata from `memo` when an earlier line held the same bytes.
    init(line: UnsafeRawBufferPointer, seq: UInt64, memo: inout RecordMemo, location: @autoclosure () -> String) throws {
        let view = try StoredLineView(line: line, seq: seq, location: location())
        let e = view.event
        func bytes(_ range: Range<Int>) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: line[range]) }
        func string(_ slot: inout RecordMemo.Slot<String>, _ range: Range<Int>?) -> String? {
            range.map { range in slot.value(bytes(range)) { view.string(range)! } }
        }
        guard let type = memo.type.value(bytes(e.type!), { SampleType(view.typeIdentifier) }) else {
            throw HealthLogError(.corrupt, "\(location()): stored event \(seq) has no HealthKit type")
        }
        self.seq = seq
        isDelete = view.isDelete
        uuid = view.uuid
        self.type = type
        start = e.start!
        end = e.end!
        number = view.number
        numberText = view.numberText
        text = view.text
        categoryValue = view.categoryValue
        unit = string(&memo.unit, e.unit)
        source = string(&memo.source, e.source)
        sourceVersion = string(&memo.sourceVersion, e.sourceVersion)
        device = string(&memo.device, e.device)
        activity = view.string(e.activity)
        duration = e.duration.flatMap(view.double)
        objects = e.objects ?? []
        workout = e.workout
        if let range = e.locations { locations = LocationsParser.decode(UnsafeRawBufferPointer(rebasing: line[range])) }
        if let range = e.voltages {
            voltages = line[range.lowerBound + 1..<range.upperBound - 1].split(separator: 0x2C).compactMap {
                Double(String(decoding: $0, as: UTF8.self).filter { !$0.isWhitespace })
            }
        }
        if let range = e.metadata {
            let known = memo.metadata.value(bytes(range)) {
                let entries = JSONObjectReader.entries(bytes(range))
                return (entries, Self.dictionary(entries))
            }
            metadata = known.entries
            dictionary = known.dictionary
        }
        if let range = e.totals { totals = JSONObjectReader.totals(UnsafeRawBufferPointer(rebasing: line[range])) }
    }

    /// The metadata as a dictionary.
    var metadataDictionary: [String: MetadataValue] {
        dictionary ?? Self.dictionary(metadata)
    }

    private static func dictionary(_ entries: [MetadataEntry]) -> [String: MetadataValue] {
        Dictionary(entries.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }
}

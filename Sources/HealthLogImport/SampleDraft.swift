import HealthLog

/// A sample being built from an export element: the fields of its event line as
/// JSON texts, rendered once to derive its UUID from its content and once as the line the
/// import appends.
struct SampleDraft {
    /// A date field: the ISO 8601 text (offset kept) and its instant.
    typealias Instant = ExportInstant

    /// The metadata key that marks a sample as imported; its value is the export's date.
    static let markerKey = "HealthLogImport"
    /// The prefix of the metadata keys the import adds for what the event line has no field for.
    static let keyPrefix = "HealthLogImport."
    /// Versions the content rule: hashed before the content, so a future rule can never
    /// give an old record's UUID to different content.
    static let hashDomain = Array("healthlog import v1\n".utf8)

    var type: String
    var start: Instant
    var end: Instant
    /// `value` as JSON text.
    var value: String?
    var unit: String?
    var source: String?
    var sourceVersion: String?
    var device: String?
    var activity: String?
    /// `duration` in seconds, as JSON number text.
    var duration: String?
    /// `totals`: name, JSON number text, unit.
    var totals: [(name: String, value: String, unit: String)] = []
    var objects: [SampleUUID] = []
    /// A workout route's workout.
    var workout: SampleUUID?
    /// A workout route's `locations`, as a JSON array.
    var locations: [UInt8]?
    /// An electrocardiogram's `voltages`, as a JSON array.
    var voltages: [UInt8]?
    /// One metadata value: JSON text, or a date (hashed as its instant, stored as its text).
    enum MetadataValue {
        /// The value as JSON text.
        case json(String)
        /// A string value, rendered as its JSON string literal (``JSONText/string(_:)`` of
        /// it) straight into the line, without building that literal as a `String`.
        case text(String)
        /// A date kept in metadata (`HealthLogImport.creationDate`).
        case date(Instant)

        /// The value as JSON text.
        var jsonText: String {
            switch self {
            case .json(let text): text
            case .text(let text): JSONText.string(text)
            case .date(let date): JSONText.string(date.iso)
            }
        }
    }

    /// One metadata entry (a struct, not a tuple: a draft's entries are then freed through
    /// their own destroy, not the runtime's generic one for tuples).
    struct MetadataEntry {
        /// The key.
        var key: String
        /// The value.
        var value: MetadataValue
    }

    /// The metadata entries, in the order added, each key once.
    private(set) var metadata: [MetadataEntry] = []
    /// The index of each entry by key, once there are more than ``scannedEntries``
    /// (an element with thousands of attributes or `MetadataEntry` children is then read in
    /// linear time; the few entries of a real sample are found by a scan, without hashing).
    private var indexByKey: [String: Int] = [:]
    /// How many entries are found by a scan before ``indexByKey`` is built.
    private static let scannedEntries = 16
    /// Keys given twice with different values: the first value is kept.
    private(set) var conflicts: [String] = []

    /// A draft with the fields every sample has.
    init(type: String, start: Instant, end: Instant) {
        self.type = type
        self.start = start
        self.end = end
    }

    /// The index of the entry for `key`.
    private func entry(_ key: String) -> Int? {
        if metadata.count > Self.scannedEntries { return indexByKey[key] }
        return metadata.firstIndex { $0.key == key }
    }

    /// Adds an entry whose key is not there yet.
    private mutating func append(_ key: String, _ value: MetadataValue) {
        metadata.append(MetadataEntry(key: key, value: value))
        if metadata.count > Self.scannedEntries {
            if indexByKey.isEmpty {
                for (index, entry) in metadata.enumerated() { indexByKey[entry.key] = index }
            } else {
                indexByKey[key] = metadata.count - 1
            }
        }
    }

    /// Adds a metadata entry. A key given again with the same value is dropped (modern
    /// exports repeat every workout-level entry); with another value it is recorded in
    /// ``conflicts`` and the first value kept.
    mutating func addMetadata(_ key: String, json: String) {
        if let index = entry(key) {
            if metadata[index].value.jsonText != json { conflicts.append(key) }
            return
        }
        append(key, .json(json))
    }

    /// Adds a metadata entry whose value is the string `text`: the same entry as
    /// ``addMetadata(_:json:)`` of `JSONText.string(text)`, rendered without building it.
    mutating func addMetadata(_ key: String, text: String) {
        if let index = entry(key) {
            if metadata[index].value.jsonText != JSONText.string(text) { conflicts.append(key) }
            return
        }
        append(key, .text(text))
    }

    /// Adds a metadata entry whose value is a date, kept as ISO text.
    mutating func addMetadata(_ key: String, date: Instant) {
        guard entry(key) == nil else { return }
        append(key, .date(date))
    }

    /// The UUID derived from the content: the first 128 bits of SHA-256 over the
    /// canonical rendering (dates as instants, so a re-export in another time zone keeps
    /// it; no import marker), with RFC 9562's version 8 and variant bits set.
    func contentUUID(_ workspace: LineWorkspace) -> SampleUUID {
        var canonical = workspace.canonical
        canonical.removeAll()
        Self.hashDomain.withUnsafeBytes { canonical.write($0) }
        render(uuid: nil, marker: nil, into: &canonical)
        let hash = workspace.hash
        hash.reset()
        hash.update(canonical.bytes)
        let (high, low) = hash.finalizeFirst128Bits()
        return SampleUUID(high: high & 0xFFFF_FFFF_FFFF_0FFF | 0x0000_0000_0000_8000, low: low & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000)
    }

    /// The event line (no newline), as a new array with room for `capacity` bytes. The
    /// default fits a line with a device and its metadata (about 550 bytes) and its newline,
    /// so the array is not grown and copied as it is written.
    func render(uuid: SampleUUID?, marker: [UInt8]?, capacity: Int = 1024) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(capacity)
        render(uuid: uuid, marker: marker, into: &out)
        return out
    }

    /// Sorts `order`, indices into ``metadata`` and -1 for the marker, by their keys
    /// (String order), equal keys kept in their order: an insertion sort, since a sample
    /// has a handful of entries and this runs for every record twice (the canonical form
    /// and the line); the stable library sort's set-up cost more than the sorting.
    /// Past ``scannedEntries`` entries (an element with thousands of attributes), the
    /// library's sort, by key and then by place, so the time stays n log n.
    private func sortByKey(_ order: UnsafeMutableBufferPointer<Int>) {
        func key(_ index: Int) -> String { index < 0 ? Self.markerKey : metadata[index].key }
        guard order.count > 1 else { return }
        if order.count > Self.scannedEntries {
            let keyed = order.map { (key: key($0), place: $0 < 0 ? Int.max : $0, index: $0) }
            let sorted = keyed.sorted { $0.key != $1.key ? $0.key < $1.key : $0.place < $1.place }
            for (k, entry) in sorted.enumerated() { order[k] = entry.index }
            return
        }
        for k in 1..<order.count {
            let moving = order[k]
            let movingKey = key(moving)
            var at = k
            while at > 0, movingKey < key(order[at - 1]) {
                order[at] = order[at - 1]
                at -= 1
            }
            order[at] = moving
        }
    }

    /// Appends the event line (no newline) to `out`. Without a UUID it is the canonical
    /// form the UUID is hashed from: dates as microseconds since 1970 and no marker. The
    /// marker is the JSON text of its value.
    func render(uuid: SampleUUID?, marker: [UInt8]?, into out: inout some ByteOutput) {
        let canonical = uuid == nil
        func raw(_ text: StaticString) {
            out.write(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }
        func bytes(_ array: [UInt8]) {
            array.withUnsafeBytes { out.write($0) }
        }
        func string(_ key: StaticString, _ value: String?) {
            guard let value else { return }
            raw(key)
            JSONBytes.appendString(value, to: &out)
        }
        func date(_ d: Instant) {
            if canonical {
                JSONBytes.appendInteger(d.instant.microseconds, to: &out)
            } else {
                d.appendISO(to: &out)
            }
        }
        raw("{")
        if let uuid {
            raw("\"uuid\":\"")
            uuid.withText { out.write(UnsafeRawBufferPointer($0)) }
            raw("\",")
        }
        string("\"type\":", type)
        raw(",\"start\":")
        date(start)
        raw(",\"end\":")
        date(end)
        if let value {
            raw(",\"value\":")
            JSONBytes.appendRaw(value, to: &out)
        }
        string(",\"unit\":", unit)
        string(",\"source\":", source)
        string(",\"sourceVersion\":", sourceVersion)
        string(",\"device\":", device)
        string(",\"activity\":", activity)
        if let duration {
            raw(",\"duration\":")
            JSONBytes.appendRaw(duration, to: &out)
        }
        if !totals.isEmpty {
            raw(",\"totals\":{")
            for (k, total) in totals.enumerated() {
                if k > 0 { raw(",") }
                JSONBytes.appendString(total.name, to: &out)
                raw(":{\"value\":")
                JSONBytes.appendRaw(total.value, to: &out)
                string(",\"unit\":", total.unit)
                raw("}")
            }
            raw("}")
        }
        if !metadata.isEmpty || marker != nil {
            raw(",\"metadata\":{")
            // The order on the stack, not in an array made twice for every record.
            withUnsafeTemporaryAllocation(of: Int.self, capacity: metadata.count + 1) { space in
                let order = UnsafeMutableBufferPointer(rebasing: space[0..<(metadata.count + (marker == nil ? 0 : 1))])
                for k in metadata.indices { order[k] = k }
                if marker != nil { order[metadata.count] = -1 }
                sortByKey(order)
                for (k, index) in order.enumerated() {
                    if k > 0 { raw(",") }
                    // The marker's key taken by an entry renders that entry twice, as a map
                    // keyed by name did.
                    let value = index >= 0 ? metadata[index].value : entry(Self.markerKey).map { metadata[$0].value }
                    JSONBytes.appendString(index >= 0 ? metadata[index].key : Self.markerKey, to: &out)
                    raw(":")
                    switch value {
                    case .json(let json)?: JSONBytes.appendRaw(json, to: &out)
                    case .text(let text)?: JSONBytes.appendString(text, to: &out)
                    case .date(let when)?: date(when)
                    case nil: if let marker { bytes(marker) }
                    }
                }
            }
            raw("}")
        }
        if !objects.isEmpty {
            raw(",\"objects\":[")
            for (k, member) in objects.enumerated() {
                raw(k == 0 ? "\"" : ",\"")
                member.withText { out.write(UnsafeRawBufferPointer($0)) }
                raw("\"")
            }
            raw("]")
        }
        if let workout {
            raw(",\"workout\":\"")
            workout.withText { out.write(UnsafeRawBufferPointer($0)) }
            raw("\"")
        }
        if let locations {
            raw(",\"locations\":")
            bytes(locations)
        }
        if let voltages {
            raw(",\"voltages\":")
            bytes(voltages)
        }
        raw("}")
    }
}

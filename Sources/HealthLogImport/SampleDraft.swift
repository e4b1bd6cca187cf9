import HealthLog

/// A sample being built from an export element: the fields of its SPEC §1 event line as
/// JSON texts, rendered once to derive its UUID from its content and once as the line the
/// import appends.
struct SampleDraft {
    /// A date field: the ISO 8601 text (offset kept) and its instant.
    typealias Instant = (iso: String, instant: Timestamp)

    /// The metadata key that marks a sample as imported; its value is the export's date.
    static let markerKey = "HealthLogImport"
    /// The prefix of the metadata keys the import adds for what SPEC §1 has no field for.
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
    /// Metadata values as JSON texts, by key.
    private(set) var metadata: [String: String] = [:]
    /// Dates kept in metadata (`HealthLogImport.creationDate`), hashed as instants.
    private(set) var metadataDates: [String: Instant] = [:]
    /// Keys given twice with different values: the first value is kept.
    private(set) var conflicts: [String] = []

    /// A draft with the fields every sample has.
    init(type: String, start: Instant, end: Instant) {
        self.type = type
        self.start = start
        self.end = end
    }

    /// Adds a metadata entry. A key given again with the same value is dropped (modern
    /// exports repeat every workout-level entry); with another value it is recorded in
    /// ``conflicts`` and the first value kept.
    mutating func addMetadata(_ key: String, json: String) {
        if let earlier = metadata[key] ?? metadataDates[key].map({ JSONText.string($0.iso) }) {
            if earlier != json { conflicts.append(key) }
            return
        }
        metadata[key] = json
    }

    /// Adds a metadata entry whose value is a date, kept as ISO text.
    mutating func addMetadata(_ key: String, date: Instant) {
        guard metadata[key] == nil, metadataDates[key] == nil else { return }
        metadataDates[key] = date
    }

    /// The UUID derived from the content: the first 128 bits of SHA-256 over the
    /// canonical rendering (dates as instants, so a re-export in another time zone keeps
    /// it; no import marker), with RFC 9562's version 8 and variant bits set.
    var contentUUID: SampleUUID {
        let hash = SHA256()
        hash.update(Self.hashDomain)
        hash.update(render(uuid: nil, marker: nil))
        let digest = hash.finalize()
        let high = digest[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let low = digest[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return SampleUUID(high: high & 0xFFFF_FFFF_FFFF_0FFF | 0x0000_0000_0000_8000, low: low & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000)
    }

    /// The event line (no newline). Without a UUID it is the canonical form the UUID is
    /// hashed from: dates as microseconds since 1970 and no marker.
    func render(uuid: SampleUUID?, marker: String?) -> [UInt8] {
        let canonical = uuid == nil
        var out: [UInt8] = []
        out.reserveCapacity(512)
        func raw(_ text: StaticString) {
            out.append(contentsOf: UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }
        func string(_ key: StaticString, _ value: String?) {
            guard let value else { return }
            raw(key)
            JSONBytes.appendString(value, to: &out)
        }
        func date(_ d: Instant) {
            if canonical {
                JSONBytes.appendRaw(String(d.instant.microseconds), to: &out)
            } else {
                JSONBytes.appendString(d.iso, to: &out)
            }
        }
        raw("{")
        if let uuid {
            raw("\"uuid\":\"")
            uuid.render(into: &out)
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
        var keys = Array(metadata.keys) + Array(metadataDates.keys)
        if marker != nil { keys.append(Self.markerKey) }
        if !keys.isEmpty {
            keys.sort()
            raw(",\"metadata\":{")
            for (k, key) in keys.enumerated() {
                if k > 0 { raw(",") }
                JSONBytes.appendString(key, to: &out)
                raw(":")
                if let json = metadata[key] {
                    JSONBytes.appendRaw(json, to: &out)
                } else if let when = metadataDates[key] {
                    date(when)
                } else if let marker {
                    JSONBytes.appendRaw(marker, to: &out)
                }
            }
            raw("}")
        }
        if !objects.isEmpty {
            raw(",\"objects\":[")
            for (k, member) in objects.enumerated() {
                raw(k == 0 ? "\"" : ",\"")
                member.render(into: &out)
                raw("\"")
            }
            raw("]")
        }
        raw("}")
        return out
    }
}

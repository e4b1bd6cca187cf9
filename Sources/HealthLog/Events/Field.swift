#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The top-level fields of an event line (SPEC §1). The raw value is the field's bit in
/// the parser's "seen" mask.
enum Field: Int, CaseIterable {
    case op, uuid, type, start, end, value, unit, source, sourceVersion, device, metadata, activity, duration, totals, objects, workout, locations, voltages, seq

    /// The field's name as it appears in JSON.
    var name: String { String(describing: self) }

    /// Every field with its name's UTF-8 bytes, built once.
    private static let table: [(field: Field, name: [UInt8])] = allCases.map { ($0, Array($0.name.utf8)) }

    /// The field's name, as a literal.
    var literal: StaticString {
        switch self {
        case .op: "op"
        case .uuid: "uuid"
        case .type: "type"
        case .start: "start"
        case .end: "end"
        case .value: "value"
        case .unit: "unit"
        case .source: "source"
        case .sourceVersion: "sourceVersion"
        case .device: "device"
        case .metadata: "metadata"
        case .activity: "activity"
        case .duration: "duration"
        case .totals: "totals"
        case .objects: "objects"
        case .workout: "workout"
        case .locations: "locations"
        case .voltages: "voltages"
        case .seq: "seq"
        }
    }

    /// When the next token of `s` (after blanks) is a string holding exactly a field's name,
    /// as almost every key is: that field, with the token consumed — told apart by its length
    /// and first and last bytes, then compared, without the general string scan. Otherwise
    /// `nil`, with nothing but blanks consumed, and the caller scans the token as any string
    /// (a key with an escape or any other byte is no field's name, so it is never one here).
    static func atKey(_ s: inout JSONScanner) -> Field? {
        guard s.peek() == 0x22, let base = s.bytes.baseAddress else { return nil }
        let start = s.position + 1
        let limit = min(s.bytes.count, start + 14)
        var end = start
        while end < limit, s.bytes[end] != 0x22 { end += 1 }
        guard end < limit, end > start else { return nil }
        let field: Field
        switch (end - start, s.bytes[start], s.bytes[end - 1]) {
        case (2, 0x6F, 0x70): field = .op
        case (4, 0x75, 0x64): field = .uuid
        case (4, 0x74, 0x65): field = .type
        case (5, 0x73, 0x74): field = .start
        case (3, 0x65, 0x64): field = .end
        case (5, 0x76, 0x65): field = .value
        case (4, 0x75, 0x74): field = .unit
        case (6, 0x73, 0x65): field = .source
        case (13, 0x73, 0x6E): field = .sourceVersion
        case (6, 0x64, 0x65): field = .device
        case (8, 0x6D, 0x61): field = .metadata
        case (8, 0x61, 0x79): field = .activity
        case (8, 0x64, 0x6E): field = .duration
        case (6, 0x74, 0x73): field = .totals
        case (7, 0x6F, 0x73): field = .objects
        case (7, 0x77, 0x74): field = .workout
        case (9, 0x6C, 0x73): field = .locations
        case (8, 0x76, 0x73): field = .voltages
        case (3, 0x73, 0x71): field = .seq
        default: return nil
        }
        guard memcmp(field.literal.utf8Start, base + start, end - start) == 0 else { return nil }
        s.position = end + 1
        return field
    }

    /// The field whose name is the string token at `range` (quotes included), or `nil`.
    init?(_ s: JSONScanner, _ range: Range<Int>) {
        let start = range.lowerBound + 1
        let length = range.count - 2
        guard let base = s.bytes.baseAddress, length > 0 else { return nil }
        for entry in Field.table where entry.name.count == length && entry.name[0] == s.bytes[start] {
            let same = entry.name.withUnsafeBytes { name in memcmp(name.baseAddress!, base + start, length) == 0 }
            if same {
                self = entry.field
                return
            }
        }
        return nil
    }
}

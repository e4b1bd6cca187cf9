#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The top-level fields of an event line. The raw value is the field's bit in
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
    /// as almost every key is: that field, with the token consumed — told by comparing the
    /// 16 bytes after the opening quote, as two words, with the name and its closing quote
    /// (the constants are those bytes, little-endian: `0x22_706F` is `op"`), without the
    /// general string scan. Otherwise `nil`, with nothing but blanks consumed, and the
    /// caller scans the token as any string: a key with an escape or any other byte is no
    /// field's name, and a key within 16 bytes of the line's end takes that path too.
    static func atKey(_ s: inout JSONScanner) -> Field? {
        guard s.peek() == 0x22 else { return nil }
        let at = s.position + 1
        guard at + 16 <= s.bytes.count else { return nil }
        let w = UInt64(littleEndian: s.bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
        let v = UInt64(littleEndian: s.bytes.loadUnaligned(fromByteOffset: at + 8, as: UInt64.self))
        /// The first `n` bytes of a word.
        func first(_ word: UInt64, _ n: Int) -> UInt64 { word & (UInt64.max >> (64 - 8 * n)) }
        let field: Field
        switch w & 0xFF {
        case 0x6F:
            if first(w, 3) == 0x22_706F { field = .op } else if w == 0x2273_7463_656A_626F { field = .objects } else { return nil }
        case 0x75:
            if first(w, 5) == 0x22_6469_7575 { field = .uuid } else if first(w, 5) == 0x22_7469_6E75 { field = .unit } else { return nil }
        case 0x74:
            if first(w, 5) == 0x22_6570_7974 { field = .type } else if first(w, 7) == 0x22_736C_6174_6F74 { field = .totals } else { return nil }
        case 0x73:
            if first(w, 6) == 0x2274_7261_7473 { field = .start }
            else if first(w, 7) == 0x22_6563_7275_6F73 { field = .source }
            else if w == 0x6556_6563_7275_6F73, first(v, 6) == 0x226E_6F69_7372 { field = .sourceVersion }
            else if first(w, 4) == 0x2271_6573 { field = .seq }
            else { return nil }
        case 0x65:
            if first(w, 4) == 0x2264_6E65 { field = .end } else { return nil }
        case 0x76:
            if first(w, 6) == 0x2265_756C_6176 { field = .value } else if w == 0x7365_6761_746C_6F76, first(v, 1) == 0x22 { field = .voltages } else { return nil }
        case 0x64:
            if first(w, 7) == 0x22_6563_6976_6564 { field = .device } else if w == 0x6E6F_6974_6172_7564, first(v, 1) == 0x22 { field = .duration } else { return nil }
        case 0x6D:
            if w == 0x6174_6164_6174_656D, first(v, 1) == 0x22 { field = .metadata } else { return nil }
        case 0x61:
            if w == 0x7974_6976_6974_6361, first(v, 1) == 0x22 { field = .activity } else { return nil }
        case 0x77:
            if w == 0x2274_756F_6B72_6F77 { field = .workout } else { return nil }
        case 0x6C:
            if w == 0x6E6F_6974_6163_6F6C, first(v, 2) == 0x2273 { field = .locations } else { return nil }
        default:
            return nil
        }
        s.position = at + field.literal.utf8CodeUnitCount + 1
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

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

import HealthLog

/// The date formats of Apple Health exports, turned into SPEC §1's ISO 8601 instants with
/// the offset kept.
enum ExportDateFormat {
    /// Parses `2024-03-01 08:00:00 +0100` (the usual format) or `20151107171924+0100`
    /// (iOS 8 exports) into the ISO 8601 text `2024-03-01T08:00:00+01:00` and its instant.
    static func instant(_ text: String) -> (iso: String, instant: Timestamp)? {
        let b = Array(text.utf8)
        var iso: [UInt8]
        if b.count == 25, b[10] == 0x20, b[19] == 0x20 {
            iso = Array(b[0..<10]) + [0x54] + Array(b[11..<19]) + Array(b[20..<23]) + [0x3A] + Array(b[23..<25])
        } else if b.count == 19, b[14] == 0x2B || b[14] == 0x2D, b[0..<14].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            iso = Array(b[0..<4]) + [0x2D] + Array(b[4..<6]) + [0x2D] + Array(b[6..<8]) + [0x54]
            iso += Array(b[8..<10]) + [0x3A] + Array(b[10..<12]) + [0x3A] + Array(b[12..<14])
            iso += Array(b[14..<17]) + [0x3A] + Array(b[17..<19])
        } else {
            return nil
        }
        let isoText = String(decoding: iso, as: UTF8.self)
        guard let instant = Timestamp(iso8601: isoText) else { return nil }
        return (isoText, instant)
    }

    /// Parses a plain date (`2016-11-15`, or `19881029` in iOS 8 exports) as its midnight
    /// UTC, the meaning SPEC §4 gives a date.
    static func day(_ text: String) -> (iso: String, instant: Timestamp)? {
        let b = Array(text.utf8)
        let dashed: String
        if b.count == 10 {
            dashed = text
        } else if b.count == 8, b.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            dashed = String(decoding: b[0..<4] + [0x2D] + b[4..<6] + [0x2D] + b[6..<8], as: UTF8.self)
        } else {
            return nil
        }
        let isoText = dashed + "T00:00:00Z"
        guard let instant = Timestamp(iso8601: isoText) else { return nil }
        return (isoText, instant)
    }
}

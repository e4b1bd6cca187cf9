import HealthLog

/// The date formats of Apple Health exports, turned into the ISO 8601 instants of event lines, with
/// the offset kept.
enum ExportDateFormat {
    /// Parses `2024-03-01 08:00:00 +0100` (the usual format) or `20151107171924+0100`
    /// (iOS 8 exports) into the ISO 8601 text `2024-03-01T08:00:00+01:00` and its instant.
    static func instant(_ text: String) -> ExportInstant? {
        instant(text, days: nil)
    }

    /// ``instant(_:)``, the usual format's instant computed from its fields and the day
    /// `days` remembers (or finds and remembers) for its date instead of parsed in full:
    /// the same instant, for the same texts, as ``Timestamp/init(iso8601:)`` gives. The
    /// usual format keeps its text, the ISO text made from it when asked for
    /// (``ExportInstant``).
    static func instant(_ text: String, days: ExportDays?) -> ExportInstant? {
        var bytes = text
        return bytes.withUTF8 { b -> ExportInstant? in
            if b.count == 25, b[10] == 0x20, b[19] == 0x20 {
                if let days, let instant = fieldsInstant(b, days: days) { return ExportInstant(exportText: text, instant: instant) }
                return Timestamp(iso8601: ExportInstant.iso(ofExportText: text)).map { ExportInstant(exportText: text, instant: $0) }
            }
            // iOS 8 exports: 25 bytes of ISO text, `YYYY-MM-DDTHH:MM:SS±HH:MM`, made at once.
            guard b.count == 19, b[14] == 0x2B || b[14] == 0x2D, b[0..<14].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            let layout: [Int] = [0, 1, 2, 3, -0x2D, 4, 5, -0x2D, 6, 7, -0x54, 8, 9, -0x3A, 10, 11, -0x3A, 12, 13, 14, 15, 16, -0x3A, 17, 18]
            let isoText = String(unsafeUninitializedCapacity: 25) { iso in
                for (i, from) in layout.enumerated() { iso[i] = from >= 0 ? b[from] : UInt8(-from) }
                return 25
            }
            return Timestamp(iso8601: isoText).map { ExportInstant(iso: isoText, instant: $0) }
        }
    }

    /// The instant of `2024-03-01 08:00:00 +0100` in `b` (25 bytes) from its fields, its
    /// date's day from `days`; `nil` when a field is not what ``Timestamp/init(iso8601:)``
    /// takes (the caller then parses the text in full, which refuses it).
    private static func fieldsInstant(_ b: UnsafeBufferPointer<UInt8>, days: ExportDays) -> Timestamp? {
        func digits(_ at: Int) -> Int? {
            let high = Int(b[at]) &- 48
            let low = Int(b[at + 1]) &- 48
            guard high >= 0, high <= 9, low >= 0, low <= 9 else { return nil }
            return high * 10 + low
        }
        guard b[4] == 0x2D, b[7] == 0x2D, b[13] == 0x3A, b[16] == 0x3A, b[20] == 0x2B || b[20] == 0x2D,
            let hour = digits(11), hour <= 23, let minute = digits(14), minute <= 59, let second = digits(17), second <= 59,
            let offsetHours = digits(21), offsetHours <= 23, let offsetMinutes = digits(23), offsetMinutes <= 59,
            let day = days.days(b)
        else { return nil }
        let offset = (b[20] == 0x2D ? -1 : 1) * (offsetHours * 60 + offsetMinutes)
        let local = day * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return Timestamp(microseconds: (local - Int64(offset * 60)) * 1_000_000, offsetMinutes: Int16(offset), isZulu: false, fractionDigits: 0)
    }

    /// Parses a plain date (`2016-11-15`, or `19881029` in iOS 8 exports) as its midnight
    /// UTC, as the command line reads a date.
    static func day(_ text: String) -> ExportInstant? {
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
        return ExportInstant(iso: isoText, instant: instant)
    }
}

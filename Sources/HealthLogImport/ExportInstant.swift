import HealthLog

/// A date field of an export: its instant, and its ISO 8601 text with the offset kept
/// (`2024-03-01T08:00:00+01:00`). A date in the export's usual format
/// (`2024-03-01 08:00:00 +0100`) keeps that text and writes the ISO text from it only when
/// a line is rendered: the content UUID hashes the instant, so a record the store already
/// holds never needs the ISO text, and a line takes its bytes without a `String` made for
/// them.
struct ExportInstant {
    /// The export's usual text, or the ISO 8601 text itself.
    private let text: String
    /// Whether ``text`` is in the export's usual format (25 bytes, the ISO text's bytes but
    /// for a space for the `T`, a space before the offset and no colon in it).
    private let isExportText: Bool
    /// The instant.
    let instant: Timestamp

    /// The date whose ISO 8601 text is `iso`.
    init(iso: String, instant: Timestamp) {
        text = iso
        isExportText = false
        self.instant = instant
    }

    /// The date whose text in the export's usual format is `exportText` (25 bytes, a space
    /// at offsets 10 and 19, checked by the caller).
    init(exportText: String, instant: Timestamp) {
        text = exportText
        isExportText = true
        self.instant = instant
    }

    /// The ISO 8601 text.
    var iso: String { isExportText ? Self.iso(ofExportText: text) : text }

    /// Appends the ISO 8601 text as a JSON string literal, quotes included.
    func appendISO(to out: inout some ByteOutput) {
        guard isExportText else { return JSONBytes.appendString(text, to: &out) }
        Self.withISOBytes(of: text) { JSONBytes.appendString(bytes: $0, to: &out) }
    }

    /// The ISO 8601 text of `exportText`, a date in the export's usual format (25 bytes, a
    /// space at offsets 10 and 19).
    static func iso(ofExportText exportText: String) -> String {
        String(unsafeUninitializedCapacity: 25) { iso in
            withISOBytes(of: exportText) { iso.baseAddress!.initialize(from: $0.baseAddress!, count: 25) }
            return 25
        }
    }

    /// Calls `body` with the 25 bytes of the ISO text of `exportText`, a date in the
    /// export's usual format.
    private static func withISOBytes(of exportText: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var text = exportText
        text.withUTF8 { b in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 25) { iso in
                for i in 0..<10 { iso[i] = b[i] }
                iso[10] = 0x54
                for i in 11..<19 { iso[i] = b[i] }
                iso[19] = b[20]
                iso[20] = b[21]
                iso[21] = b[22]
                iso[22] = 0x3A
                iso[23] = b[23]
                iso[24] = b[24]
                body(UnsafeBufferPointer(iso))
            }
        }
    }
}

import HealthLog

extension ExportInput {
    /// How far into the document ``exportDate(_:)`` looks: past the document type
    /// declaration real exports start with (about 10 KiB).
    static let exportDatePeekLength = 64 << 10

    /// The export's `ExportDate` as ISO 8601 text, from the document's first bytes, for
    /// the origin an import's appends record before the whole document was read; `nil`
    /// when it is not there or cannot be read.
    static func exportDate(_ path: String) -> String? {
        guard let source = try? open(path) else { return nil }
        defer { source.close() }
        var head = [UInt8](repeating: 0, count: exportDatePeekLength)
        var filled = 0
        while filled < head.count {
            guard let n = try? head.withUnsafeMutableBytes({ try source.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...])) }), n > 0 else { break }
            filled += n
        }
        let text = String(decoding: head[0..<filled], as: UTF8.self)
        guard let range = text.firstRange(of: "<ExportDate value=\""), let end = text[range.upperBound...].firstIndex(of: "\"") else { return nil }
        return ExportDateFormat.instant(String(text[range.upperBound..<end]))?.iso
    }
}

/// A stream of the bytes of an export's XML document, read front to back once: a plain
/// file (``ExportFile``) or the document inside a zip (``ExportArchive``).
protocol ExportByteSource: AnyObject {
    /// Reads up to `buffer.count` bytes into `buffer`; returns 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
    /// How many bytes of the input file (the zip itself, for a zip) were consumed so far.
    var bytesConsumed: Int { get }
    /// The size of the input file, for progress.
    var totalBytes: Int { get }
    /// The document's name inside its input, for messages (the entry's path in a zip).
    var documentName: String { get }
    /// Releases the input.
    func close()
}

/// Opens the export at `path`: a zip (recognised by its signature, not its name) or an XML
/// file.
enum ExportInput {
    /// The byte source of the export document at `path`.
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` when the file cannot be opened,
    ///   ``HealthLogError/Code/badInput`` when a zip holds no Apple Health export document.
    static func open(_ path: String) throws -> any ExportByteSource {
        let file = try ExportFile(path)
        var head = [UInt8](repeating: 0, count: 4)
        let count = try head.withUnsafeMutableBytes { try file.peek(into: $0) }
        if count == 4, head == [0x50, 0x4B, 0x03, 0x04] || head == [0x50, 0x4B, 0x05, 0x06] {
            file.close()
            return try ExportArchive(path)
        }
        return file
    }

    /// Whether `head`, the first bytes of a document, shows an Apple Health export: a
    /// `HealthData` doctype or root element, not another XML file of the export folder
    /// (such as `export_cda.xml`) whose name may be localised just the same.
    static func isHealthExport(_ head: UnsafeRawBufferPointer) -> Bool {
        for marker in ["<!DOCTYPE HealthData", "<HealthData"] {
            let pattern = Array(marker.utf8)
            guard head.count >= pattern.count else { continue }
            for at in 0...(head.count - pattern.count) where head[at] == 0x3C {
                if zip(head[at..<at + pattern.count], pattern).allSatisfy({ $0 == $1 }) { return true }
            }
        }
        return false
    }
}

import HealthLog

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
    ///   ``HealthLogError/Code/badInput`` when a zip holds no Apple Health export document,
    ///   or a plain file is empty, not XML, or XML of another root (``ExportHead``).
    static func open(_ path: String) throws -> any ExportByteSource {
        let file = try ExportFile(path)
        var head = [UInt8](repeating: 0, count: ExportArchive.headLength)
        let count = try head.withUnsafeMutableBytes { try file.peek(into: $0) }
        head.removeLast(head.count - count)
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) || head.starts(with: [0x50, 0x4B, 0x05, 0x06]) {
            file.close()
            return try ExportArchive(path)
        }
        do {
            try ExportHead.check(head, isWhole: count < ExportArchive.headLength, path: path)
        } catch {
            file.close()
            throw error
        }
        return file
    }

    /// Whether the export at `path` starts like an iOS 8 export: records with `source=`
    /// rather than `sourceName=`, or an `ExportDate` in the compact `20151107171924+0100`
    /// form. Those exports write metadata as attributes, some with spaces in their names,
    /// so most are not well-formed XML; the import says so when it refuses one.
    static func looksLikeIOS8(_ path: String) throws -> Bool {
        let source = try open(path)
        defer { source.close() }
        var head = [UInt8](repeating: 0, count: 4096)
        var filled = 0
        while filled < head.count {
            let n = try head.withUnsafeMutableBytes { try source.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...])) }
            if n == 0 { break }
            filled += n
        }
        let text = String(decoding: head[0..<filled], as: UTF8.self)
        if text.contains("<Record "), text.contains(" source=\""), !text.contains(" sourceName=\"") { return true }
        guard let range = text.firstRange(of: "<ExportDate value=\"") else { return false }
        let value = text[range.upperBound...].prefix(19)
        return value.count == 19 && value.prefix(14).allSatisfy(\.isNumber) && (value.dropFirst(14).first == "+" || value.dropFirst(14).first == "-")
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

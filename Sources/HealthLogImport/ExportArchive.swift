import HealthLog

/// The export document inside an `export.zip`, read with libarchive as a stream (through
/// ``ArchiveEntries``).
///
/// The document is found by its content (a `HealthData` doctype or root element in its
/// first bytes), not by its name, which the Health app localises (`export.xml`,
/// `Exportieren.xml`, `导出.xml`). Entries under `__MACOSX/`, AppleDouble `._` files and
/// anything that is not a regular file are skipped unread.
final class ExportArchive: ExportByteSource {
    /// How many bytes of each candidate entry are read to recognise the document.
    static let headLength = 4096

    /// The zip's regular files, read one after another.
    private let entries: ArchiveEntries
    var totalBytes: Int { entries.totalBytes }
    private(set) var documentName = ""
    /// The bytes read to recognise the document, served before the rest of the entry.
    private var head: [UInt8] = []
    private var headServed = 0

    /// Opens the zip at `path` and positions the stream at the start of the export document.
    init(_ path: String) throws {
        entries = try ArchiveEntries(path)
        while let name = try entries.next() {
            head = try readHead()
            headServed = 0
            if head.withUnsafeBytes({ ExportInput.isHealthExport($0) }) {
                documentName = "\(path): \(name)"
                entries.limit = ImportLimits.documentBytes
                return
            }
        }
        throw HealthLogError(.badInput, "\(path): the zip holds no Apple Health export document (no file starts with a HealthData element)")
    }

    /// Whether an entry is macOS metadata rather than export content.
    static func isJunk(_ name: String) -> Bool {
        let parts = name.split(separator: "/")
        return parts.contains("__MACOSX") || parts.last.map { $0.hasPrefix("._") || $0 == ".DS_Store" } ?? false
    }

    /// Up to ``headLength`` bytes of the current entry.
    private func readHead() throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: Self.headLength)
        var filled = 0
        while filled < bytes.count {
            let n = try bytes.withUnsafeMutableBytes { raw in try entries.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...])) }
            if n == 0 { break }
            filled += n
        }
        bytes.removeLast(bytes.count - filled)
        return bytes
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if headServed < head.count {
            let count = min(buffer.count, head.count - headServed)
            head.withUnsafeBytes { raw in
                buffer.baseAddress!.copyMemory(from: raw.baseAddress! + headServed, byteCount: count)
            }
            headServed += count
            return count
        }
        return try entries.read(into: buffer)
    }

    var bytesConsumed: Int { entries.bytesConsumed }

    func close() { entries.close() }
}

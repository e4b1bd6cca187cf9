#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CArchive
import HealthLog

/// The export document inside an `export.zip`, read with libarchive as a stream.
///
/// The document is found by its content (a `HealthData` doctype or root element in its
/// first bytes), not by its name, which the Health app localises (`export.xml`,
/// `Exportieren.xml`, `导出.xml`). Entries under `__MACOSX/`, AppleDouble `._` files and
/// anything that is not a regular file are skipped unread.
final class ExportArchive: ExportByteSource {
    /// How many bytes of each candidate entry are read to recognise the document.
    static let headLength = 4096

    private var archive: OpaquePointer?
    private let path: String
    let totalBytes: Int
    private(set) var documentName = ""
    /// The bytes read to recognise the document, served before the rest of the entry.
    private var head: [UInt8] = []
    private var headServed = 0

    /// Opens the zip at `path` and positions the stream at the start of the export document.
    init(_ path: String) throws {
        self.path = path
        let file = try ExportFile(path)
        totalBytes = file.totalBytes
        file.close()
        guard let archive = archive_read_new() else { throw HealthLogError(.io, "cannot allocate a zip reader for '\(path)'") }
        self.archive = archive
        guard archive_read_support_format_zip(archive) == ARCHIVE_OK,
            archive_read_open_filename(archive, path, 1 << 16) == ARCHIVE_OK
        else { throw failure("not a readable zip") }
        // libarchive converts entry names to the locale's character set, and fails on a
        // name such as `导出.xml` in the C locale: read the headers under C.UTF-8, set for
        // this thread only (`uselocale`), so the process's locale is left alone.
        let utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil)
        let previous = utf8.map { uselocale($0) }
        defer {
            if let previous { uselocale(previous) }
            if let utf8 { freelocale(utf8) }
        }
        try findDocument()
    }

    deinit { close() }

    private func findDocument() throws {
        var entry: OpaquePointer?
        while true {
            let status = archive_read_next_header(archive, &entry)
            if status == ARCHIVE_EOF { break }
            guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else { throw failure("a damaged zip: cannot read its next entry") }
            let name = (archive_entry_pathname_utf8(entry) ?? archive_entry_pathname(entry)).map { String(cString: $0) } ?? ""
            guard archive_entry_filetype(entry) == healthlog_archive_regular_file, !Self.isJunk(name) else { continue }
            head = try readHead()
            headServed = 0
            if head.withUnsafeBytes({ ExportInput.isHealthExport($0) }) {
                documentName = "\(path): \(name)"
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

    private func readHead() throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: Self.headLength)
        var filled = 0
        while filled < bytes.count {
            let n = bytes.withUnsafeMutableBytes { raw in archive_read_data(archive, raw.baseAddress! + filled, raw.count - filled) }
            guard n >= 0 else { throw failure("a damaged zip: cannot decompress an entry") }
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
        let n = archive_read_data(archive, buffer.baseAddress, buffer.count)
        guard n >= 0 else { throw failure("cannot decompress \(documentName)") }
        return n
    }

    var bytesConsumed: Int {
        guard let archive else { return totalBytes }
        return Int(archive_filter_bytes(archive, -1))
    }

    func close() {
        if let archive { archive_read_free(archive) }
        archive = nil
    }

    /// An I/O error with libarchive's reason.
    private func failure(_ what: String) -> HealthLogError {
        let reason = archive.flatMap { archive_error_string($0) }.map { String(cString: $0) } ?? "unknown error"
        return HealthLogError(.badInput, "\(path): \(what): \(reason)")
    }
}

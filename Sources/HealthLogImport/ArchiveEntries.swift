#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CArchive
import HealthLog

/// The regular files of a zip, one after another, read with libarchive as a stream: each
/// entry's name, then (as an ``ExportByteSource``) its bytes. Entries under `__MACOSX/`,
/// AppleDouble `._` files and `.DS_Store` are passed over, as ``ExportArchive`` does.
///
/// Each entry is read within ``ImportLimits``: at most ``limit`` bytes, and once past
/// ``ImportLimits/ratioFloor`` at most ``ImportLimits/ratio`` times the compressed bytes
/// read for it; past either, reading it fails with ``HealthLogError/Code/badInput``.
final class ArchiveEntries: ExportByteSource {
    private var archive: OpaquePointer?
    private let path: String
    let totalBytes: Int
    /// The current entry's path inside the zip.
    private(set) var entryName = ""
    /// The most bytes an entry may unpack to (``ImportLimits/entryBytes`` unless set).
    var limit = ImportLimits.entryBytes
    /// Bytes of the current entry read so far.
    private var entryRead = 0
    /// The bytes of the zip consumed when the current entry's header was read.
    private var entryStart = 0

    /// Opens the zip at `path`.
    init(_ path: String) throws {
        self.path = path
        let file = try ExportFile(path)
        totalBytes = file.totalBytes
        file.close()
        guard let archive = archive_read_new() else { throw HealthLogError(.io, "cannot allocate a zip reader for '\(path)'") }
        self.archive = archive
        guard archive_read_support_format_zip(archive) == ARCHIVE_OK, archive_read_open_filename(archive, path, 1 << 16) == ARCHIVE_OK else {
            throw failure("not a readable zip")
        }
    }

    deinit { close() }

    /// Moves to the next regular file and returns its path, or `nil` after the last.
    func next() throws -> String? {
        // Entry names are converted to the locale's character set, which fails for names
        // such as `导出.xml` in the C locale: read headers under C.UTF-8 on this thread.
        let utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil)
        let previous = utf8.map { uselocale($0) }
        defer {
            if let previous { uselocale(previous) }
            if let utf8 { freelocale(utf8) }
        }
        var entry: OpaquePointer?
        while true {
            let status = archive_read_next_header(archive, &entry)
            if status == ARCHIVE_EOF { return nil }
            guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else { throw failure("a damaged zip: cannot read its next entry") }
            let name = (archive_entry_pathname_utf8(entry) ?? archive_entry_pathname(entry)).map { String(cString: $0) } ?? ""
            guard archive_entry_filetype(entry) == healthlog_archive_regular_file, !ExportArchive.isJunk(name) else { continue }
            entryName = name
            entryRead = 0
            entryStart = bytesConsumed
            return name
        }
    }

    var documentName: String { "\(path): \(entryName)" }

    /// The names more than one regular file of the zip at `path` has, with how many have
    /// each, sorted by name.
    ///
    /// - Throws: ``HealthLogError/Code/badInput`` for a zip whose entries cannot be listed.
    static func repeatedNames(_ path: String) throws -> [(name: String, count: Int)] {
        let entries = try ArchiveEntries(path)
        defer { entries.close() }
        var counts: [String: Int] = [:]
        while let name = try entries.next() { counts[name, default: 0] += 1 }
        return counts.filter { $0.value > 1 }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try ImportStop.check()
        let n = archive_read_data(archive, buffer.baseAddress, buffer.count)
        guard n >= 0 else { throw failure("a damaged zip: cannot decompress \(entryName)") }
        entryRead += n
        if entryRead > limit {
            throw HealthLogError(.badInput, "\(documentName): unpacks to more than \(ImportLimits.describe(limit)), the most the import reads of one file in a zip: not read")
        }
        if entryRead > ImportLimits.ratioFloor, entryRead / max(1, bytesConsumed - entryStart) > ImportLimits.ratio {
            throw HealthLogError(
                .badInput,
                "\(documentName): unpacks to more than \(ImportLimits.ratio) times its compressed size past \(ImportLimits.describe(ImportLimits.ratioFloor)) (a zip bomb?): not read")
        }
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

    /// An error with libarchive's reason.
    private func failure(_ what: String) -> HealthLogError {
        let reason = archive.flatMap { archive_error_string($0) }.map { String(cString: $0) } ?? "unknown error"
        return HealthLogError(.badInput, "\(path): \(what): \(reason)")
    }
}

import HealthLog

/// Where a series file (a route's GPX, an electrocardiogram's CSV) is, so it can be read a
/// second time: a series too long for one stored line is read once to count and check it,
/// then again to hand out its parts (``SeriesParts``), so nothing of a file that does not
/// read is imported and memory holds one part at a time.
struct SeriesFile {
    /// The export: a zip, or the XML document the file lies beside.
    let input: String
    /// The zip entry's name or, beside the XML, the file's path.
    let name: String
    /// Whether ``input`` is a zip.
    let isZip: Bool
    /// Which of the zip's entries of that name, from 0 (a zip may hold a name twice).
    let occurrence: Int

    /// Calls `body` with the file's bytes, read again from the start.
    ///
    /// - Throws: ``HealthLogError/Code/io`` when the file is no longer there; whatever
    ///   opening or reading it, or `body`, throws.
    func read<T>(_ body: (any ExportByteSource) throws -> T) throws -> T {
        if isZip {
            let entries = try ArchiveEntries(input)
            defer { entries.close() }
            var seen = 0
            while let entry = try entries.next() {
                guard entry == name else { continue }
                if seen == occurrence { return try body(entries) }
                seen += 1
            }
            throw HealthLogError(.io, "\(input): \(name) is no longer in the zip")
        }
        let file = try ExportFile(name)
        defer { file.close() }
        return try body(file)
    }

    /// The error for a file that read the first time and not the second.
    static func changed(_ error: HealthLogError) -> HealthLogError {
        HealthLogError(.io, "\(error.message) (the file read whole the first time: it changed while it was imported)")
    }
}

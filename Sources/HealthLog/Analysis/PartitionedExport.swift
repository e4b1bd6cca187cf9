#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A person's live samples written as Hive-style partitions (`export --partition DIR`), so
/// that DuckDB (`hive_partitioning`), Spark and Trino read many people's exports in one
/// directory as one table:
///
/// ```
/// DIR/type=HeartRate/year=2024/PERSON.csv
/// DIR/type=SleepAnalysis/year=2023/PERSON.csv
/// ```
///
/// `type` is the type's short name and `year` the UTC year of the sample's start. Each
/// file holds ``columns``: a `person` column, then ``EventTable``'s columns without `type`
/// (the partition holds it), with `recordedValue` and `recordedUnit` after `unit`: `value`
/// and `unit` are in one unit per type (``PartitionUnits``), so a query over many people
/// who recorded in different units (`count/s`, `count/min`) averages like with like, and
/// the recorded columns keep the value and unit as recorded. Each file is written to `PERSON.csv.tmp`, fsynced and
/// renamed, so a reader sees a person's old file or the new one; once every file is in
/// place, this person's files (`.csv` or `.ndjson`) that this export did not write are
/// removed, within the types it covers. Other people's files are never touched. Directories are created 0700 and
/// files 0600: the partitions are health data.
package struct PartitionedExport: Sendable {
    /// The format of the partition files.
    package enum Format: String, Sendable, CaseIterable {
        /// CSV with a header row (`.csv`).
        case csv
        /// One JSON object of the columns per line (`.ndjson`).
        case ndjsonRows = "ndjson-rows"

        /// The file name extension.
        var fileExtension: String { self == .csv ? "csv" : "ndjson" }
    }

    /// What an export wrote.
    package struct Report: Sendable, Equatable {
        /// The files written, relative to the directory (`type=HeartRate/year=2024/alice.csv`), sorted.
        package var files: [String] = []
        /// The samples written.
        package var samples = 0
        /// This person's files removed from partitions that no longer hold their samples.
        package var removed: [String] = []
    }

    /// The columns of a partition file.
    package static let columns = ["person"] + EventTable.columns.filter { $0 != "type" }.flatMap { $0 == "unit" ? [$0, "recordedValue", "recordedUnit"] : [$0] }

    /// The directory the partitions live in.
    package var directory: String
    /// The person's identifier (a file name: letters, digits, `.`, `_`, `-`; not starting with `.`).
    package var person: String
    /// The files' format.
    package var format: Format
    /// The unit every quantity is written in (one type's export), or `nil` for each type's
    /// own (``PartitionUnits``).
    package var unit: HealthUnit?

    /// An export of `person`'s samples into `directory`.
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` when `person` cannot name a file.
    package init(directory: String, person: String, format: Format = .csv, unit: HealthUnit? = nil) throws {
        let allowed = person.utf8.allSatisfy { c in
            (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c == 95 || c == 45 || c == 46
        }
        guard !person.isEmpty, person.utf8.count <= 128, allowed, !person.hasPrefix(".") else {
            throw HealthLogError(.badUsage, "--person '\(person)' must be 1 to 128 letters, digits, '.', '_' or '-', not starting with '.'")
        }
        self.directory = directory
        self.person = person
        self.format = format
        self.unit = unit
    }

    /// The partition directory name of `type` (`type=HeartRate`).
    static func partition(of type: String) throws -> String {
        let short = TypeNames.shortForm(type)
        guard !short.isEmpty, short.utf8.allSatisfy({ c in (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c == 95 }) else {
            throw HealthLogError(.badInput, "type \(type) cannot name a partition directory")
        }
        return "type=" + short
    }

    /// One partition file being written.
    final class Writer {
        /// The file's final path.
        let path: String
        /// The temporary file.
        private let fd: FileDescriptor
        /// Bytes not yet written.
        private var buffer: [UInt8] = []
        /// Where the next write goes.
        private var offset = 0

        /// Creates `path`'s temporary file afresh.
        init(path: String) throws {
            self.path = path
            fd = try FileDescriptor.createExclusive(path + DurableFile.temporarySuffix)
        }

        /// Adds `text`, writing out every 256 KiB.
        func append(_ text: String) throws {
            buffer.append(contentsOf: text.utf8)
            if buffer.count >= 1 << 18 { try flush() }
        }

        /// Writes the buffer out.
        private func flush() throws {
            try fd.write(buffer, at: offset)
            offset += buffer.count
            buffer.removeAll(keepingCapacity: true)
        }

        /// Writes the rest, fsyncs, closes and renames the temporary file into place.
        func finish() throws {
            defer { fd.close() }
            try flush()
            try fd.sync()
            let temporary = path + DurableFile.temporarySuffix
            try retryingOnInterrupt("cannot rename", path: temporary) { rename(temporary, path) }
        }

        /// Closes and removes the temporary file (after a failure).
        func abandon() {
            fd.close()
            unlink(path + DurableFile.temporarySuffix)
        }
    }

    /// The row of a stored line for a partition file, newline included, its quantity in
    /// `units`; `nil` for a series part after its head (``EventTable/rowCells(_:)``).
    func row(_ line: UnsafeRawBufferPointer, units: inout PartitionUnits) throws -> (year: Int, text: String)? {
        guard var cells = try EventTable.rowCells(line) else { return nil }
        let start = cells[EventTable.columns.firstIndex(of: "start")!]
        let valueColumn = EventTable.columns.firstIndex(of: "value")!
        let unitColumn = EventTable.columns.firstIndex(of: "unit")!
        let recorded = (cells[valueColumn], cells[unitColumn])
        (cells[valueColumn], cells[unitColumn]) = try units.convert(value: recorded.0, unit: recorded.1)
        cells.insert(contentsOf: [recorded.0, recorded.1], at: unitColumn + 1)
        cells.remove(at: EventTable.columns.firstIndex(of: "type")!)
        cells.insert(.text(person), at: 0)
        guard case .text(let instant) = start, let year = Int(instant.prefix(4)) else {
            throw HealthLogError(.corrupt, "a stored line has no start")
        }
        switch format {
        case .csv: return (year, EventTable.csvRow(cells))
        case .ndjsonRows: return (year, EventTable.jsonRow(cells, names: Self.columns))
        }
    }

    /// The header a new file starts with.
    var header: String { format == .csv ? Self.columns.joined(separator: ",") + "\n" : "" }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLog

/// The electrocardiogram CSVs of an export: in a zip, the `.csv` entries in an
/// `electrocardiograms` folder or named `ecg_….csv`; beside an unzipped `export.xml`, the
/// `.csv` files of its `electrocardiograms` folder. Each becomes one electrocardiogram
/// sample; one that does not read is listed and the rest imports.
enum ECGFiles {
    /// What reading them found.
    struct Outcome {
        /// Files read.
        var filesRead = 0
        /// Voltages read, in all.
        var voltages = 0
        /// Files that could not be read, in order.
        var problems: [ExportFileProblem] = []
    }

    /// Whether the zip entry `name` is an electrocardiogram CSV.
    static func isECG(_ name: String) -> Bool {
        let parts = name.split(separator: "/")
        guard let file = parts.last, file.lowercased().hasSuffix(".csv") else { return false }
        return parts.dropLast().contains("electrocardiograms") || file.lowercased().hasPrefix("ecg_")
    }

    /// Reads the electrocardiograms of the export at `input` and calls `body` with each
    /// one's event.
    ///
    /// - Throws: an error listing the zip's entries, or whatever `body` throws.
    static func read(input: String, isZip: Bool, mapper: ExportMapper, _ body: (ExportMapper.Event) throws -> Void) throws -> Outcome {
        var outcome = Outcome()
        func deliver(_ source: any ExportByteSource, _ file: String) throws {
            let read: (draft: SampleDraft, voltages: Int)
            do {
                read = try ECGReader.draft(source)
            } catch let error as HealthLogError where error.code == .badInput {
                outcome.problems.append(ExportFileProblem(file: file, reason: error.message))
                return
            }
            let mapped = mapper.event(read.draft)
            guard let event = mapped.event else {
                outcome.problems.append(ExportFileProblem(file: file, reason: mapped.problem ?? "not a valid electrocardiogram"))
                return
            }
            outcome.filesRead += 1
            outcome.voltages += read.voltages
            try body(event)
        }
        if isZip {
            let entries = try ArchiveEntries(input)
            defer { entries.close() }
            var read = Set<String>()
            while let name = try entries.next() {
                guard isECG(name), read.insert(name).inserted else { continue }
                try deliver(entries, name)
            }
        } else {
            let folder = input.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            let directory = (folder.isEmpty ? "" : folder + "/") + "electrocardiograms"
            for path in csvFiles(in: directory) {
                let file = try ExportFile(path)
                defer { file.close() }
                try deliver(file, path)
            }
        }
        return outcome
    }

    /// The `.csv` files of `directory`, sorted by name; none when it does not exist.
    private static func csvFiles(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            if name.lowercased().hasSuffix(".csv"), !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted().map { directory + "/" + $0 }
    }
}

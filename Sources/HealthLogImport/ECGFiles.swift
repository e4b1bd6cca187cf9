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
        func deliver(_ source: any ExportByteSource, _ file: String, _ again: SeriesFile) throws {
            let read: (draft: SampleDraft, voltages: Int)
            var fullParts = 0
            do {
                read = try ECGReader.draft(source, partLimit: SeriesParts.voltagesPerPart) { _ in fullParts += 1 }
            } catch let error as HealthLogError where error.code == .badInput {
                outcome.problems.append(ExportFileProblem(file: file, reason: error.message))
                return
            }
            if fullParts > 0 {
                if let problem = try deliverParts(read.draft, again, mapper: mapper, body) {
                    outcome.problems.append(ExportFileProblem(file: file, reason: problem))
                    return
                }
            } else {
                let mapped = mapper.event(read.draft)
                guard let event = mapped.event else {
                    outcome.problems.append(ExportFileProblem(file: file, reason: mapped.problem ?? "not a valid electrocardiogram"))
                    return
                }
                try body(event)
            }
            outcome.filesRead += 1
            outcome.voltages += read.voltages
        }
        if isZip {
            let entries = try ArchiveEntries(input)
            defer { entries.close() }
            // An entry named again is passed over: the first of the name is read (the
            // report notes the others).
            var seen: [String: Int] = [:]
            while let name = try entries.next() {
                let occurrence = seen[name, default: 0]
                seen[name] = occurrence + 1
                guard occurrence == 0, isECG(name) else { continue }
                try deliver(entries, name, SeriesFile(input: input, name: name, isZip: true, occurrence: occurrence))
            }
        } else {
            let folder = input.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            let directory = (folder.isEmpty ? "" : folder + "/") + "electrocardiograms"
            for path in csvFiles(in: directory) {
                let file = try ExportFile(path)
                defer { file.close() }
                try deliver(file, path, SeriesFile(input: input, name: path, isZip: false, occurrence: 0))
            }
        }
        return outcome
    }

    /// Reads the electrocardiogram `again` and hands its parts (``SeriesParts``) to `body`,
    /// each with the fields of `whole` (the draft the first reading made, dated by every
    /// voltage); returns why the head is not valid (then nothing is handed out), or why a
    /// later part is not (then the parts before it were).
    ///
    /// - Throws: ``HealthLogError/Code/io`` when the file no longer reads as it did the
    ///   first time, or whatever `body` throws.
    private static func deliverParts(
        _ whole: SampleDraft, _ again: SeriesFile, mapper: ExportMapper, _ body: (ExportMapper.Event) throws -> Void
    ) throws -> String? {
        var head: SampleUUID?
        var index = 0
        var problem: String?
        func emit(_ voltages: [UInt8]) throws {
            guard problem == nil else { return }
            var draft = whole
            draft.voltages = voltages
            let mapped = mapper.seriesPartEvent(draft, index: index, series: head)
            guard let event = mapped.event else {
                problem = "part \(index + 1) (voltages \(index * SeriesParts.voltagesPerPart + 1) on): \(mapped.problem ?? "not a valid electrocardiogram")"
                return
            }
            if index == 0 { head = event.uuid }
            index += 1
            try body(event)
        }
        do {
            let last = try again.read { try ECGReader.draft($0, partLimit: SeriesParts.voltagesPerPart, part: emit) }
            try emit(last.draft.voltages ?? [0x5B, 0x5D])
        } catch let error as HealthLogError where error.code == .badInput {
            throw SeriesFile.changed(error)
        }
        return problem
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

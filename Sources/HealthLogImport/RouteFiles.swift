#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLog

/// The files an export's document names (route GPX files, clinical records' FHIR
/// resources), found and read after the document: in a zip by the path the document gives
/// (or, when the folder differs, by a file name no other entry has), beside an unzipped
/// `export.xml` by the same path. Each file found is read once, as a stream.
struct ReferencedFiles {
    /// Where the file of a reference is.
    enum Place: Hashable {
        /// An entry of the zip.
        case entry(String)
        /// A file beside the export document.
        case file(String)
    }

    /// The export the references come from.
    let input: String
    /// Whether it is a zip.
    let isZip: Bool
    /// Each reference's file, `nil` when it was not found (the reason in ``missing``).
    private(set) var places: [Place?] = []
    /// Why a reference's file was not found, by reference index.
    private(set) var missing: [Int: String] = [:]

    /// Finds the files `paths` name in the zip at `input` (listing its entries once) or
    /// beside the XML document at `input`.
    ///
    /// - Throws: ``HealthLogError/Code/badInput`` for a zip whose entries cannot be listed.
    init(input: String, isZip: Bool, paths: [String]) throws {
        self.input = input
        self.isZip = isZip
        guard !paths.isEmpty else { return }
        var names: [String] = []
        if isZip {
            let entries = try ArchiveEntries(input)
            defer { entries.close() }
            while let name = try entries.next() { names.append(name) }
        }
        let folder = input.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        for (index, named) in paths.enumerated() {
            let relative = String(named.drop(while: { $0 == "/" }))
            let parts = relative.split(separator: "/")
            guard !parts.isEmpty, !parts.contains(".."), !parts.contains(".") else {
                places.append(nil)
                missing[index] = "the path leaves the export's folder or names no file; not read"
                continue
            }
            if isZip {
                let fileName = String(parts.last!)
                if let exact = names.first(where: { $0 == relative || $0.hasSuffix("/" + relative) }) {
                    places.append(.entry(exact))
                } else if case let byName = names.filter({ $0.split(separator: "/").last.map(String.init) == fileName }), byName.count == 1 {
                    places.append(.entry(byName[0]))
                } else {
                    places.append(nil)
                    missing[index] = "the zip holds no such file"
                }
            } else {
                let path = (folder.isEmpty ? "" : folder + "/") + relative
                var info = stat()
                if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG {
                    places.append(.file(path))
                } else {
                    places.append(nil)
                    missing[index] = "no such file beside the export document (\(path))"
                }
            }
        }
    }

    /// Calls `deliver` once for each file found, with the indexes of the paths that name
    /// it, the file's bytes and where to read them again: in the zip's order (the first
    /// entry of a name repeated in the zip), or in the paths' order beside the XML.
    ///
    /// - Throws: an error reading the zip's entries, or whatever `deliver` throws.
    func forEachFile(_ deliver: (_ indexes: [Int], _ source: any ExportByteSource, _ again: SeriesFile) throws -> Void) throws {
        var wanted: [Place: [Int]] = [:]
        for (index, place) in places.enumerated() {
            if let place { wanted[place, default: []].append(index) }
        }
        guard !wanted.isEmpty else { return }
        if isZip {
            let entries = try ArchiveEntries(input)
            defer { entries.close() }
            // An entry named again is passed over: the first of the name is read (the
            // report notes the others).
            var seen: [String: Int] = [:]
            while let name = try entries.next() {
                let occurrence = seen[name, default: 0]
                seen[name] = occurrence + 1
                guard occurrence == 0, let indexes = wanted[.entry(name)] else { continue }
                try deliver(indexes, entries, SeriesFile(input: input, name: name, isZip: true, occurrence: occurrence))
            }
        } else {
            for (place, indexes) in wanted.sorted(by: { $0.value[0] < $1.value[0] }) {
                guard case .file(let path) = place else { continue }
                let file = try ExportFile(path)
                defer { file.close() }
                try deliver(indexes, file, SeriesFile(input: input, name: path, isZip: false, occurrence: 0))
            }
        }
    }
}

/// The route files of an export's workouts: each file read once as GPX, giving one route
/// sample per workout route that names it.
struct RouteFiles {
    /// Where the files are.
    let files: ReferencedFiles

    /// Finds the files of `references`.
    init(input: String, isZip: Bool, references: [ExportMapper.RouteReference]) throws {
        files = try ReferencedFiles(input: input, isZip: isZip, paths: references.map(\.path))
    }

    /// Reads each file found once and calls `body` with the route sample of every reference
    /// that names it; counts the files' elements by name into `counts`. Returns what could
    /// not be read, by reference, missing files first.
    ///
    /// - Throws: an error reading the zip's entries (not its files' content), or whatever
    ///   `body` throws.
    func read(
        _ references: [ExportMapper.RouteReference], mapper: ExportMapper, counts: inout [String: Int], filesRead: inout Int,
        _ body: (ExportMapper.Event) throws -> Void
    ) throws -> [ReferencedFileProblem] {
        var problems = files.missing.sorted { $0.key < $1.key }.map {
            ReferencedFileProblem(file: references[$0.key].path, line: references[$0.key].line, reason: $0.value)
        }
        try files.forEachFile { indexes, source, again in
            let points: RoutePoints
            var fullParts = 0
            do {
                points = try GPXReader.points(source, counts: &counts, partLimit: SeriesParts.pointsPerPart) { _ in fullParts += 1 }
            } catch let error as HealthLogError where error.code == .badInput {
                for index in indexes { problems.append(ReferencedFileProblem(file: references[index].path, line: references[index].line, reason: error.message)) }
                return
            }
            filesRead += 1
            for index in indexes where points.leftOut > 0 {
                let reference = references[index]
                problems.append(ReferencedFileProblem(file: reference.path, line: reference.line, reason: "\(points.leftOut) points without a time or coordinates left out"))
            }
            if fullParts == 0 {
                for index in indexes {
                    let reference = references[index]
                    let mapped = mapper.routeEvent(reference, points: points)
                    if let event = mapped.event {
                        try body(event)
                    } else {
                        problems.append(ReferencedFileProblem(file: reference.path, line: reference.line, reason: mapped.problem ?? "not a valid route"))
                    }
                }
            } else {
                problems += try readParts(again, indexes.map { references[$0] }, mapper: mapper, body)
            }
        }
        return problems
    }

    /// Reads the route file `again` and hands out, for each of `references`, its route in
    /// parts (``SeriesParts``), part by part; returns the references whose route is not
    /// valid (none of its parts is imported once its head is not).
    ///
    /// - Throws: ``HealthLogError/Code/io`` when the file no longer reads as it did the
    ///   first time, or whatever `body` throws.
    private func readParts(
        _ again: SeriesFile, _ references: [ExportMapper.RouteReference], mapper: ExportMapper, _ body: (ExportMapper.Event) throws -> Void
    ) throws -> [ReferencedFileProblem] {
        var problems: [ReferencedFileProblem] = []
        var heads: [SampleUUID?] = Array(repeating: nil, count: references.count)
        var failed = Array(repeating: false, count: references.count)
        var index = 0
        func emit(_ points: RoutePoints) throws {
            for (k, reference) in references.enumerated() where !failed[k] {
                let mapped = mapper.routePartEvent(reference, points: points, index: index, series: heads[k])
                guard let event = mapped.event else {
                    failed[k] = true
                    let reason = "part \(index + 1) of the route (points \(index * SeriesParts.pointsPerPart + 1) on): \(mapped.problem ?? "not a valid route")"
                    problems.append(ReferencedFileProblem(file: reference.path, line: reference.line, reason: reason))
                    continue
                }
                if index == 0 { heads[k] = event.uuid }
                try body(event)
            }
            index += 1
        }
        var counts: [String: Int] = [:]
        do {
            let last = try again.read { try GPXReader.points($0, counts: &counts, partLimit: SeriesParts.pointsPerPart, part: emit) }
            try emit(last)
        } catch let error as HealthLogError where error.code == .badInput {
            throw SeriesFile.changed(error)
        }
        return problems
    }
}

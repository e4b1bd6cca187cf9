import HealthLog

/// The FHIR resources of an export's clinical records (`clinical-records/….json`, named by
/// `resourceFilePath`), read after the document: each record becomes one sample holding
/// its resource's text as it is; a record whose file is missing, too large or not text is
/// imported without it and listed.
enum ClinicalFiles {
    /// The largest resource kept (its JSON-escaped text must fit an event line).
    static let maxResourceBytes = 4 << 20

    /// Calls `body` with each clinical record's event, in a fixed order (files found, in
    /// the zip's order, then the others); returns what could not be read, and how many
    /// resources were.
    ///
    /// - Throws: an error reading the zip's entries, or whatever `body` throws.
    static func read(
        _ references: [ExportMapper.ClinicalReference], input: String, isZip: Bool, mapper: ExportMapper, _ body: (ExportMapper.Event) throws -> Void
    ) throws -> (resourcesRead: Int, problems: [ReferencedFileProblem]) {
        guard !references.isEmpty else { return (0, []) }
        let files = try ReferencedFiles(input: input, isZip: isZip, paths: references.map(\.path))
        var problems: [ReferencedFileProblem] = []
        var done = Set<Int>()
        var resourcesRead = 0
        func deliver(_ index: Int, resource: String?, missing: String?) throws {
            let reference = references[index]
            if let missing { problems.append(ReferencedFileProblem(file: reference.path, line: reference.line, reason: missing)) }
            let mapped = mapper.clinicalEvent(reference, resource: resource)
            if let event = mapped.event {
                try body(event)
            } else {
                problems.append(ReferencedFileProblem(file: reference.path, line: reference.line, reason: mapped.problem ?? "not a valid record"))
            }
        }
        try files.forEachFile { indexes, source, _ in
            let text = try? readText(source)
            if text != nil { resourcesRead += 1 }
            for index in indexes {
                done.insert(index)
                try deliver(index, resource: text ?? nil, missing: text == nil ? "larger than \(maxResourceBytes >> 20) MiB, unreadable or not UTF-8 text: the record is imported without it" : nil)
            }
        }
        for index in references.indices where !done.contains(index) {
            try deliver(index, resource: nil, missing: (files.missing[index] ?? "not found") + ": the record is imported without its resource")
        }
        return (resourcesRead, problems)
    }

    /// The whole text of `source`; `nil` when it is over ``maxResourceBytes`` or not UTF-8.
    private static func readText(_ source: any ExportByteSource) throws -> String? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if n == 0 { break }
            bytes += buffer[0..<n]
            if bytes.count > maxResourceBytes { return nil }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}

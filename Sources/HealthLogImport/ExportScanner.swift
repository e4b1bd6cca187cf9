import HealthLog

/// Reads an export document as a stream and hands over its top-level elements (the
/// children of `HealthData`) in batches, each element complete with its descendants,
/// counting every element by name on the way. The batches hold the tags as the parser
/// gave them (``ParsedElements``): the `String`s are made on the threads that map them.
struct ExportScanner {
    /// Elements read, by name, at every depth (`HealthData` included).
    var elementCounts: [String: Int] {
        var counts: [String: Int] = [:]
        let names = reader.names
        for (number, count) in countsByName.enumerated() where count > 0 { counts[names[number], default: 0] += count }
        return counts
    }
    /// Elements read, by the reader's number of their name (no hashing per element).
    private var countsByName: [Int] = []
    /// The `locale` attribute of `HealthData`.
    private(set) var locale: String?
    /// The export's date: that of the last `ExportDate` read that holds one.
    private(set) var exportDate: SampleDraft.Instant?
    private let reader: ExportDocumentReader
    /// Whether the root's end tag was read.
    private var rootClosed = false
    private let source: any ExportByteSource

    /// The names the scanner treats apart.
    private enum NameKind: UInt8 {
        case other, location, workoutRoute, exportDate
    }
    /// The kind of each name, by the reader's number.
    private var kinds: [NameKind] = []

    /// A scanner over `source`.
    init(_ source: any ExportByteSource) throws {
        self.source = source
        reader = try ExportDocumentReader(source)
    }

    /// Calls `body` with the top-level elements in document order, `elementsPerBatch` at a
    /// time (the last batch may hold fewer).
    ///
    /// - Throws: ``HealthLogError/Code/badInput`` for XML that is not well-formed (with line
    ///   and column), a document whose root is not `HealthData`, or elements nested deeper
    ///   than ``ImportLimits/depth``; whatever `body` throws.
    mutating func scan(elementsPerBatch: Int, _ body: (ParsedElements) throws -> Void) throws {
        guard let root = try next(), !reader.tag(root).isEnd else {
            throw HealthLogError(.badInput, "\(source.documentName): the XML holds no element: not an Apple Health export")
        }
        let rootTag = reader.tag(root)
        let rootName = reader.names[rootTag.name]
        guard rootName == "HealthData" else {
            throw ExportHead.wrongRoot(rootName, line: rootTag.line, path: source.documentName)
        }
        count(rootTag)
        locale = reader.attributes(root).first(where: { $0.name == "locale" })?.value
        var batch = ParsedElements(exportDate: exportDate)
        // The open elements below the root: the index of each one's start tag in the
        // batch, or -1 for one left out (a `Location` inside a parent, and what it holds).
        var open: [Int] = []
        while let index = try next() {
            let tag = reader.tag(index)
            if tag.isEnd {
                guard let kept = open.popLast() else {
                    try drain()
                    break
                }
                guard kept >= 0 else { continue }
                batch.tags.appendEnd()
                guard open.isEmpty else { continue }
                batch.count += 1
                if batch.count >= elementsPerBatch {
                    batch.names = reader.names
                    try body(batch)
                    batch = ParsedElements(exportDate: exportDate, reservingLike: batch)
                }
                continue
            }
            count(tag)
            // The root is at depth 1, the top-level elements at 2.
            if open.count + 2 > ImportLimits.depth {
                throw HealthLogError(
                    .badInput,
                    "\(source.documentName): \(ExportLine.text(tag.line)): element \(reader.names[tag.name]) is nested \(open.count + 2) deep, deeper than the \(ImportLimits.depth) the import reads")
            }
            let kind = self.kind(of: tag.name)
            if let parent = open.last, parent < 0 || kind == .location {
                if parent >= 0 {
                    batch.tags[parent].locationCount += 1
                    if self.kind(of: batch.tags[parent].name) == .workoutRoute {
                        batch.routePoints[parent, default: RoutePoints()].add(location: reader.attributes(index))
                    }
                }
                open.append(-1)
                continue
            }
            if open.isEmpty, kind == .exportDate,
                let date = ExportMapper.exportDate(of: ExportElement(name: "ExportDate", attributes: reader.attributes(index), line: tag.line))
            {
                exportDate = date
            }
            open.append(reader.copy(index, into: &batch.tags))
        }
        batch.names = reader.names
        if batch.count > 0 { try body(batch) }
    }

    /// The kind of the name numbered `number`.
    private mutating func kind(of number: Int) -> NameKind {
        if number >= kinds.count {
            let names = reader.names
            for name in names[kinds.count...] {
                kinds.append(name == "Location" ? .location : name == "WorkoutRoute" ? .workoutRoute : name == "ExportDate" ? .exportDate : .other)
            }
        }
        return kinds[number]
    }

    /// Counts the element `tag` starts.
    private mutating func count(_ tag: TagList.Tag) {
        if tag.name >= countsByName.count { countsByName += repeatElement(0, count: tag.name + 1 - countsByName.count) }
        countsByName[tag.name] += 1
    }

    /// Reads past the root's end, so trailing garbage is still reported as malformed.
    private mutating func drain() throws {
        rootClosed = true
        while try next() != nil {}
    }

    /// The reader's next tag (its index, for the reader). When the input ends before the
    /// root element does (a truncated export), the error says so, with libxml2's message
    /// as detail.
    private func next() throws -> Int? {
        let node: Int?
        do {
            node = try reader.next()
        } catch let error as HealthLogError where !rootClosed && reader.endsBefore("</HealthData>") {
            throw truncated(detail: reader.parseError?.message ?? error.message)
        }
        if node == nil, !rootClosed { throw truncated(detail: nil) }
        return node
    }

    /// The error for a document that ends before `</HealthData>`.
    private func truncated(detail: String?) -> HealthLogError {
        var message = "\(source.documentName): the export ends before </HealthData>, at line \(reader.lastLine): the file is cut short"
        if let detail { message += " (libxml2: \(detail))" }
        return HealthLogError(.badInput, message)
    }
}

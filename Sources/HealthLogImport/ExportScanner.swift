import HealthLog

/// Reads an export document as a stream and hands over each top-level element (the
/// children of `HealthData`) complete with its descendants, counting every element by name
/// on the way.
struct ExportScanner {
    /// Elements read, by name, at every depth (`HealthData` included).
    var elementCounts: [String: Int] {
        var counts = prefixedCounts
        let names = reader.names
        for (id, count) in countsByID.enumerated() where count > 0 { counts[names[id], default: 0] += count }
        return counts
    }
    /// Elements read, by the reader's number of their name (no hashing per element).
    private var countsByID: [Int] = []
    /// Elements read whose name has a prefix (and so no number), by name.
    private var prefixedCounts: [String: Int] = [:]
    /// The `locale` attribute of `HealthData`.
    private(set) var locale: String?
    private let reader: ExportDocumentReader
    /// Whether the root's end tag was read.
    private var rootClosed = false
    private let source: any ExportByteSource

    /// A scanner over `source`.
    init(_ source: any ExportByteSource) throws {
        self.source = source
        reader = try ExportDocumentReader(source)
    }

    /// Calls `body` with each top-level element in document order.
    ///
    /// - Throws: ``HealthLogError/Code/badInput`` for XML that is not well-formed (with line
    ///   and column), a document whose root is not `HealthData`, or elements nested deeper
    ///   than ``ImportLimits/depth``; whatever `body` throws.
    mutating func scan(_ body: (ExportElement) throws -> Void) throws {
        guard let root = try next(), !root.isEnd else {
            throw HealthLogError(.badInput, "\(source.documentName): the XML holds no element: not an Apple Health export")
        }
        guard root.name == "HealthData" else {
            throw ExportHead.wrongRoot(root.name, line: root.line, path: source.documentName)
        }
        count(root)
        locale = root.fields.first(where: { $0.name == "locale" })?.value
        var stack: [ExportElement] = []
        while let node = try next() {
            if node.isEnd {
                guard let element = stack.popLast() else {
                    try drain()
                    return
                }
                if element.name == "Location", !stack.isEmpty { continue }
                try close(element, &stack, body)
                continue
            }
            count(node)
            // The root is at depth 1, the top-level elements at 2.
            if stack.count + 2 > ImportLimits.depth {
                throw HealthLogError(
                    .badInput,
                    "\(source.documentName): line \(node.line): element \(node.name) is nested \(stack.count + 2) deep, deeper than the \(ImportLimits.depth) the import reads")
            }
            if node.name == "Location", !stack.isEmpty {
                stack[stack.count - 1].locationCount += 1
                if stack[stack.count - 1].name == "WorkoutRoute" {
                    if stack[stack.count - 1].routePoints == nil { stack[stack.count - 1].routePoints = RoutePoints() }
                    stack[stack.count - 1].routePoints!.add(location: node.fields)
                }
                stack.append(ExportElement(name: node.name, attributes: [], line: node.line))
                continue
            }
            stack.append(ExportElement(name: node.name, attributes: node.fields, line: node.line))
        }
    }

    /// Counts the element `node` starts.
    private mutating func count(_ node: ExportDocumentReader.Node) {
        guard node.nameID >= 0 else {
            prefixedCounts[node.name, default: 0] += 1
            return
        }
        if node.nameID >= countsByID.count { countsByID += repeatElement(0, count: node.nameID + 1 - countsByID.count) }
        countsByID[node.nameID] += 1
    }

    /// Attaches a finished element to its parent, or delivers it when it is top-level.
    private func close(_ element: ExportElement, _ stack: inout [ExportElement], _ body: (ExportElement) throws -> Void) throws {
        if stack.isEmpty {
            try body(element)
        } else {
            stack[stack.count - 1].children.append(element)
        }
    }

    /// Reads past the root's end, so trailing garbage is still reported as malformed.
    private mutating func drain() throws {
        rootClosed = true
        while try next() != nil {}
    }

    /// The reader's next node. When the input ends before the root element does (a
    /// truncated export), the error says so, with libxml2's message as detail.
    private func next() throws -> ExportDocumentReader.Node? {
        let node: ExportDocumentReader.Node?
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

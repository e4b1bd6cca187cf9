#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLog

import CLibXML2

/// A pull parser over an ``ExportByteSource``: libxml2's streaming reader
/// (`xmlTextReader`), which holds one node at a time, so a file of any size is read in
/// bounded memory.
///
/// Safe settings for untrusted input: no network (`XML_PARSE_NONET`), no external entity
/// or DTD loading (no `XML_PARSE_DTDLOAD`), no validation against the DTD (real exports
/// violate their own), no entity substitution into content (no `XML_PARSE_NOENT`), and
/// not `XML_PARSE_HUGE`, which would lift libxml2's guard against entity expansion bombs.
/// `XML_PARSE_BIG_LINES` keeps line numbers past 65,535 exact.
/// Well-formedness errors stop the reader with the line and column where the text breaks.
final class XMLStreamReader {
    /// One node the reader stops at.
    enum Node {
        /// A start tag (`isEmpty` for `<a/>`), with its attributes in document order.
        case start(name: String, attributes: [(name: String, value: String)], isEmpty: Bool)
        /// An end tag.
        case end(name: String)
        /// Character data (text or CDATA), only when the reader was asked for it.
        case text(String)
    }

    /// The parser options: see the type's documentation.
    static let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_COMPACT.rawValue | XML_PARSE_BIG_LINES.rawValue)

    private let reader: OpaquePointer
    private let context: Unmanaged<Context>
    /// Whether ``next()`` returns character data too.
    private let readsText: Bool
    /// The depth and namespace declarations of each open element that has any.
    private var namespaceScopes: [(depth: Int32, count: Int)] = []
    /// The namespace declarations in scope: the sum of ``namespaceScopes``' counts.
    private var namespacesInScope = 0
    /// The distinct element and attribute names read, by libxml2's interned name.
    private var names = Set<UnsafePointer<xmlChar>>()
    /// The names met last, by a slot of their interned pointer's bits: most tags repeat
    /// the names of the tags before, found here without hashing.
    private var recentNames = [UnsafePointer<xmlChar>?](repeating: nil, count: 64)

    /// What the C callbacks reach: the byte source, its failure, the first parse error, and
    /// what was handed to the parser.
    private final class Context {
        let source: any ExportByteSource
        var readFailure: (any Error)?
        var parseError: (line: Int, column: Int, message: String)?
        /// What was handed to the parser: its newlines, last bytes, whether it all was.
        var input = InputTail()
        /// The attributes of the start tags read so far, counted (and a DTD declaration
        /// refused, when the reader was made so).
        var tags: StartTagScan
        init(_ source: any ExportByteSource, refusingDeclarations: Bool) {
            self.source = source
            tags = StartTagScan(refusingDeclarations: refusingDeclarations)
        }
    }

    /// Starts a reader over `source` (which the reader does not close); `readsText` makes
    /// ``next()`` return character data as well as tags; `refusingDeclarations` refuses a
    /// DTD declaration (`<!ENTITY`, `<!ATTLIST`, …), whose entities and attribute defaults
    /// would reach libxml2 unscanned (this reader cannot see them before libxml2 uses them).
    init(_ source: any ExportByteSource, readsText: Bool = false, refusingDeclarations: Bool = false) throws {
        self.readsText = readsText
        let context = Unmanaged.passRetained(Context(source, refusingDeclarations: refusingDeclarations))
        let read: xmlInputReadCallback = { opaque, buffer, length in
            guard let opaque, let buffer else { return -1 }
            let context = Unmanaged<Context>.fromOpaque(opaque).takeUnretainedValue()
            do {
                let count = try context.source.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(length)))
                if let tag = context.tags.scan(UnsafeRawBufferPointer(start: buffer, count: count)) {
                    throw StartTagScan.refusal(context.source.documentName, tag)
                }
                if count == 0 { context.input.reachedEnd = true }
                context.input.took(UnsafeRawPointer(buffer), count)
                return Int32(count)
            } catch {
                context.readFailure = error
                return -1
            }
        }
        guard let reader = xmlReaderForIO(read, nil, context.toOpaque(), nil, nil, Self.options) else {
            context.release()
            throw HealthLogError(.io, "cannot start the XML reader for \(source.documentName)")
        }
        self.reader = reader
        self.context = context
        let handler: xmlStructuredErrorFunc = { opaque, error in
            guard let opaque, let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
            let context = Unmanaged<Context>.fromOpaque(opaque).takeUnretainedValue()
            guard context.parseError == nil else { return }
            let message = error.pointee.message.map { String(cString: $0) } ?? "malformed XML"
            context.parseError = (Int(error.pointee.line), Int(error.pointee.int2), message.trimmingTrailingNewlines)
        }
        xmlTextReaderSetStructuredErrorHandler(reader, handler, context.toOpaque())
    }

    deinit {
        xmlFreeTextReader(reader)
        context.release()
    }

    /// The line of the current node (1-based), or where the parser has reached when the
    /// node does not know.
    var line: Int {
        if let node = xmlTextReaderCurrentNode(reader) {
            let line = xmlGetLineNo(node)
            if line > 0 { return Int(line) }
        }
        return Int(xmlTextReaderGetParserLineNumber(reader))
    }

    /// The next start or end tag, or `nil` at the end of the document.
    ///
    /// - Throws: ``HealthLogError/Code/badInput`` naming the line and column where the XML
    ///   stops being well-formed; the source's error when reading fails.
    func next() throws -> Node? {
        while true {
            let status = xmlTextReaderRead(reader)
            if status == 0 { return nil }
            guard status == 1 else { throw failure() }
            switch xmlTextReaderNodeType(reader) {
            case 1:
                let interned = xmlTextReaderConstName(reader)
                try count(interned)
                let name = interned.map { String(cString: $0) } ?? ""
                let isEmpty = xmlTextReaderIsEmptyElement(reader) == 1
                var attributes: [(name: String, value: String)] = []
                var namespaces = 0
                while xmlTextReaderMoveToNextAttribute(reader) == 1 {
                    let value = xmlTextReaderConstValue(reader).map { String(cString: $0) } ?? ""
                    namespaces += xmlTextReaderIsNamespaceDecl(reader) == 1 ? 1 : 0
                    let attributeName = xmlTextReaderConstName(reader)
                    try count(attributeName)
                    attributes.append((attributeName.map { String(cString: $0) } ?? "", value))
                }
                xmlTextReaderMoveToElement(reader)
                try scope(namespaces, of: name)
                return .start(name: name, attributes: attributes, isEmpty: isEmpty)
            case 15:
                return .end(name: String(cString: xmlTextReaderConstName(reader)))
            case 3 where readsText, 4 where readsText:
                return .text(xmlTextReaderConstValue(reader).map { String(cString: $0) } ?? "")
            default:
                continue
            }
        }
    }

    /// Counts the name libxml2 interned at `interned` among the distinct names read.
    ///
    /// - Throws: ``HealthLogError/Code/badInput`` past ``ImportLimits/names`` (libxml2's name
    ///   dictionary slows as it fills).
    private func count(_ interned: UnsafePointer<xmlChar>?) throws {
        guard let interned else { return }
        let slot = Int((UInt(bitPattern: interned) &* 0x9E37_79B9_7F4A_7C15) >> UInt(UInt.bitWidth - 6))
        if recentNames[slot] == interned { return }
        recentNames[slot] = interned
        guard names.insert(interned).inserted, names.count > ImportLimits.names else { return }
        throw HealthLogError(
            .badInput,
            "\(context.takeUnretainedValue().source.documentName): line \(line): more than \(ImportLimits.names) distinct element and attribute names, the most the import reads")
    }

    /// Counts the `count` namespace declarations of the start tag `name` just read, with
    /// those of its open ancestors: libxml2 looks each prefix up through all of them.
    ///
    /// - Throws: ``HealthLogError/Code/badInput`` past ``ImportLimits/namespaces``.
    private func scope(_ count: Int, of name: String) throws {
        let depth = xmlTextReaderDepth(reader)
        while let last = namespaceScopes.last, last.depth >= depth {
            namespacesInScope -= last.count
            namespaceScopes.removeLast()
        }
        guard count > 0 else { return }
        namespaceScopes.append((depth, count))
        namespacesInScope += count
        if namespacesInScope > ImportLimits.namespaces {
            throw HealthLogError(
                .badInput,
                "\(context.takeUnretainedValue().source.documentName): line \(line): element \(name) is in the scope of more than \(ImportLimits.namespaces) namespace declarations, the most the import reads")
        }
    }

    /// Whether the whole input was read and it does not end with `endTag` (blanks after it
    /// allowed): a document cut short.
    func endsBefore(_ endTag: String) -> Bool {
        let context = context.takeUnretainedValue()
        return context.readFailure == nil && context.input.endsBefore(endTag)
    }

    /// The number of the input's last line (one that is not empty), once it was all read.
    var lastLine: Int { context.takeUnretainedValue().input.lastLine }

    /// libxml2's message and its line for the error that stopped the reader, if it was a
    /// parse error.
    var parseError: (line: Int, message: String)? {
        context.takeUnretainedValue().parseError.map { ($0.line, $0.message) }
    }

    /// The error that stopped the reader.
    private func failure() -> any Error {
        let context = context.takeUnretainedValue()
        if let error = context.readFailure { return error }
        let name = context.source.documentName
        if let parsed = context.parseError {
            return HealthLogError(.badInput, "\(name): line \(parsed.line), column \(parsed.column): malformed XML: \(parsed.message)")
        }
        return HealthLogError(.badInput, "\(name): line \(line): malformed XML")
    }
}

extension String {
    /// The string without the newlines libxml2 ends its messages with.
    fileprivate var trimmingTrailingNewlines: String {
        var text = self
        while text.last == "\n" { text.removeLast() }
        return text
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLog

import CLibXML2

/// The export document's start and end tags, from libxml2's SAX2 push parser: it calls
/// back with each tag's name and attributes and builds no tree node, and holds a few tags
/// at a time, so a file of any size is read in bounded memory.
///
/// Its tags, attribute values, errors and lines are those ``XMLStreamReader`` (libxml2's
/// `xmlTextReader`) gives for the same input: the same parser options and error handler,
/// the input fed in the same pieces, entities expanded against the document's own DTD, and
/// lines past 65,534 as ``Context`` works them out (`docs/import.md`,
/// "Reading"; `ExportDocumentReaderTests` compares the two on every fixture).
///
/// A tag is kept as a ``TagList`` keeps it (its name by number, its attributes' values as
/// byte ranges), namespace declarations first among its attributes, as `xmlns:prefix`.
final class ExportDocumentReader {
    /// The bytes fed to the parser at a time, as `xmlTextReader` feeds it.
    static let pieceBytes = 512
    /// The first line libxml2 does not keep in a node.
    static let unkeptLine = 65535

    private let parser: xmlParserCtxtPtr
    private let context: Unmanaged<Context>
    /// Input read and not yet fed, from the start: the reader's buffer.
    private var buffer = [UInt8](repeating: 0, count: ExportDocumentReader.readBytes + ExportDocumentReader.pieceBytes)
    /// Where the bytes of ``buffer`` that wait to be fed start.
    private var start = 0
    /// How many bytes of ``buffer`` wait to be fed.
    private var buffered = 0
    /// The bytes the reader asked its input for at a time.
    static let readBytes = 4096
    /// Whether the end of the input was fed.
    private var finished = false
    /// The attributes of the start tags fed so far, counted.
    private var tags = StartTagScan()

    /// What the C callbacks reach: the byte source, the tags parsed, the lines waiting to
    /// be resolved, the first parse error.
    private final class Context {
        let source: any ExportByteSource
        /// The parser the callbacks belong to (an entity's check runs its own: ignored).
        var parser: xmlParserCtxtPtr?
        var readFailure: (any Error)?
        var parseError: (line: Int, column: Int, message: String)?
        /// What was handed to the parser: its newlines, last bytes, whether it all was.
        var input = InputTail()
        /// Tags parsed; those from ``next`` on not yet returned.
        var tags = TagList()
        /// The next tag to return.
        var next = 0
        /// Start tags whose line waits for the next node: index in ``tags`` (-1 for a
        /// comment or processing instruction, whose line the reader looked for the same
        /// way), depth, piece.
        var waiting: [(index: Int, depth: Int, piece: Int)] = []
        /// The open elements.
        var depth = 0
        /// The namespace declarations of each open element.
        var namespaceCounts: [Int] = []
        /// The namespace declarations in scope: the sum of ``namespaceCounts``.
        var namespacesInScope = 0
        /// The attribute defaults the document's DTD declared so far.
        var attributeDefaults = 0
        /// The number of the piece being parsed.
        var piece = 0
        /// The numbers of names without a prefix, by libxml2's interned name.
        var names: [UnsafeRawPointer: Int] = [:]
        /// The numbers of names with a prefix (and namespace declarations), by their text.
        var spelledNames: [String: Int] = [:]
        /// Every name, by its number.
        var nameList: [String] = []
        /// The slots of a direct-mapped cache in front of ``names``, by the interned
        /// pointer's bits: found without hashing, for every attribute of every tag.
        /// libxml2 interns names side by side, a few bytes apart: the slot is taken from
        /// the top bits of the pointer times a large odd constant (Fibonacci hashing), which
        /// every bit of the pointer moves, so neighbouring names rarely share a slot.
        static let slots = 1024
        /// The bits of the product that pick a slot: those above the slot number's.
        static let slotShift = UInt(UInt.bitWidth - 10)
        /// Each slot's interned pointer.
        let slotKeys = UnsafeMutablePointer<UnsafeRawPointer?>.allocate(capacity: Context.slots)
        /// Each slot's name number.
        let slotNumbers = UnsafeMutablePointer<Int>.allocate(capacity: Context.slots)

        init(_ source: any ExportByteSource) {
            self.source = source
            slotKeys.initialize(repeating: nil, count: Self.slots)
            slotNumbers.initialize(repeating: 0, count: Self.slots)
        }

        deinit {
            slotKeys.deallocate()
            slotNumbers.deallocate()
        }

        /// The number of the name libxml2 interned at `local`: from its cache slot, else
        /// from ``names`` (added the first time), then kept in the slot.
        func known(_ local: UnsafePointer<xmlChar>) -> Int {
            let key = UnsafeRawPointer(local)
            let bits = UInt(bitPattern: key)
            let slot = Int((bits &* 0x9E37_79B9_7F4A_7C15) >> Self.slotShift)
            if slotKeys[slot] == key { return slotNumbers[slot] }
            let number: Int
            if let found = names[key] {
                number = found
            } else {
                number = added(String(cString: local))
                names[key] = number
            }
            slotKeys[slot] = key
            slotNumbers[slot] = number
            return number
        }

        /// The number of the name `text` (one with a prefix, or a namespace declaration's).
        func spelled(_ text: String) -> Int {
            if let found = spelledNames[text] { return found }
            let number = added(text)
            spelledNames[text] = number
            return number
        }

        /// Numbers the name `text`, met for the first time; past ``ImportLimits/names``
        /// distinct names, stops the parser.
        private func added(_ text: String) -> Int {
            if nameList.count == ImportLimits.names {
                refuse("more than \(ImportLimits.names) distinct element and attribute names, the most the import reads (an Apple Health export uses under a hundred)")
            }
            nameList.append(text)
            return nameList.count - 1
        }

        /// The index of the first tag not ready to return: the first start tag whose
        /// line waits.
        var readyEnd: Int { waiting.first(where: { $0.index >= 0 })?.index ?? tags.count }

        /// Gives the waiting start tags `line`.
        func resolve(_ line: Int) {
            for entry in waiting where entry.index >= 0 { tags[entry.index].line = line }
            waiting.removeAll(keepingCapacity: true)
        }

        /// A node of the reader's tree was made at `depth` (its parent one above): the
        /// reader took a waiting start tag's line from its first child or its next
        /// sibling made in the same piece: a text node's line, or through an element
        /// to that element's; anything else left it at 65,535.
        func made(atDepth depth: Int, textLine: Int?) {
            guard let last = waiting.last else { return }
            let related = last.depth == depth - 1 || last.depth == depth
            if !related || waiting.contains(where: { $0.piece != piece }) {
                resolve(ExportDocumentReader.unkeptLine)
            } else if let textLine {
                resolve(textLine)
            }
        }

        /// The number of a name, `local` with `prefix` if it has one.
        func name(_ local: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?) -> Int {
            guard let prefix else { return known(local) }
            return spelled(String(cString: prefix) + ":" + String(cString: local))
        }

        /// Adds an attribute `local` (its name's number `name`) of the start tag being
        /// parsed, its value as the reader's tree gave it: the bytes as they are, or, with an
        /// entity reference among them, the references expanded as libxml2's tree does.
        func addAttribute(_ name: Int, _ start: UnsafePointer<xmlChar>, _ end: UnsafePointer<xmlChar>, of local: UnsafePointer<xmlChar>) {
            let count = end - start
            if memchr(start, 0x26, count) != nil {
                tags.appendValue(expanded(start, count, attribute: String(cString: local)))
            } else {
                tags.appendValue(start, count)
            }
            tags.endAttribute(name: name)
        }

        /// The error that stopped the parser from a callback (an entity's expansion past
        /// ``ImportLimits``), which ``failure()`` reports before libxml2's.
        var limitError: HealthLogError?
        /// Bytes entity references expanded to so far, in all values.
        var expandedBytes = 0

        /// A value holding references, expanded as libxml2's tree reads an attribute: a
        /// character reference as its character, a predefined entity as its character, an
        /// entity of the document's DTD as its replacement text, itself expanded; an
        /// unknown or external entity as nothing. The expansion is linear in its output and
        /// bounded by ``ImportLimits``: past a bound it stops the parser with
        /// ``limitError`` and gives an empty value.
        private func expanded(_ start: UnsafePointer<xmlChar>, _ count: Int, attribute: String) -> [UInt8] {
            guard limitError == nil else { return [] }
            var out: [UInt8] = []
            do {
                let fromEntities = try expand(start, count, into: &out, nesting: 0, attribute: attribute)
                expandedBytes += fromEntities
                if expandedBytes > ImportLimits.expandedDocumentBytes {
                    throw limit(
                        "entity references in attribute values expand to more than \(ImportLimits.describe(ImportLimits.expandedDocumentBytes)) in all, the most the import expands")
                }
            } catch {
                stop(error)
                return []
            }
            return out
        }

        /// Appends the expansion of the `count` bytes at `start` to `out`; returns how many
        /// bytes entities (not character references) gave.
        private func expand(_ start: UnsafePointer<xmlChar>, _ count: Int, into out: inout [UInt8], nesting: Int, attribute: String) throws -> Int {
            var fromEntities = 0
            var at = 0
            while at < count {
                guard let found = memchr(start + at, 0x26, count - at) else {
                    out.append(contentsOf: UnsafeBufferPointer(start: start + at, count: count - at))
                    break
                }
                let ampersand = UnsafeRawPointer(found).assumingMemoryBound(to: xmlChar.self) - start
                out.append(contentsOf: UnsafeBufferPointer(start: start + at, count: ampersand - at))
                guard let semicolon = memchr(start + ampersand, 0x3B, count - ampersand) else { break }
                let end = UnsafeRawPointer(semicolon).assumingMemoryBound(to: xmlChar.self) - start
                let name = UnsafeBufferPointer(start: start + ampersand + 1, count: end - ampersand - 1)
                at = end + 1
                if name.first == 0x23 {
                    Self.appendCharacter(name.dropFirst(), to: &out)
                    continue
                }
                let entityName = String(decoding: name, as: UTF8.self)
                guard let entity = xmlGetDocEntity(parser?.pointee.myDoc, entityName), let content = entity.pointee.content else { continue }
                let length = Int(strlen(UnsafeRawPointer(content).assumingMemoryBound(to: CChar.self)))
                if entity.pointee.etype == XML_INTERNAL_PREDEFINED_ENTITY {
                    out.append(contentsOf: UnsafeBufferPointer(start: content, count: length))
                    continue
                }
                guard entity.pointee.etype == XML_INTERNAL_GENERAL_ENTITY else { continue }
                guard nesting < ImportLimits.entityNesting else {
                    throw limit("attribute \(attribute): entity '\(entityName)' refers to itself, or entities nest more than \(ImportLimits.entityNesting) deep")
                }
                let before = out.count
                _ = try expand(content, length, into: &out, nesting: nesting + 1, attribute: attribute)
                fromEntities += out.count - before
                if out.count > ImportLimits.expandedValueBytes {
                    throw limit(
                        "attribute \(attribute): entity references expand to more than \(ImportLimits.describe(ImportLimits.expandedValueBytes)), the most the import expands in one value")
                }
            }
            return fromEntities
        }

        /// Appends the UTF-8 of a character reference's number (`38`, `x26`); nothing for
        /// one that names no character.
        private static func appendCharacter(_ digits: Slice<UnsafeBufferPointer<xmlChar>>, to out: inout [UInt8]) {
            let hex = digits.first == 0x78
            let text = String(decoding: hex ? digits.dropFirst() : digits, as: UTF8.self)
            guard let value = UInt32(text, radix: hex ? 16 : 10), value != 0, let scalar = Unicode.Scalar(value) else { return }
            out.append(contentsOf: Array(String(Character(scalar)).utf8))
        }

        /// The error for a bound of ``ImportLimits`` passed, at the parser's line.
        private func limit(_ reason: String) -> HealthLogError {
            let line = parser.map { Int(xmlSAX2GetLineNumber(UnsafeMutableRawPointer($0))) } ?? 0
            return HealthLogError(.badInput, "\(source.documentName): line \(line): \(reason)")
        }

        /// Stops the parser with a bound of ``ImportLimits`` passed: `reason`, at the parser's
        /// line.
        func refuse(_ reason: String) {
            stop(limit(reason))
        }

        /// Keeps the first error thrown from a callback and turns the parser's callbacks
        /// off; ``parse(_:count:terminate:)`` throws it once the piece is parsed.
        /// (`xmlStopParser` would free the input the callback's arguments point into.)
        func stop(_ error: any Error) {
            if limitError == nil { limitError = error as? HealthLogError ?? HealthLogError(.badInput, "\(error)") }
            parser?.pointee.disableSAX = 1
        }
    }

    /// Starts a reader over `source` (which the reader does not close).
    init(_ source: any ExportByteSource) throws {
        let context = Unmanaged.passRetained(Context(source))
        var handler = xmlSAXHandler()
        xmlSAXVersion(&handler, 2)
        handler.startElementNs = { ctx, local, prefix, _, namespaceCount, namespaces, attributeCount, defaulted, attributes in
            guard let context = ExportDocumentReader.context(ctx), let local else { return }
            let line = Int(xmlSAX2GetLineNumber(ctx))
            context.depth += 1
            context.made(atDepth: context.depth, textLine: nil)
            context.namespaceCounts.append(Int(namespaceCount))
            context.namespacesInScope += Int(namespaceCount)
            if context.namespacesInScope > ImportLimits.namespaces {
                context.refuse(
                    "element \(String(cString: local)) is in the scope of more than \(ImportLimits.namespaces) namespace declarations, the most the import reads")
            }
            if let namespaces {
                for k in 0..<Int(namespaceCount) {
                    if let value = namespaces[2 * k + 1] { context.tags.appendValue(value, strlen(UnsafeRawPointer(value).assumingMemoryBound(to: CChar.self))) }
                    context.tags.endAttribute(name: context.spelled(namespaces[2 * k].map { "xmlns:" + String(cString: $0) } ?? "xmlns"))
                }
            }
            if let attributes {
                for k in 0..<Int(attributeCount - defaulted) {
                    guard let name = attributes[5 * k], let start = attributes[5 * k + 3], let end = attributes[5 * k + 4] else { continue }
                    context.addAttribute(context.name(name, prefix: attributes[5 * k + 1]), start, end, of: name)
                }
            }
            let index = context.tags.appendStart(name: context.name(local, prefix: prefix), line: line)
            if line >= ExportDocumentReader.unkeptLine { context.waiting.append((index, context.depth, context.piece)) }
        }
        handler.endElementNs = { ctx, _, _, _ in
            guard let context = ExportDocumentReader.context(ctx) else { return }
            if let last = context.waiting.last, last.depth > context.depth { context.resolve(ExportDocumentReader.unkeptLine) }
            context.depth -= 1
            context.namespacesInScope -= context.namespaceCounts.popLast() ?? 0
            context.tags.appendEnd()
        }
        // A start tag in an entity's replacement text is parsed where the entity is used,
        // out of ``StartTagScan``'s sight: the text is scanned when the entity is declared.
        handler.entityDecl = { ctx, name, type, publicID, systemID, content in
            if let context = ExportDocumentReader.context(ctx), let content,
                let tag = StartTagScan.firstCrowdedTag(
                    in: UnsafeRawBufferPointer(start: content, count: strlen(UnsafeRawPointer(content).assumingMemoryBound(to: CChar.self))))
            {
                let entity = name.map { String(cString: $0) } ?? ""
                context.refuse(
                    "entity '\(entity)' holds element \(tag.element) with more than \(ImportLimits.attributes) attributes, the most the import reads on one element")
                return
            }
            xmlSAX2EntityDecl(ctx, name, type, publicID, systemID, content)
        }
        // libxml2 adds each attribute default of the DTD to every start tag of its element,
        // comparing it with each attribute the tag has so far.
        handler.attributeDecl = { ctx, element, name, type, def, defaultValue, tree in
            if let context = ExportDocumentReader.context(ctx), defaultValue != nil,
                def != Int32(XML_ATTRIBUTE_IMPLIED.rawValue), def != Int32(XML_ATTRIBUTE_REQUIRED.rawValue)
            {
                context.attributeDefaults += 1
                if context.attributeDefaults > ImportLimits.attributeDefaults {
                    context.refuse("the DTD declares more than \(ImportLimits.attributeDefaults) attribute defaults, the most the import reads")
                    xmlFreeEnumeration(tree)
                    return
                }
            }
            xmlSAX2AttributeDecl(ctx, element, name, type, def, defaultValue, tree)
        }
        let text: charactersSAXFunc = { ctx, _, _ in
            guard let context = ExportDocumentReader.context(ctx) else { return }
            context.made(atDepth: context.depth + 1, textLine: Int(xmlSAX2GetLineNumber(ctx)))
        }
        handler.characters = text
        handler.ignorableWhitespace = text
        handler.cdataBlock = text
        // Comments and processing instructions in the document's content are nodes of
        // the reader's tree with no line kept past 65,534: an empty element, for the
        // lines; an entity reference is a node whose line the reader never looked for.
        handler.comment = { ctx, _ in ExportDocumentReader.madeOther(ctx) }
        handler.processingInstruction = { ctx, _, _ in ExportDocumentReader.madeOther(ctx) }
        handler.reference = { ctx, _ in
            guard let context = ExportDocumentReader.context(ctx) else { return }
            context.resolve(ExportDocumentReader.unkeptLine)
        }
        handler.warning = nil
        handler.error = nil
        handler.fatalError = nil
        handler.serror = { opaque, error in
            guard let opaque, let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
            let parser = opaque.assumingMemoryBound(to: xmlParserCtxt.self)
            guard let shared = parser.pointee._private else { return }
            let context = Unmanaged<Context>.fromOpaque(shared).takeUnretainedValue()
            guard context.parseError == nil else { return }
            var message = ExportDocumentReader.trimmed(error.pointee.message.map { String(cString: $0) } ?? "malformed XML")
            var (line, column) = (Int(error.pointee.line), Int(error.pointee.int2))
            // An error inside an entity's replacement text (parsed by a parser of its own,
            // or as an input pushed on the document's) has the place in that text: the
            // document's input gives where the entity is used.
            if let main = context.parser, main != parser || main.pointee.inputNr > 1, main.pointee.inputNr > 0, let outer = main.pointee.inputTab[0] {
                (line, column) = (Int(outer.pointee.line), Int(outer.pointee.col))
                message += " (in an entity's replacement text, used here)"
            }
            context.parseError = (line, column, message)
        }
        // The reader starts the parser with the input's first 4 bytes, read at once.
        var head = [UInt8](repeating: 0, count: 4)
        let first: Int
        do {
            first = try head.withUnsafeMutableBytes { try source.read(into: $0) }
        } catch {
            context.release()
            throw error
        }
        let contextValue = context.takeUnretainedValue()
        if first == 0 { contextValue.input.reachedEnd = true }
        head.withUnsafeBytes { contextValue.input.took($0.baseAddress!, first) }
        let created: xmlParserCtxtPtr? = head.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                xmlCreatePushParserCtxt(&handler, nil, first == 4 ? chars.baseAddress : nil, first == 4 ? 4 : 0, nil)
            }
        }
        guard let created else {
            context.release()
            throw HealthLogError(.io, "cannot start the XML parser for \(source.documentName)")
        }
        parser = created
        self.context = context
        contextValue.parser = created
        created.pointee._private = context.toOpaque()
        _ = xmlCtxtUseOptions(created, XMLStreamReader.options)
        if first < 4 {
            for k in 0..<first { buffer[k] = head[k] }
            buffered = first
        }
    }

    deinit {
        if let document = parser.pointee.myDoc {
            xmlFreeDoc(document)
            parser.pointee.myDoc = nil
        }
        xmlFreeParserCtxt(parser)
        context.release()
    }

    /// A comment or processing instruction in the content, for the lines.
    private static func madeOther(_ ctx: UnsafeMutableRawPointer?) {
        guard let context = context(ctx), context.depth > 0 else { return }
        context.made(atDepth: context.depth + 1, textLine: nil)
        if Int(xmlSAX2GetLineNumber(ctx)) >= unkeptLine { context.waiting.append((-1, context.depth + 1, context.piece)) }
    }

    /// The context the callbacks of parser `ctx` reach, or `nil` for another parser (an
    /// entity's content checked on its own).
    private static func context(_ ctx: UnsafeMutableRawPointer?) -> Context? {
        guard let ctx else { return nil }
        let parser = ctx.assumingMemoryBound(to: xmlParserCtxt.self)
        guard let shared = parser.pointee._private else { return nil }
        let context = Unmanaged<Context>.fromOpaque(shared).takeUnretainedValue()
        return context.parser == parser ? context : nil
    }

    /// The next start or end tag, as its index for ``tag(_:)``, ``copy(_:into:)`` and
    /// ``attributes(_:)`` (until the next call), or `nil` at the end of the document.
    ///
    /// - Throws: ``HealthLogError/Code/badInput`` naming the line and column where the XML
    ///   stops being well-formed; the source's error when reading fails.
    func next() throws -> Int? {
        let context = context.takeUnretainedValue()
        while context.next >= context.readyEnd {
            if context.next == context.tags.count, context.waiting.isEmpty {
                context.tags.removeAll()
                context.next = 0
            }
            if finished {
                context.resolve(Self.unkeptLine)
                if context.next >= context.tags.count { return nil }
                break
            }
            try feed(context)
        }
        context.next += 1
        return context.next - 1
    }

    /// The tag at `index`, as ``next()`` gave it.
    func tag(_ index: Int) -> TagList.Tag {
        context.takeUnretainedValue().tags[index]
    }

    /// Adds the tag at `index` (as ``next()`` gave it) to `list`; returns its index there.
    func copy(_ index: Int, into list: inout TagList) -> Int {
        list.append(tagAt: index, of: context.takeUnretainedValue().tags)
    }

    /// The attributes of the tag at `index` (as ``next()`` gave it), as `String`s.
    func attributes(_ index: Int) -> [ExportAttribute] {
        let context = context.takeUnretainedValue()
        return context.tags.exportAttributes(ofTagAt: index, names: context.nameList)
    }

    /// Feeds the parser its next piece as `xmlTextReader` does: when fewer than 512 bytes
    /// wait, it reads once more (4,096 bytes at most); then it feeds 512 bytes, or all that
    /// waits when that is fewer; a read that gives nothing feeds the rest with the end.
    private func feed(_ context: Context) throws {
        if buffered < Self.pieceBytes {
            if start > 0 {
                let (from, count) = (start, buffered)
                buffer.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: $0.baseAddress! + from, byteCount: count) }
                start = 0
            }
            let got: Int
            if context.input.reachedEnd {
                got = 0
            } else {
                do {
                    got = try buffer.withUnsafeMutableBytes { try context.source.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[buffered..<(buffered + Self.readBytes)])) }
                } catch {
                    context.readFailure = error
                    throw error
                }
            }
            if got == 0 {
                context.input.reachedEnd = true
                finished = true
                try parse(context, count: buffered, terminate: true)
                return
            }
            buffer.withUnsafeBytes { context.input.took($0.baseAddress! + buffered, got) }
            buffered += got
        }
        try parse(context, count: min(buffered, Self.pieceBytes), terminate: false)
    }

    /// Feeds the parser the first `count` waiting bytes of ``buffer``, once
    /// ``StartTagScan`` found no start tag in them with too many attributes.
    private func parse(_ context: Context, count: Int, terminate: Bool) throws {
        context.piece += 1
        let from = start
        if let tag = buffer.withUnsafeBytes({ tags.scan(UnsafeRawBufferPointer(rebasing: $0[from..<(from + count)])) }) {
            throw StartTagScan.refusal(context.source.documentName, tag)
        }
        let status = buffer.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { xmlParseChunk(parser, $0.baseAddress! + from, Int32(count), terminate ? 1 : 0) }
        }
        start += count
        buffered -= count
        if status != 0 || parser.pointee.wellFormed == 0 || context.limitError != nil { throw failure() }
    }

    /// Whether the whole input was read and it does not end with `endTag` (blanks after it
    /// allowed): a document cut short.
    func endsBefore(_ endTag: String) -> Bool {
        let context = context.takeUnretainedValue()
        return context.readFailure == nil && context.input.endsBefore(endTag)
    }

    /// The names read so far, by the number a tag or attribute gives.
    var names: [String] { context.takeUnretainedValue().nameList }

    /// The number of the input's last line (one that is not empty), once it was all read.
    var lastLine: Int { context.takeUnretainedValue().input.lastLine }

    /// libxml2's message and its line for the error that stopped the parser, if it was a
    /// parse error.
    var parseError: (line: Int, message: String)? {
        context.takeUnretainedValue().parseError.map { ($0.line, $0.message) }
    }

    /// Where the parser has reached.
    var parserLine: Int { Int(xmlSAX2GetLineNumber(parser)) }

    /// `message` without the newlines libxml2 ends its messages with.
    private static func trimmed(_ message: String) -> String {
        var text = message
        while text.last == "\n" { text.removeLast() }
        return text
    }

    /// The error that stopped the parser.
    private func failure() -> any Error {
        let context = context.takeUnretainedValue()
        if let error = context.readFailure { return error }
        if let error = context.limitError { return error }
        let name = context.source.documentName
        if let parsed = context.parseError {
            return HealthLogError(.badInput, "\(name): line \(parsed.line), column \(parsed.column): malformed XML: \(parsed.message)")
        }
        return HealthLogError(.badInput, "\(name): line \(parserLine): malformed XML")
    }
}

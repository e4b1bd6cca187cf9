#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tags of an export document as the parser gives them: start and end tags in document
/// order, names by number, each attribute's value a byte range of one buffer. The parsing
/// thread fills it with no `String` or array made per tag; ``ElementMaker`` makes
/// ``ExportElement``s of it on the thread that maps them.
///
/// Ranges are kept as ends: a start tag's attributes run from the end of the tag before
/// (its ``Tag/attributeEnd``) to its own, an attribute's value from the end of the
/// value before to its own.
struct TagList: Sendable {
    /// A start tag, or an end tag (``isEnd``, no attributes).
    struct Tag: Sendable {
        /// The number of the tag's name (`prefix:name` with a prefix), or -1 for an end tag.
        var name: Int
        /// The line of a start tag.
        var line: Int
        /// The end of the tag's attributes in ``TagList/attributes``.
        var attributeEnd: Int
        /// The `Location` children left out of the element (inside a parent, they are
        /// counted, not kept).
        var locationCount = 0
        /// Whether this is an end tag.
        var isEnd: Bool { name < 0 }
    }

    /// An attribute: its name's number and the end of its value in ``TagList/bytes``.
    struct Attribute: Sendable {
        /// The number of the attribute's name (`prefix:name` with a prefix).
        var name: Int
        /// The end of its value in ``TagList/bytes``.
        var valueEnd: Int
    }

    /// The tags, in document order.
    private(set) var tags: [Tag] = []
    /// The attributes of every start tag, in document order.
    private(set) var attributes: [Attribute] = []
    /// The attribute values, back to back.
    private(set) var bytes: [UInt8] = []

    /// The number of tags.
    var count: Int { tags.count }

    /// The tag at `index`.
    subscript(index: Int) -> Tag {
        get { tags[index] }
        set { tags[index] = newValue }
    }

    /// The attributes of the tag at `index`, as indices into ``attributes``.
    func attributeIndices(ofTagAt index: Int) -> Range<Int> {
        (index == 0 ? 0 : tags[index - 1].attributeEnd)..<tags[index].attributeEnd
    }

    /// The value of the attribute at `index`, as indices into ``bytes``.
    func valueRange(ofAttributeAt index: Int) -> Range<Int> {
        (index == 0 ? 0 : attributes[index - 1].valueEnd)..<attributes[index].valueEnd
    }

    /// Adds an attribute named `name` to the start tag being added: its value is the bytes
    /// added by ``appendValue(_:_:)`` since the attribute before.
    mutating func endAttribute(name: Int) {
        attributes.append(Attribute(name: name, valueEnd: bytes.count))
    }

    /// Adds `count` bytes at `start` to the value of the attribute being added.
    mutating func appendValue(_ start: UnsafePointer<UInt8>, _ count: Int) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: start, count: count))
    }

    /// Adds `value` to the value of the attribute being added.
    mutating func appendValue(_ value: [UInt8]) {
        bytes.append(contentsOf: value)
    }

    /// Adds a start tag named `name` at `line`, with the attributes added since the tag
    /// before; returns its index.
    @discardableResult
    mutating func appendStart(name: Int, line: Int) -> Int {
        tags.append(Tag(name: name, line: line, attributeEnd: attributes.count))
        return tags.count - 1
    }

    /// Adds an end tag.
    mutating func appendEnd() {
        tags.append(Tag(name: -1, line: 0, attributeEnd: attributes.count))
    }

    /// Adds the tag at `index` of `other`, with its attributes and their values; returns
    /// its index here.
    @discardableResult
    mutating func append(tagAt index: Int, of other: TagList) -> Int {
        let tag = other.tags[index]
        guard !tag.isEnd else {
            appendEnd()
            return tags.count - 1
        }
        let kept = other.attributeIndices(ofTagAt: index)
        if !kept.isEmpty {
            let from = other.valueRange(ofAttributeAt: kept.lowerBound).lowerBound
            let shift = bytes.count - from
            bytes.append(contentsOf: other.bytes[from..<other.attributes[kept.upperBound - 1].valueEnd])
            for attribute in other.attributes[kept] { attributes.append(Attribute(name: attribute.name, valueEnd: attribute.valueEnd + shift)) }
        }
        return appendStart(name: tag.name, line: tag.line)
    }

    /// Makes room for as many tags, attributes and bytes as `other` holds.
    mutating func reserveCapacity(like other: TagList) {
        tags.reserveCapacity(other.tags.count)
        attributes.reserveCapacity(other.attributes.count)
        bytes.reserveCapacity(other.bytes.count)
    }

    /// Empties the list, keeping its storage.
    mutating func removeAll() {
        tags.removeAll(keepingCapacity: true)
        attributes.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
    }

    /// The attributes of the tag at `index` as `String`s, names from `names`.
    func exportAttributes(ofTagAt index: Int, names: [String]) -> [ExportAttribute] {
        attributeIndices(ofTagAt: index).map { k in
            ExportAttribute(name: names[attributes[k].name], value: String(decoding: bytes[valueRange(ofAttributeAt: k)], as: UTF8.self))
        }
    }
}

/// Consecutive top-level elements of an export document, complete with their descendants,
/// as the parsing thread hands them to a mapping thread: their tags, the names the tags'
/// numbers stand for, and the points of the routes among them.
struct ParsedElements: Sendable {
    /// The tags, from the first element's start tag to the last one's end tag.
    var tags = TagList()
    /// The names by number (those the parser had met when the elements were handed on).
    var names: [String] = []
    /// The `Location` points of a `WorkoutRoute`, by the index of its start tag.
    var routePoints: [Int: RoutePoints] = [:]
    /// The number of top-level elements.
    var count = 0
    /// The export's date as of the first element (that of the last `ExportDate` before it).
    var exportDate: SampleDraft.Instant?

    /// An empty batch whose elements come after the export's date `exportDate`; with
    /// `reservingLike`, with room for as much as that batch holds.
    init(exportDate: SampleDraft.Instant?, reservingLike other: ParsedElements? = nil) {
        self.exportDate = exportDate
        if let other { tags.reserveCapacity(like: other.tags) }
    }
}

/// Makes ``ExportElement``s of ``ParsedElements`` on a mapping thread. Most values repeat
/// (a record's source, device, unit; its `endDate`, mostly its `startDate`): a value whose
/// bytes are those of the last value of the same attribute name, or of the tag's attribute
/// before, is that `String` again, not a new one.
struct ElementMaker {
    /// The last value of each attribute name, by its number.
    private var last: [String] = []

    /// Calls `body` with each top-level element of `parsed`, in document order, as it is
    /// made (no array of them, each copied out of it).
    mutating func forEachElement(of parsed: ParsedElements, _ body: (ExportElement) -> Void) {
        if last.count < parsed.names.count { last += repeatElement("", count: parsed.names.count - last.count) }
        var open: [ExportElement] = []
        let tags = parsed.tags
        tags.bytes.withUnsafeBufferPointer { bytes in
            for index in 0..<tags.count {
                let tag = tags[index]
                if tag.isEnd {
                    guard let element = open.popLast() else { continue }
                    if open.isEmpty {
                        body(element)
                    } else {
                        open[open.count - 1].children.append(element)
                    }
                    continue
                }
                var attributes: [ExportAttribute] = []
                let kept = tags.attributeIndices(ofTagAt: index)
                attributes.reserveCapacity(kept.count)
                for k in kept {
                    let name = tags.attributes[k].name
                    let value = UnsafeBufferPointer(rebasing: bytes[tags.valueRange(ofAttributeAt: k)])
                    attributes.append(ExportAttribute(name: parsed.names[name], value: string(value, name: name, after: attributes)))
                }
                var element = ExportElement(name: parsed.names[tag.name], attributes: attributes, line: tag.line)
                element.locationCount = tag.locationCount
                if !parsed.routePoints.isEmpty { element.routePoints = parsed.routePoints[index] }
                open.append(element)
            }
        }
    }

    /// The `String` of `value`, an attribute named by number `name`: the last value of that
    /// name, or that of the last of `before` (the tag's attributes so far), when the bytes
    /// are the same.
    private mutating func string(_ value: UnsafeBufferPointer<UInt8>, name: Int, after before: [ExportAttribute]) -> String {
        if Self.holds(last[name], value) { return last[name] }
        let made: String
        if let index = before.indices.last, Self.holds(before[index].value, value) {
            made = before[index].value
        } else {
            made = String(decoding: value, as: UTF8.self)
        }
        last[name] = made
        return made
    }

    /// Whether `text`'s UTF-8 bytes are `bytes`.
    private static func holds(_ text: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { $0.count == bytes.count && (bytes.isEmpty || memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0) } ?? false
    }
}

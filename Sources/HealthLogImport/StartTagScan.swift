#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLog

/// Counts the attributes of each start tag in the bytes before libxml2 parses them, so a
/// tag with more than ``ImportLimits/attributes`` is refused before libxml2 2.9's check for
/// repeated attributes, which compares each attribute with every one before it, runs on it.
/// The scan costs one pass over the bytes, so the import's cost stays linear in its input.
///
/// An attribute value cannot hold a literal `<`, so a start tag's attributes all lie
/// between its `<` and the next `<` of the input, each with one `=` outside quotes and
/// before the tag's `>`: those `=` signs bound the count from above (for a well-formed
/// tag, they are the count; an `=` in a value or in the text after the tag is not one;
/// where a quote is out of place, libxml2 stops reading the tag's attributes). Spans that
/// start a comment, a declaration, a processing instruction or an end tag (`<!`, `<?`,
/// `</`) are not counted. An entity's replacement text, where a start tag may be spelled
/// with character references (`&#60;`), is scanned on its own when the entity is declared
/// (``firstCrowdedTag(in:)``). A scan made with `refusingDeclarations` also stops at the
/// first markup declaration (`<!ENTITY`, `<!ATTLIST`, `<!ELEMENT`, `<!NOTATION`), for the
/// files beside the export document, whose reader cannot see an entity or attribute
/// default before libxml2 uses it.
struct StartTagScan {
    /// What the scan stops at.
    enum Finding: Equatable {
        /// A start tag with more than ``ImportLimits/attributes`` attributes.
        case crowded(CrowdedTag)
        /// A markup declaration, at its line, in a scan refusing them.
        case declaration(line: Int)
    }

    /// Whether a markup declaration is a ``Finding/declaration``.
    private let refusesDeclarations: Bool
    /// Whether the last bytes scanned were `<!` (the next byte says what it starts).
    private var afterBang = false
    /// The `=` signs of the span being counted.
    private var equals = 0
    /// Whether the span since the last `<` is a start tag's, up to its `>`.
    private var counting = false
    /// The quote that opened the attribute value being scanned, or 0 outside a value.
    private var quote: UInt8 = 0
    /// Whether the last byte scanned was a `<` (the next byte says what it starts).
    private var afterLessThan = false
    /// The line the scan has reached (1-based).
    private var line = 1
    /// The line of the last `<`.
    private var tagLine = 1
    /// The first bytes of the name of the start tag being counted.
    private var name: [UInt8] = []
    /// Whether the bytes scanned are still the start tag's name.
    private var readingName = false
    /// The most bytes of a name kept for a message.
    private static let nameBytes = 64

    /// A scan of an input from its start; `refusingDeclarations` stops it at a markup
    /// declaration.
    init(refusingDeclarations: Bool = false) {
        refusesDeclarations = refusingDeclarations
    }

    /// A start tag refused: its line and name.
    struct CrowdedTag: Equatable {
        /// The line of the tag's `<` (1-based, in the bytes scanned).
        var line: Int
        /// The tag's name (its first 64 bytes).
        var element: String
    }

    /// Scans the next `bytes` of the input; returns the first start tag with more than
    /// ``ImportLimits/attributes`` attributes (or declaration refused), or `nil`.
    mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Finding? {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        let count = bytes.count
        var at = 0
        while at < count {
            if afterLessThan {
                let byte = base[at]
                counting = byte != 0x21 && byte != 0x3F && byte != 0x2F
                readingName = counting
                name.removeAll(keepingCapacity: true)
                afterLessThan = false
                if refusesDeclarations, byte == 0x21 {
                    afterBang = true
                    at += 1
                    continue
                }
            }
            if afterBang {
                afterBang = false
                let byte = base[at]
                if byte == 0x45 || byte == 0x41 || byte == 0x4E { return .declaration(line: tagLine) }
            }
            let next = memchr(base + at, 0x3C, count - at).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? count
            if readingName { readName(base, from: at, to: next) }
            if counting {
                equals += countSigns(base, from: at, to: next)
                if equals > ImportLimits.attributes { return .crowded(CrowdedTag(line: tagLine, element: String(decoding: name, as: UTF8.self))) }
            }
            line += Self.newlines(base, from: at, to: next)
            if next < count {
                equals = 0
                quote = 0
                counting = false
                afterLessThan = true
                tagLine = line
            }
            at = next + 1
        }
        return nil
    }

    /// The `=` signs outside quotes among `base[from..<to]`, up to the start tag's `>`
    /// (which ends ``counting``); a quoted value is skipped whole with `memchr`, since most
    /// of a start tag's bytes are its values.
    private mutating func countSigns(_ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int {
        var signs = 0
        var k = from
        while k < to {
            if quote != 0 {
                guard let closing = memchr(base + k, Int32(quote), to - k) else { break }
                k = UnsafeRawPointer(closing) - UnsafeRawPointer(base) + 1
                quote = 0
                continue
            }
            let byte = base[k]
            k += 1
            // Most bytes outside values are a name's letters or a blank: one comparison each.
            if byte > 0x3E || byte == 0x20 { continue }
            if byte == 0x22 || byte == 0x27 {
                quote = byte
            } else if byte == 0x3D {
                signs += 1
            } else if byte == 0x3E {
                counting = false
                break
            }
        }
        return signs
    }

    /// The newlines among `base[from..<to]`.
    private static func newlines(_ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int {
        var count = 0
        var k = from
        while k < to, let found = memchr(base + k, 0x0A, to - k) {
            count += 1
            k = UnsafeRawPointer(found) - UnsafeRawPointer(base) + 1
        }
        return count
    }

    /// Keeps the name bytes among the `base[from..<to]`, up to the first byte that ends a name
    /// (found first, then kept at once).
    private mutating func readName(_ base: UnsafePointer<UInt8>, from: Int, to: Int) {
        var end = from
        while end < to {
            let byte = base[end]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x2F || byte == 0x3E || byte == 0x3D {
                readingName = false
                break
            }
            end += 1
        }
        let kept = min(end - from, Self.nameBytes - name.count)
        if kept > 0 { name.append(contentsOf: UnsafeBufferPointer(start: base + from, count: kept)) }
    }

    /// The first start tag in `text` (all of it, e.g. an entity's replacement text) with
    /// more than ``ImportLimits/attributes`` attributes, or `nil`.
    static func firstCrowdedTag(in text: UnsafeRawBufferPointer) -> CrowdedTag? {
        var scan = StartTagScan()
        guard case .crowded(let tag)? = scan.scan(text) else { return nil }
        return tag
    }

    /// The error for `finding` in `document`.
    static func refusal(_ document: String, _ finding: Finding) -> HealthLogError {
        switch finding {
        case .crowded(let tag):
            HealthLogError(
                .badInput, "\(document): line \(tag.line): element \(tag.element) has more than \(ImportLimits.attributes) attributes, the most the import reads on one element")
        case .declaration(let line):
            HealthLogError(.badInput, "\(document): line \(line): a DTD declaration (<!ENTITY, <!ATTLIST, …), which the import does not read in this file")
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bounds an import keeps on any input, so a hostile export costs bounded time and
/// memory: how deep elements nest, how many attributes, attribute defaults and namespace
/// declarations libxml2 compares one by one, how many distinct names it keeps, how much
/// text entity references expand to,
/// and how large a file read from a zip may unpack. The zip bounds can be lowered for tests with
/// `HEALTHLOG_IMPORT_ENTRY_BYTES`, `HEALTHLOG_IMPORT_DOCUMENT_BYTES` and
/// `HEALTHLOG_IMPORT_RATIO_FLOOR` (bytes).
enum ImportLimits {
    /// The deepest an element may be nested (the root is at depth 1). Apple Health exports
    /// nest five deep at most.
    static let depth = 256
    /// The most attributes one element may have (``StartTagScan``). Apple Health exports
    /// give an element twenty at most.
    static let attributes = 1000
    /// The most attribute defaults (`<!ATTLIST e a CDATA "x">`) a document's DTD may
    /// declare: libxml2 adds each to every start tag of its element, comparing it with
    /// every attribute before it. Apple Health exports declare none.
    static let attributeDefaults = 32
    /// The most namespace declarations in scope at one element: libxml2 looks a prefix up
    /// by comparing it with each of them. Apple Health exports declare none.
    static let namespaces = 64
    /// The most distinct element and attribute names a document may use: libxml2 keeps
    /// every name in a dictionary whose look-ups slow down as it fills (a million distinct
    /// names take `xmllint` over a minute), and the import counts elements by name. Apple
    /// Health exports use under a hundred.
    static let names = 10_000
    /// The most bytes one attribute value may expand to through entity references.
    static let expandedValueBytes = 1 << 20
    /// The most bytes entity references may expand to in one document, all values together.
    static let expandedDocumentBytes = 64 << 20
    /// The most entities one reference may pass through (an entity naming an entity …).
    static let entityNesting = 40
    /// The most bytes a file read from a zip beside the export document (a route, an
    /// electrocardiogram, a clinical record) may unpack to: 512 MiB.
    static let entryBytes = environment("HEALTHLOG_IMPORT_ENTRY_BYTES") ?? 512 << 20
    /// The most bytes the export document in a zip may unpack to: 64 GiB (it is read as a
    /// stream, so its size costs time, not memory).
    static let documentBytes = environment("HEALTHLOG_IMPORT_DOCUMENT_BYTES") ?? 64 << 30
    /// How many times its compressed size a file read from a zip may unpack to, once it
    /// has unpacked to more than ``ratioFloor``.
    static let ratio = 100
    /// The unpacked size below which a zip entry's ratio is not checked: 32 MiB.
    static let ratioFloor = environment("HEALTHLOG_IMPORT_RATIO_FLOOR") ?? 32 << 20

    /// The positive whole number the environment variable `name` holds.
    private static func environment(_ name: String) -> Int? {
        getenv(name).flatMap { Int(String(cString: $0)) }.flatMap { $0 > 0 ? $0 : nil }
    }

    /// `bytes` for a message: whole MiB or GiB when it is one, else bytes.
    static func describe(_ bytes: Int) -> String {
        if bytes >= 1 << 30, bytes % (1 << 30) == 0 { return "\(bytes >> 30) GiB" }
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        return "\(bytes) bytes"
    }
}

import Testing
@testable import HealthLog

/// ``ByteSearch``: a metadata key found in a stored line wherever it is, and only when all
/// of it is there.
@Suite("Byte search")
struct ByteSearchTests {
    /// Whether `needle` occurs in `text`, searched as bytes.
    static func found(_ needle: String, in text: String) -> Bool {
        Array(text.utf8).withUnsafeBytes { ByteSearch.contains(Array(needle.utf8), in: $0) }
    }

    @Test("Found at the start, in the middle and at the very end; not when cut short, changed or longer than the text")
    func occurrences() {
        let key = #""HKMetadataKeySyncIdentifier""#
        #expect(Self.found(key, in: key + #":"a"}"#))
        #expect(Self.found(key, in: #"{"type":"x","metadata":{"# + key))
        #expect(Self.found(key, in: #"{"metadata":{"HKMetadataKeySync":1,"# + key + #":"a"}}"#), "after a near miss")
        #expect(!Self.found(key, in: #"{"metadata":{"HKMetadataKeySyncIdentifie":"a"}}"#))
        #expect(!Self.found(key, in: #"{"metadata":{"HKMetadataKeySyncVersion":1}}"#))
        #expect(!Self.found(key, in: String(key.dropLast())))
        #expect(!Self.found("ab", in: ""))
        #expect(Self.found("", in: "anything"))
    }
}

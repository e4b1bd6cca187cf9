import Testing
@testable import HealthLog

/// The parser tells a key that is exactly a field's name without scanning it as a string
/// (``Field/atKey(_:)``); every other key goes through the general scan and
/// ``Field/init(_:_:)``. Both must name the same field, or none, for any key.
@Suite("Field keys")
struct FieldKeyTests {
    /// What each path makes of the key token `key` (JSON text, quotes included) followed by
    /// a value and `padding` more bytes of the line: the fast path's field and where it left
    /// the scanner, and the general path's field.
    static func paths(_ key: String, padding: Int = 16) throws -> (fast: Field?, fastEnd: Int, general: Field?) {
        let bytes = Array((key + ":0" + String(repeating: " ", count: padding)).utf8)
        return try bytes.withUnsafeBytes { raw in
            var fast = JSONScanner(raw)
            let known = Field.atKey(&fast)
            var general = JSONScanner(raw)
            let token = try general.string()
            return (known, fast.position, Field(general, token.range))
        }
    }

    @Test("Every field's name is told by the fast path, which consumes exactly its token", arguments: Field.allCases)
    func everyName(_ field: Field) throws {
        let key = "\"\(field.name)\""
        let found = try Self.paths(key)
        #expect(found.fast == field && found.general == field)
        #expect(found.fastEnd == key.utf8.count)
        let blanks = try Self.paths("  \t" + key)
        #expect(blanks.fast == field && blanks.fastEnd == key.utf8.count + 3)
        let nearTheEnd = try Self.paths(key, padding: 0)
        #expect(nearTheEnd.general == field)
        #expect(nearTheEnd.fast == nil || (nearTheEnd.fast == field && nearTheEnd.fastEnd == key.utf8.count))
    }

    @Test("Near misses are no field on either path, and the fast path consumes no key", arguments: [
        #""typ""#, #""types""#, #""Type""#, #""uuiD""#, #""unid""#, #""\u0074ype""#, #""ty\"pe""#, #""""#,
        #""sourceversion""#, #""sourceVersions""#, #""o""#, #""seqq""#, #""metadatA""#, #""durations""#, #""é""#,
    ])
    func nearMisses(_ key: String) throws {
        let found = try Self.paths(key)
        #expect(found.fast == nil && found.general == nil)
        #expect(found.fastEnd == 0)
    }

    @Test("A line whose keys take either path parses to the same event")
    func sameEvent() throws {
        let plain = #"{"op":"add","uuid":"8372AFED-5A23-4BC2-B05C-93BC2983C8A4","type":"HKQuantityTypeIdentifierHeartRate","start":"2019-09-01T00:03:06Z","value":75,"unit":"count/min"}"#
        let bytes = Array(plain.utf8)
        let event = try bytes.withUnsafeBytes { try EventLineParser.parse($0) }
        #expect(event.uuid == SampleUUID("8372AFED-5A23-4BC2-B05C-93BC2983C8A4"))
        #expect(event.start != nil && event.unit != nil && event.value != nil && event.kind != nil)
        let unknown = #"{"op":"add","typo":1}"#
        let error = try #require(throws: FieldError.self) { try Array(unknown.utf8).withUnsafeBytes { try EventLineParser.parse($0) } }
        #expect(error.field == "typo" && error.reason == "unknown field")
    }
}

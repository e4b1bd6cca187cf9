import HealthLog
import Testing

@testable import HealthLogImport

/// The import's shortcuts on its hot path give what the general code they stand in for
/// gives: JSON string literals and integers written as bytes, dates of the usual format
/// computed from their fields with a remembered day, metadata strings kept unquoted.
@Suite("Import: hot-path shortcuts")
struct ImportHotPathTests {
    /// `text` through ``JSONBytes/appendString(_:to:)``, as a String.
    static func literal(_ text: String) -> String {
        var out: [UInt8] = []
        JSONBytes.appendString(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    @Test("Every byte value at every place of texts up to 40 bytes gives JSONText.string's literal, and the escape check finds it")
    func stringLiterals() {
        for length in 0...40 {
            for at in 0..<max(1, length) {
                for special: UInt8 in [0x00, 0x01, 0x09, 0x0A, 0x0D, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7F, 0x80] {
                    var bytes = [UInt8](repeating: 0x61, count: length)
                    if length > 0 { bytes[at] = special }
                    let text = String(decoding: bytes, as: UTF8.self)
                    #expect(Self.literal(text) == JSONText.string(text))
                    let escapes = length > 0 && (special < 0x20 || special == 0x22 || special == 0x5C)
                    #expect(bytes.withUnsafeBufferPointer { JSONBytes.needsEscaping($0) } == escapes)
                }
            }
        }
        for text in ["", "Apple Watch von Jörg", "naïve 🫀 \"quoted\" back\\slash", "tab\there\nnewline\r\u{1}", String(repeating: "é", count: 33)] {
            #expect(Self.literal(text) == JSONText.string(text))
        }
    }

    @Test("Integers are spelled as String spells them, the extremes included")
    func integers() {
        var values: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, Int64.max, Int64.min, Int64.min + 1, 1_567_324_800_000_000, -62_135_596_800_000_000]
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2_000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            values.append(Int64(bitPattern: seed) >> (seed % 60))
        }
        for value in values {
            var out: [UInt8] = []
            JSONBytes.appendInteger(value, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == String(value))
        }
    }

    @Test("Dates of the usual format computed with a remembered day are those parsed in full; what the parser refuses stays refused")
    func dates() {
        var texts = [
            "2019-09-01 08:00:00 +0100", "2019-09-01 23:59:59 -1200", "2019-09-02 00:00:00 +0000", "2020-02-29 12:00:00 +0530",
            "2019-02-29 12:00:00 +0100", "2019-13-01 08:00:00 +0100", "2019-09-31 08:00:00 +0100", "2019-09-01 24:00:00 +0100",
            "2019-09-01 08:60:00 +0100", "2019-09-01 08:00:60 +0100", "2019-09-01 08:00:00 +2400", "2019-09-01 08:00:00 +0160",
            "2019-09-01 08:00:00 *0100", "2019-09-01 08:0a:00 +0100", "2019-09-01 08:00:00 +01:0", "2019/09/01 08:00:00 +0100",
            "0001-01-01 00:00:00 +0000", "1969-12-31 23:59:59 -0100", "9999-12-31 23:59:59 +1400", "20151107171924+0100", "2019-09-01",
            "2019-00-01 08:00:00 +0100", "2019-09-00 08:00:00 +0100", "2019-09-01T08:00:00 +0100",
        ]
        var seed: UInt64 = 7
        for _ in 0..<3_000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let field = { (range: Int) -> Int in
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Int((seed >> 33) % UInt64(range))
            }
            let pad = { (value: Int, width: Int) in String(repeating: "0", count: max(0, width - String(value).count)) + String(value) }
            let text = "\(pad(1960 + field(80), 4))-\(pad(1 + field(12), 2))-\(pad(1 + field(31), 2)) \(pad(field(25), 2)):\(pad(field(61), 2)):\(pad(field(61), 2)) \(field(2) == 0 ? "+" : "-")\(pad(field(25), 2))\(pad(field(61), 2))"
            texts.append(text)
            texts.append(text)  // the same day again: from the remembered day
        }
        let days = ExportDays()
        for text in texts {
            let fast = ExportDateFormat.instant(text, days: days)
            let full = ExportDateFormat.instant(text)
            #expect(fast?.iso == full?.iso, "\(text)")
            #expect(fast?.instant == full?.instant, "\(text)")
        }
    }

    @Test("A metadata string kept unquoted renders as its quoted JSON would, and a key given again is a conflict exactly when the values' JSON differs")
    func metadataText() {
        let start = ExportDateFormat.instant("2019-09-01 08:00:00 +0100")!
        var quoted = SampleDraft(type: "HKQuantityTypeIdentifierHeartRate", start: start, end: start)
        var text = quoted
        for (key, value) in [("b", "x\"y"), ("a", "1"), ("HealthLogImport", "marker's key"), ("b", "x\"y"), ("a", "2"), ("c", "tab\t")] {
            quoted.addMetadata(key, json: JSONText.string(value))
            text.addMetadata(key, text: value)
        }
        text.addMetadata("c", json: JSONText.string("tab\t"))
        quoted.addMetadata("c", json: JSONText.string("tab\t"))
        text.addMetadata("c", json: "3")
        quoted.addMetadata("c", json: "3")
        let marker = Array("\"2019-09-02T00:00:00+01:00\"".utf8)
        #expect(text.render(uuid: SampleUUID(high: 1, low: 2), marker: marker) == quoted.render(uuid: SampleUUID(high: 1, low: 2), marker: marker))
        #expect(text.render(uuid: nil, marker: nil) == quoted.render(uuid: nil, marker: nil))
        #expect(text.conflicts == ["a", "c"])
        #expect(quoted.conflicts == text.conflicts)
    }

    @Test("A line rendered into the mapping thread's kept buffer is the bytes rendered into an array, through the buffer's growth and after it is emptied")
    func lineSink() {
        let start = ExportDateFormat.instant("2019-09-01 08:00:00 +0100")!
        var draft = SampleDraft(type: "HKQuantityTypeIdentifierHeartRate", start: start, end: start)
        draft.source = "Watch \"quoted\"\tand tabbed"
        let sink = LineSink(capacity: 64)
        for entries in [0, 3, 40, 2] {
            for k in 0..<entries { draft.addMetadata("key\(k)", text: String(repeating: "v", count: k * 7)) }
            var array: [UInt8] = []
            draft.render(uuid: SampleUUID(high: 7, low: 9), marker: Array("true".utf8), into: &array)
            var kept = sink
            kept.removeAll()
            draft.render(uuid: SampleUUID(high: 7, low: 9), marker: Array("true".utf8), into: &kept)
            #expect(Array(sink.bytes) == array, "\(entries) entries")
            #expect(sink.array(appending: 0x0A) == array + [0x0A])
        }
        // The canonical form hashed from the kept buffer is the one rendered into an array.
        var canonical = SampleDraft.hashDomain
        draft.render(uuid: nil, marker: nil, into: &canonical)
        let hash = SHA256()
        hash.update(canonical)
        let (high, low) = hash.finalizeFirst128Bits()
        let uuid = draft.contentUUID(LineWorkspace())
        #expect(uuid.high & 0xFFFF_FFFF_FFFF_0FFF == high & 0xFFFF_FFFF_FFFF_0FFF && uuid.low & 0x3FFF_FFFF_FFFF_FFFF == low & 0x3FFF_FFFF_FFFF_FFFF)
    }
}

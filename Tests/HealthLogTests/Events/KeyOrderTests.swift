import Foundation
import Testing
@testable import HealthLog

/// The parser compares each key first with the key the line before had at that place
/// (``TokenMemo/expectedField(_:in:)``); whatever the line before was, a line must parse to
/// exactly what a parse without a memo gives, the same event or the same error (line,
/// field, reason).
@Suite("Key order of the line before")
struct KeyOrderTests {
    static let full = TokenMemoTests.full
    /// ``full`` without its metadata, as most lines of an export follow one with it.
    static let plain = full.replacingOccurrences(of: #","metadata":{"HKMetadataKeyHeartRateMotionContext":1}"#, with: "")

    @Test("After a line, each key of a line in its order is taken from the memo, its colon consumed")
    func takesKeysInOrder() throws {
        let memo = TokenMemo()
        _ = TokenMemoTests.outcome(Self.full, memo: memo)
        let bytes = Array(Self.full.utf8)
        bytes.withUnsafeBytes { raw in
            var s = JSONScanner(raw)
            s.position = 1
            #expect(memo.expectedField(0, in: &s) == .op && s.position == 6)
            s.position = 12
            #expect(memo.expectedField(1, in: &s) == .uuid && s.position == 19)
            // Not the key at another place, nor one with a blank before it.
            s.position = 12
            #expect(memo.expectedField(2, in: &s) == nil && s.position == 12)
            s.position = 11
            #expect(memo.expectedField(1, in: &s) == nil && s.position == 11)
            // Not past the keys the line had.
            s.position = 1
            #expect(memo.expectedField(11, in: &s) == nil)
        }
    }

    @Test("A line parses as without the memo after a line whose keys came otherwise", arguments: [
        // Keys in another order, fewer keys, more keys.
        (full, full.replacingOccurrences(of: #""start":"2019-09-01T00:03:06Z","end":"2019-09-01T00:03:06Z""#, with: #""end":"2019-09-01T00:03:06Z","start":"2019-09-01T00:03:06Z""#)),
        (full, plain),
        (plain, full),
        (plain, plain.replacingOccurrences(of: #"{"op":"add","#, with: "{")),
        (plain.replacingOccurrences(of: #"{"op":"add","#, with: "{"), plain),
        // Blanks before a key or its colon, a key with an escape, a key spelled longer.
        (full, full.replacingOccurrences(of: #","type":"#, with: #", "type":"#)),
        (full, full.replacingOccurrences(of: #","type":"#, with: #","type" :"#)),
        (full, full.replacingOccurrences(of: #","type":"#, with: #","\u0074ype":"#)),
        (full, full.replacingOccurrences(of: #","type":"#, with: #","types":"#)),
        (full, full.replacingOccurrences(of: #","unit":"#, with: #","unitx":"#)),
    ])
    func otherOrder(_ before: String, _ line: String) {
        let memo = TokenMemo()
        _ = TokenMemoTests.outcome(before, memo: memo)
        #expect(TokenMemoTests.outcome(line, memo: memo) == TokenMemoTests.outcome(line, memo: nil))
        #expect(TokenMemoTests.outcome(line, memo: memo) == TokenMemoTests.outcome(line, memo: nil))
    }

    @Test("A repeated key is refused as a repeat where the line before had it once", arguments: [
        full.replacingOccurrences(of: #","uuid":"#, with: #","op":"add","uuid":"#),
        full.replacingOccurrences(of: #","value":75"#, with: #","value":75,"value":75"#),
        full.replacingOccurrences(of: #","metadata":"#, with: #","type":"HKQuantityTypeIdentifierHeartRate","metadata":"#),
        full.replacingOccurrences(of: "}}", with: #"},"metadata":{}}"#),
    ])
    func repeatedKey(_ line: String) {
        let memo = TokenMemo()
        _ = TokenMemoTests.outcome(Self.full, memo: memo)
        let memoized = TokenMemoTests.outcome(line, memo: memo)
        #expect(memoized == TokenMemoTests.outcome(line, memo: nil))
        #expect(memoized.hasSuffix("field appears twice"))
    }

    @Test("A failing line after lines in the memo's order fails as alone", arguments: [
        full.replacingOccurrences(of: #""start":"2019-09-01T00:03:06Z""#, with: #""start":"2019-09-01T00:03:06""#),
        full.replacingOccurrences(of: #","unit":"#, with: #","units":"#),
        full.replacingOccurrences(of: #""value":75"#, with: #""value":"75"#),
        full.replacingOccurrences(of: ",\"source\"", with: ",,\"source\""),
        full.replacingOccurrences(of: "}}", with: "}"),
        full.replacingOccurrences(of: "}}", with: "}} x"),
        String(full.prefix(200)),
        full.replacingOccurrences(of: #""end":"2019-09-01T00:03:06Z""#, with: #""end":"2019-09-01T00:03:05Z""#),
    ])
    func failingAfterFastLines(_ line: String) throws {
        let input = Array((Self.full + "\n" + Self.full + "\n" + line + "\n" + Self.full + "\n").utf8)
        let prepared = LinePreparer.prepare(LineChunk(storage: .bytes(input), range: 0..<input.count), into: PreparedChunk(checker: InputChecker(importing: false)))
        #expect(prepared.events.count == 2)
        let failure = try #require(prepared.failure)
        #expect(failure.index == 2)
        guard case .field(let error) = failure.reason else {
            Issue.record("the line failed as too long")
            return
        }
        #expect("error \(error.field ?? "-"): \(error.reason)" == TokenMemoTests.outcome(line, memo: nil))
    }
}

import Foundation
import Testing
@testable import HealthLog

/// The parser takes value tokens equal to ones it scanned on the lines before from a
/// ``TokenMemo``; a parse with a memo must give exactly what a parse without one gives,
/// the same event or the same error, however the lines before primed it.
@Suite("Token memo")
struct TokenMemoTests {
    /// A line every memoized field of which is given: type, instants, unit, source,
    /// sourceVersion, device and metadata.
    static let full = #"{"op":"add","uuid":"8372AFED-5A23-4BC2-B05C-93BC2983C8A4","type":"HKQuantityTypeIdentifierHeartRate","start":"2019-09-01T00:03:06Z","end":"2019-09-01T00:03:06Z","value":75,"unit":"count/min","source":"Apple Watch","sourceVersion":"7.0","device":"<<HKDevice>, name:Apple Watch>","metadata":{"HKMetadataKeyHeartRateMotionContext":1}}"#

    /// What parsing `line` gives: the event's every field, or the error's field and reason.
    static func outcome(_ line: String, memo: TokenMemo?) -> String {
        do {
            let event = try Array(line.utf8).withUnsafeBytes { try EventLineParser.parse($0, memo: memo) }
            return String(describing: event) + " \(String(describing: event.start)) \(String(describing: event.end))"
        } catch let error as FieldError {
            return "error \(error.field ?? "-"): \(error.reason)"
        } catch {
            return "error \(error)"
        }
    }

    @Test("Lines after a primed memo parse as without it", arguments: [
        full,
        // The same tokens elsewhere in the line, blanks around them, other values.
        full.replacingOccurrences(of: #""unit":"count/min""#, with: #""unit": "count/min" "#),
        full.replacingOccurrences(of: "00:03:06Z\",\"value", with: "00:04:06Z\",\"value"),
        full.replacingOccurrences(of: #"{"HKMetadataKeyHeartRateMotionContext":1}"#, with: #"{"HKMetadataKeySyncIdentifier":"a","HKMetadataKeySyncVersion":2}"#),
        // A remembered token's bytes followed by more of a string, or cut short.
        full.replacingOccurrences(of: #""Apple Watch","sourceVersion""#, with: #""Apple Watch"x,"sourceVersion""#),
        String(full.prefix(upTo: full.range(of: "HeartRate\"")!.upperBound)),
        full.replacingOccurrences(of: #"Watch>""#, with: #"Watch>"#),
        // Tokens the memo holds, in fields where they are wrong.
        full.replacingOccurrences(of: #""unit":"count/min""#, with: #""unit":"2019-09-01T00:03:06Z""#),
        full.replacingOccurrences(of: #""start":"2019-09-01T00:03:06Z""#, with: #""start":"count/min""#),
        full.replacingOccurrences(of: #""type":"HKQuantityTypeIdentifierHeartRate""#, with: #""type":"Apple Watch""#),
        full.replacingOccurrences(of: #""source":"Apple Watch""#, with: #""source":{"HKMetadataKeyHeartRateMotionContext":1}"#),
        // A repeated field, an end before its start, a delete.
        full.replacingOccurrences(of: #","value":75"#, with: #","device":"<<HKDevice>, name:Apple Watch>","value":75"#),
        full.replacingOccurrences(of: #""end":"2019-09-01T00:03:06Z""#, with: #""end":"2019-09-01T00:03:05Z""#),
        #"{"op":"delete","uuid":"8372AFED-5A23-4BC2-B05C-93BC2983C8A4","type":"HKQuantityTypeIdentifierHeartRate"}"#,
    ])
    func sameOutcome(_ line: String) {
        let memo = TokenMemo()
        _ = Self.outcome(Self.full, memo: memo)
        #expect(Self.outcome(line, memo: memo) == Self.outcome(line, memo: nil))
        #expect(Self.outcome(line, memo: memo) == Self.outcome(line, memo: nil))
    }

    @Test("A primed memo holds the line's tokens, so a second parse finds each")
    func remembers() throws {
        let memo = TokenMemo()
        _ = Self.outcome(Self.full, memo: memo)
        let bytes = Array(Self.full.utf8)
        try bytes.withUnsafeBytes { raw in
            let event = try EventLineParser.parse(raw)
            let type = try #require(event.type)
            #expect(memo.match(.type, raw, at: type.lowerBound - 1).map(memo.kind) == .quantity)
            let start = try #require(event.startToken)
            let instant = try #require(memo.match(.instant, raw, at: start.lowerBound))
            #expect(memo.instant(instant) == event.start && memo.length(instant) == start.count)
            #expect(memo.match(.device, raw, at: try #require(event.device).lowerBound) != nil)
            #expect(memo.match(.metadata, raw, at: try #require(event.metadata).lowerBound) != nil)
            // Not the UUID, nor a token of another slot.
            #expect(memo.match(.unit, raw, at: try #require(event.uuidToken).lowerBound) == nil)
            #expect(memo.match(.source, raw, at: try #require(event.device).lowerBound) == nil)
        }
    }

    @Test("Metadata with the sync keys is never remembered: its parse sets the sync fields")
    func syncMetadata() throws {
        let line = Self.full.replacingOccurrences(of: #"{"HKMetadataKeyHeartRateMotionContext":1}"#, with: #"{"HKMetadataKeySyncIdentifier":"a","HKMetadataKeySyncVersion":2}"#)
        let memo = TokenMemo()
        _ = Self.outcome(line, memo: memo)
        let bytes = Array(line.utf8)
        try bytes.withUnsafeBytes { raw in
            let event = try EventLineParser.parse(raw, memo: memo)
            #expect(event.syncVersion == 2 && event.syncIdentifier != nil)
            #expect(memo.match(.metadata, raw, at: try #require(event.metadata).lowerBound) == nil)
        }
    }
}

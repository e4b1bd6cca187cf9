import HealthLogTestSupport
import Testing
@testable import HealthLog

/// ``StoredLineDecoder`` reads the common stored lines without the general parser; what it
/// returns must be exactly what ``EventRecord`` and ``SampleDecoder`` make of the same line,
/// and it must leave to them every line it cannot read with certainty (other kinds, blanks,
/// fields out of order, lines the rules refuse), however the memo was primed by the lines
/// before.
@Suite("Stored line decoder")
struct StoredLineDecoderTests {
    /// What the general path makes of `line`: the sample or deleted object, or `nil` when
    /// it reports the line as damaged.
    static func general(_ line: [UInt8], memo: inout RecordMemo) -> StoredLineDecoder.Item? {
        line.withUnsafeBytes { raw in
            guard let record = try? EventRecord(line: raw, seq: 1, memo: &memo, location: "test") else { return nil }
            return record.isDelete ? .deleted(SampleDecoder.deletedObject(record)) : .added(SampleDecoder.sample(record))
        }
    }

    /// Whether two items are the same value, down to the sign of a zero.
    static func same(_ a: StoredLineDecoder.Item, _ b: StoredLineDecoder.Item) -> Bool {
        switch (a, b) {
        case (.deleted(let x), .deleted(let y)):
            return x == y
        case (.added(let x), .added(let y)):
            guard let x = x as? AnyHashable, let y = y as? AnyHashable, x == y else { return false }
            if let p = x.base as? QuantitySample, let q = y.base as? QuantitySample {
                return p.quantity.value.bitPattern == q.quantity.value.bitPattern
            }
            if let p = x.base as? OtherSample, let q = y.base as? OtherSample, case .number(let u)? = p.value, case .number(let v)? = q.value {
                return u.bitPattern == v.bitPattern
            }
            return true
        default:
            return false
        }
    }

    @Test("Random stored lines decode as the general path decodes them", arguments: [1, 2, 3, 4] as [UInt64])
    func agreesWithGeneralPath(seed: UInt64) {
        var random = SeededRandom(state: seed)
        var fastMemo = RecordMemo()
        var generalMemo = RecordMemo()
        var read = 0
        var kinds: Set<String> = []
        for _ in 0..<3000 {
            let (text, canonical) = StoredLineMaker.line(&random)
            let line = Array(text.utf8)
            let expected = Self.general(line, memo: &generalMemo)
            let fast = line.withUnsafeBytes { StoredLineDecoder.item($0, memo: &fastMemo) }
            guard let fast else {
                // The decoder leaves the line to the general path, which fills the memo as it
                // does when a query collects the line.
                _ = Self.general(line, memo: &fastMemo)
                #expect(!canonical || expected == nil, "a common stored line was not read: \(text)")
                continue
            }
            guard let expected else {
                Issue.record("read a line the general path refuses: \(text)")
                continue
            }
            #expect(Self.same(fast, expected), "\(text)")
            read += 1
            if case .added(let sample) = fast { kinds.insert("\(type(of: sample))") } else { kinds.insert("delete") }
        }
        // Most lines are of the shapes it reads, so the comparison covers every kind it returns.
        #expect(read > 1500)
        #expect(kinds == ["QuantitySample", "CategorySample", "OtherSample", "delete"])
    }

    @Test("Lines it does not read are left to the general path", arguments: [
        // A blank between tokens, a field out of order, a field the decoder does not read.
        #"{"seq":1,"op":"add","uuid":"8372AFED-5A23-4BC2-B05C-93BC2983C8A4","type":"HKQuantityTypeIdentifierHeartRate","start":"2019-09-01T00:03:06Z","end":"2019-09-01T00:03:06Z","value": 75,"unit":"count/min"}"#,
        #"{"seq":1,"op":"add","uuid":"8372AFED-5A23-4BC2-B05C-93BC2983C8A4","type":"HKQuantityTypeIdentifierHeartRate","start":"2019-09-01T00:03:06Z","end":"2019-09-01T00:03:06Z","unit":"count/min","value":75}"#,
        #"{"seq":1,"op":"add","uuid":"8372AFED-5A23-4BC2-B05C-93BC2983C8A4","type":"HKWorkoutTypeIdentifier","start":"2019-09-01T00:03:06Z","end":"2019-09-01T00:33:06Z","activity":"HKWorkoutActivityTypeRunning"}"#,
        // Lines the rules refuse: a unit on a category, an end before the start, a fraction
        // for a category, a quantity without a unit, a value on a delete, a sync identifier
        // without a version, a leading zero in the sequence number.
        #"{"seq":1,"op":"add","uuid":"8372AFED-5A23-4BC2-B05C-93BC2983C8A4","type":"HKCategoryTypeIdentifierSleepAnalysis","start":"2019-09-01T00:03:06Z","end":"2019-09-01T00:03:06Z","value":1,"unit":"count"}"#,
        #"{"seq":1,"op":"add","uuid":"8372AFED-5A23-4BC2-B05C-93BC2983C8A4","type":"HKQuantityTypeIdentifierHeartRate","start":"2019-09-01T00:03:06Z","end":"2019-09-01T00:03:05Z","value":75,"unit":"count/min"}"#,
        #"{"seq":1,"op":"add","uuid":"8372AFED-5A23-4BC2-B05C-93BC2983C8A4","type":"HKCategoryTypeIdentifierSleepAnalysis","start":"2019-09-01T00:03:06Z","end":"2019-09-01T00:03:06Z","value":1.5}"#,
        #"{"seq":1,"op":"add","uuid":"8372AFED-5A23-4BC2-B05C-93BC2983C8A4","type":"HKQuantityTypeIdentifierHeartRate","start":"2019-09-01T00:03:06Z","end":"2019-09-01T00:03:06Z","value":75}"#,
        #"{"seq":1,"op":"delete","uuid":"8372AFED-5A23-4BC2-B05C-93BC2983C8A4","type":"HKQuantityTypeIdentifierHeartRate","start":"2019-09-01T00:03:06Z","end":"2019-09-01T00:03:06Z","value":75}"#,
        #"{"seq":1,"op":"add","uuid":"8372AFED-5A23-4BC2-B05C-93BC2983C8A4","type":"HKQuantityTypeIdentifierHeartRate","start":"2019-09-01T00:03:06Z","end":"2019-09-01T00:03:06Z","value":75,"unit":"count/min","metadata":{"HKMetadataKeySyncIdentifier":"a"}}"#,
        #"{"seq":01,"op":"add","uuid":"8372AFED-5A23-4BC2-B05C-93BC2983C8A4","type":"HKQuantityTypeIdentifierHeartRate","start":"2019-09-01T00:03:06Z","end":"2019-09-01T00:03:06Z","value":75,"unit":"count/min"}"#,
    ])
    func leavesOtherLines(_ text: String) {
        var memo = RecordMemo()
        // The memo holds the tokens of a line that reads, so a match there proves nothing.
        let primer = Array(#"{"seq":1,"op":"add","uuid":"8372AFED-5A23-4BC2-B05C-93BC2983C8A4","type":"HKQuantityTypeIdentifierHeartRate","start":"2019-09-01T00:03:06Z","end":"2019-09-01T00:03:06Z","value":75,"unit":"count/min","metadata":{"HKMetadataKeySyncIdentifier":"a","HKMetadataKeySyncVersion":1}}"#.utf8)
        #expect(primer.withUnsafeBytes { StoredLineDecoder.item($0, memo: &memo) } != nil)
        #expect(Array(text.utf8).withUnsafeBytes { StoredLineDecoder.item($0, memo: &memo) } == nil)
    }
}

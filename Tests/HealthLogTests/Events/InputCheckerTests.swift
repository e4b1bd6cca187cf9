import Testing
@testable import HealthLog

/// The input rules apply to input only: stored lines they would refuse still read.
@Suite("Input checks")
struct InputCheckerTests {
    static let oldLines = [
        #"{"seq":1,"op":"add","uuid":"0D4A1F9C-5E3B-4C61-9B57-2A1E4F8C7D10","type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T08:00:00Z","end":"2024-03-01T08:00:00Z","value":72,"unit":"bpm"}"#,
        #"{"seq":2,"op":"add","uuid":"0D4A1F9C-5E3B-4C61-9B57-2A1E4F8C7D11","type":"HKCategoryTypeIdentifierSleepAnalysis","start":"2024-03-01T08:00:00Z","end":"2024-03-01T09:00:00Z","value":"AsleepCore"}"#,
        #"{"seq":3,"op":"add","uuid":"0D4A1F9C-5E3B-4C61-9B57-2A1E4F8C7D12","type":"HKQuantityTypeIdentifierHeartRat","start":"2024-03-01T08:00:00Z","end":"2024-03-01T08:00:00Z","value":72,"unit":"count/min"}"#,
        #"{"seq":4,"op":"add","uuid":"0D4A1F9C-5E3B-4C61-9B57-2A1E4F8C7D13","type":"HKQuantityTypeIdentifierStepCount","start":"2024-03-01T08:00:00Z","end":"2024-03-01T08:00:00Z","value":-5,"unit":"count"}"#,
    ]

    @Test("Lines the input rules refuse or rewrite still parse as stored lines, and category predicates read a short stored value for its type", arguments: oldLines)
    func storedLinesStillRead(_ line: String) throws {
        var bytes = Array(line.utf8)
        try bytes.withUnsafeMutableBytes { raw in
            let view = try StoredLineView(line: UnsafeRawBufferPointer(raw), seq: 1, location: "test")
            if view.kind == .category {
                #expect(QueryPredicate.categoryValues([.integer(3)]).matches(view))
                #expect(QueryPredicate.categoryValues([.name("HKCategoryValueSleepAnalysisAsleepCore")]).matches(view))
            }
            var checker = InputChecker(importing: false)
            if view.kind == .category {
                #expect(try checker.check(view.event, line: UnsafeRawBufferPointer(raw)).rewritten != nil, "given today, it is stored in full")
            } else {
                #expect(throws: FieldError.self) { try checker.check(view.event, line: UnsafeRawBufferPointer(raw)) }
            }
        }
    }

    @Test("A short type and a category value in another spelling are rewritten to their stored forms")
    func rewrites() throws {
        let line = #"{"type":"sleepanalysis","start":"2024-03-01T08:00:00Z","value":3}"#
        var checker = InputChecker(importing: false)
        let outcome = try Array(line.utf8).withUnsafeBytes { raw in try checker.check(try EventLineParser.parse(raw), line: raw) }
        let rewritten = try #require(outcome.rewritten)
        #expect(String(decoding: rewritten, as: UTF8.self) == #"{"type":"HKCategoryTypeIdentifierSleepAnalysis","start":"2024-03-01T08:00:00Z","value":"HKCategoryValueSleepAnalysisAsleepCore"}"#)
        #expect(outcome.note == nil)
    }
}

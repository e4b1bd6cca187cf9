import Testing
@testable import HealthLog

/// Splitting a decompressed group reads each line's sequence number, of any length, where
/// the stored line starts, and refuses lines that do not start with one.
@Suite("Batch line split")
struct BatchLineSplitTests {
    /// The lines `text` splits into (seq, start, end), or what is wrong.
    private func split(_ text: String, base: Int = 0) -> ([(UInt64, Int, Int)], String?) {
        var lines: [BatchLines.Line] = []
        let reason = Array(text.utf8).withUnsafeBytes { BatchLines.split($0, base: base, isDelete: false, into: &lines) }
        return (lines.map { ($0.seq, $0.start, $0.end) }, reason)
    }

    @Test("Sequence numbers of one to nineteen digits are read whole, wherever the line ends")
    func digitCounts() {
        let seqs: [UInt64] = [7, 42, 1_234_567, 12_345_678, 123_456_789, 99_999_999_999, 1_234_567_890_123_456_789]
        var text = ""
        var expected: [(UInt64, Int, Int)] = []
        for seq in seqs {
            let line = #"{"seq":\#(seq),"op":"add","uuid":"A"}"# + "\n"
            expected.append((seq, 100 + text.utf8.count, 100 + text.utf8.count + line.utf8.count))
            text += line
        }
        // A last line of nineteen digits and its closing brace.
        text += #"{"seq":1234567890123456790}"# + "\n"
        let (lines, reason) = split(text, base: 100)
        #expect(reason == nil)
        #expect(lines.map(\.0) == seqs + [1_234_567_890_123_456_790])
        #expect(lines.dropLast().map(\.1) == expected.map(\.1))
        #expect(lines.dropLast().map(\.2) == expected.map(\.2))
        #expect(split(#"{"seq":5"# + "\n").0.map(\.0) == [5])
        // Last lines too short for a word past their prefix: read digit by digit.
        #expect(split(#"{"seq":5}"# + "\n" + #"{"seq":123456"# + "\n").0.map(\.0) == [5, 123_456])
        #expect(split(#"{"seq":5}"# + "\n" + #"{"seq":12"# + "\n").0.map(\.0) == [5, 12])
    }

    @Test("A line without digits after its prefix, or whose number does not rise, is refused")
    func refused() {
        #expect(split(#"{"seq":x,"op":"add"}"# + "\n").1 == #"line at byte 0 of the frame does not start with {"seq":"#)
        #expect(split(#"{"seq":,"op":"add"}"# + "\n").1 == #"line at byte 0 of the frame does not start with {"seq":"#)
        #expect(split(#"{"sEq":1,"op":"add"}"# + "\n").1 == #"line at byte 0 of the frame does not start with {"seq":"#)
        let twice = #"{"seq":12345678,"op":"add"}"# + "\n" + #"{"seq":12345678,"op":"add"}"# + "\n"
        #expect(split(twice).1 == "sequence numbers in the frame do not rise at byte 28")
        #expect(split(#"{"seq":12345678,"op":"add"}"#).1 == "last line of the frame has no newline")
    }
}

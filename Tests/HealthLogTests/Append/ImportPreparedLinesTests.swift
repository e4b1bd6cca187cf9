import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// An importing append's lines keep their preparations' bytes; their events are made at the
/// append a chunk of ``LineReader/chunkLines`` at a time, so an append of 50,000 short lines
/// holds about 4,096 events, not 50,000, and what it stores and refuses is what one chunk of
/// them all would give.
@Suite("Import: prepared lines a chunk at a time")
struct ImportPreparedLinesTests {
    /// Step counts a second apart, each with its own UUID; line `bad` (from 1), if any, has a
    /// negative count, which the checker refuses.
    static func lines(_ count: Int, bad: Int? = nil) -> [String] {
        (1...count).map { n in
            let uuid = String(format: "%08X-0000-4000-8000-%012X", n, n)
            let value = n == bad ? -1 : n % 90
            return #"{"op":"add","uuid":"\#(uuid)","type":"HKQuantityTypeIdentifierStepCount","start":"2024-03-01T08:00:00Z","end":"2024-03-01T08:00:01Z","value":\#(value),"unit":"count"}"#
        }
    }

    /// `lines` gathered as the import gathers them: every other one with its preparation,
    /// the rest (and a line the validator refuses) without.
    static func gathered(_ lines: [String]) -> ImportPreparedLines {
        var validator = ImportLineValidator()
        var out = ImportPreparedLines()
        for (n, line) in lines.enumerated() {
            let bytes = Array(line.utf8)
            let preparation = n % 2 == 0 ? (try? bytes.withUnsafeBytes { try validator.prepare(line: $0) }) : nil
            (bytes + [10]).withUnsafeBytes { line in
                if let preparation { preparation.withUnsafeBytes { out.add(line, prepared: $0) } } else { out.add(line, prepared: nil) }
            }
        }
        return out
    }

    @Test("Events come at most a chunk's lines at a time, numbered from each chunk's first line")
    func chunks() throws {
        let text = Self.lines(10_000)
        let lines = Self.gathered(text)
        var seen: [(events: Int, linesBefore: Int)] = []
        var starts: [Int] = []
        lines.forEachChunk { chunk, linesBefore in
            seen.append((chunk.events.count, linesBefore))
            starts.append(chunk.events.first?.line.lowerBound ?? -1)
            #expect(chunk.failure == nil)
            #expect(chunk.events.enumerated().allSatisfy { $0.offset == $0.element.index })
        }
        #expect(seen.map(\.events) == [LineReader.chunkLines, LineReader.chunkLines, 10_000 - 2 * LineReader.chunkLines])
        #expect(seen.map(\.linesBefore) == [0, LineReader.chunkLines, 2 * LineReader.chunkLines])
        // Each chunk's first event is that line's, in the bytes of them all.
        let offsets = [0, LineReader.chunkLines, 2 * LineReader.chunkLines].map { text.prefix($0).reduce(0) { $0 + $1.utf8.count + 1 } }
        #expect(starts == offsets)
    }

    @Test("An append of several chunks stores what the line-reading append stores, and refuses a line past the first chunk by its number, writing nothing")
    func sameAsReading() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let all = Self.lines(9_000)
        let ndjson = Array(all.map { $0 + "\n" }.joined().utf8)
        let read = try HealthStore(directory: dir.file("read")).appendImporting(ndjson: ndjson)
        let prepared = try HealthStore(directory: dir.file("prepared")).appendImporting(prepared: Self.gathered(all), addsUnusedAsOfHead: nil)
        #expect(read.added == 9_000 && prepared.added == 9_000)
        var readLines: [[UInt8]] = []
        var preparedLines: [[UInt8]] = []
        _ = try HealthStore(directory: dir.file("read")).replay(ReplayRequest(anchor: .beginning)) { readLines.append(Array($0)) }
        _ = try HealthStore(directory: dir.file("prepared")).replay(ReplayRequest(anchor: .beginning)) { preparedLines.append(Array($0)) }
        #expect(preparedLines == readLines)

        let refused = Self.lines(9_000, bad: 8_500)
        let error = try #require(throws: HealthLogError.self) {
            try HealthStore(directory: dir.file("refused")).appendImporting(prepared: Self.gathered(refused), addsUnusedAsOfHead: nil)
        }
        #expect(error.message.hasPrefix("line 8500: field 'value': "), "\(error.message)")
        #expect(!HealthStore(directory: dir.file("refused")).exists)
    }
}

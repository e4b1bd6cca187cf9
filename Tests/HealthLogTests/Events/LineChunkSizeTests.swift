import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// The chunks `LineReader` hands an append's preparers: about a MiB of ordinary lines, but
/// about ``LineReader/chunkLines`` short ones (deletes), since each line's prepared event
/// takes the same memory however short the line, and an append prepares chunks ahead.
@Suite("Line chunk sizes")
struct LineChunkSizeTests {
    /// Where the reader reads from.
    enum Source: CaseIterable {
        case memory, file, pipe
    }

    /// `count` lines of `length` bytes each, newline included, numbered so none repeats.
    static func lines(_ count: Int, length: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count * length)
        let filler = [UInt8](repeating: 0x78, count: length)
        for n in 0..<count {
            let number = String(n).utf8
            out.append(contentsOf: number)
            out.append(contentsOf: filler[0..<(length - 1 - number.count)])
            out.append(10)
        }
        return out
    }

    /// The chunks a reader of `bytes` from `source` gives: each one's bytes.
    static func chunks(of bytes: [UInt8], from source: Source) throws -> [[UInt8]] {
        var out: [[UInt8]] = []
        func drain(_ reader: inout LineReader) throws {
            while let chunk = try reader.nextChunk() {
                chunk.withBytes { out.append(Array($0)) }
                chunk.release()
            }
        }
        switch source {
        case .memory:
            var reader = LineReader(bytes: bytes)
            try drain(&reader)
        case .file:
            try LineReader.withFile(holding: bytes) { try drain(&$0) }
        case .pipe:
            var ends: [Int32] = [0, 0]
            try #require(pipe(&ends) == 0)
            let (readEnd, writeEnd) = (ends[0], ends[1])
            let writer = Thread {
                bytes.withUnsafeBytes { raw in
                    var at = 0
                    while at < raw.count {
                        let wrote = write(writeEnd, raw.baseAddress! + at, raw.count - at)
                        if wrote <= 0 { break }
                        at += wrote
                    }
                }
                close(writeEnd)
            }
            writer.start()
            defer { close(readEnd) }
            var reader = LineReader(fileDescriptor: readEnd, name: nil)
            try drain(&reader)
        }
        return out
    }

    /// The lines in `bytes`.
    static func lineCount(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { raw in
            var lines = 0
            var at = 0
            while at < raw.count, let found = memchr(raw.baseAddress! + at, 10, raw.count - at) {
                lines += 1
                at = raw.baseAddress!.distance(to: UnsafeRawPointer(found)) + 1
            }
            return lines
        }
    }

    @Test("Short lines come about chunkLines a chunk, each chunk whole lines, all of them in order", arguments: Source.allCases)
    func shortLines(_ source: Source) throws {
        let input = Self.lines(40_000, length: 62)
        let chunks = try Self.chunks(of: input, from: source)
        #expect(chunks.reduce(into: []) { $0.append(contentsOf: $1) } == input)
        for chunk in chunks.dropLast() {
            #expect(chunk.last == 10)
            #expect((LineReader.chunkLines...LineReader.chunkLines + 1_100).contains(Self.lineCount(chunk)), "\(Self.lineCount(chunk)) lines")
        }
        #expect(chunks.count >= 8)
    }

    @Test("Ordinary lines come about a MiB a chunk", arguments: Source.allCases)
    func ordinaryLines(_ source: Source) throws {
        let input = Self.lines(12_000, length: 370)
        let chunks = try Self.chunks(of: input, from: source)
        #expect(chunks.reduce(into: []) { $0.append(contentsOf: $1) } == input)
        for chunk in chunks.dropLast() {
            #expect(chunk.last == 10)
            // A pipe's chunk ends at the last line end read, past a MiB read.
            #expect(chunk.count > LineReader.chunkBytes - 370)
            #expect(Self.lineCount(chunk) < LineReader.chunkLines)
        }
        #expect((4...5).contains(chunks.count))
    }

    @Test("The target follows the sample: a MiB for long lines or none, fewer bytes for short ones, never under the floor")
    func target() {
        func target(_ bytes: [UInt8]) -> Int { bytes.withUnsafeBytes { LineReader.chunkTarget($0) } }
        #expect(target([]) == LineReader.chunkBytes)
        #expect(target([UInt8](repeating: 0x78, count: LineReader.sampleBytes)) == LineReader.chunkBytes)
        #expect(target(Self.lines(200, length: 62)) == 62 * LineReader.chunkLines)
        #expect(target(Self.lines(200, length: 400)) == LineReader.chunkBytes)
        #expect(target(Self.lines(1_000, length: 8)) == LineReader.minChunkBytes)
    }
}

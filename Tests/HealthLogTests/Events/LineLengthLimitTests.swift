import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// The line-length limit holds wherever a line falls in the input: `LineReader` reads a
/// file in 4 MiB chunks (a pipe in 64 KiB ones), and a line of ``LineReader/maxLineLength``
/// + 1 bytes is refused naming its number whether it starts or ends at, just before or just
/// after a chunk boundary, while a line of exactly the limit is accepted there.
@Suite("Line length limit", .serialized)
struct LineLengthLimitTests {
    /// The limit.
    static let limit = LineReader.maxLineLength
    /// The size of the reader's chunks from a file.
    static let chunk = 4 << 20

    /// Lengths of the input before the long line: none, an empty line, around a pipe's
    /// 64 KiB read, around the first chunk boundary (4 MiB - 2 puts the long line's `\n`
    /// on the last byte of the fifth chunk), and a line that is itself at the limit.
    static let prefixes = [0, 1, (64 << 10) - 1, 64 << 10, chunk - 3, chunk - 2, chunk - 1, chunk, chunk + 1, limit + 1]

    @Test("A line of the limit + 1 bytes is refused with its line number, wherever it falls", arguments: prefixes)
    func overTheLimitIsRefused(_ prefix: Int) throws {
        let number = prefix == 0 ? 1 : 2
        let error = try #require(throws: HealthLogError.self) {
            _ = try Self.lineLengths(Self.input(prefix: prefix, line: Self.limit + 1))
        }
        #expect(error.code == .badInput)
        #expect(error.message == "input.ndjson: line \(number): longer than \(Self.limit) bytes")
    }

    @Test("A line of exactly the limit is accepted, wherever it falls", arguments: prefixes)
    func atTheLimitIsAccepted(_ prefix: Int) throws {
        let lengths = try Self.lineLengths(Self.input(prefix: prefix, line: Self.limit))
        let before = prefix == 0 ? [] : [prefix - 1]
        #expect(lengths == before + [Self.limit, 1])
    }

    @Test("The limit does not count the line's terminator: \\r\\n after the limit is accepted, one byte more is not")
    func crlfIsNotCounted() throws {
        var input = [UInt8](repeating: 0x78, count: Self.limit) + [13, 10]
        #expect(try Self.lineLengths(input) == [Self.limit])
        input.insert(0x78, at: 0)
        #expect(throws: HealthLogError.self) { try Self.lineLengths(input) }
    }

    @Test("A last line without a newline is held to the limit too")
    func lastLineWithoutNewline() throws {
        let input = [UInt8](repeating: 0x78, count: Self.chunk) + [10] + [UInt8](repeating: 0x78, count: Self.limit + 1)
        let error = try #require(throws: HealthLogError.self) { try Self.lineLengths(input) }
        #expect(error.message.hasSuffix("line 2: longer than \(Self.limit) bytes"))
        #expect(try Self.lineLengths(Array(input.dropLast())) == [Self.chunk, Self.limit])
    }

    @Test("Bytes appended from memory are held to the limit, and nothing is written")
    func memoryInputIsRefused() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = HealthStore(directory: dir.file("store"), options: MetadataKeyTests.options)
        let error = try #require(throws: HealthLogError.self) {
            try store.append(ndjson: Self.input(prefix: 0, line: Self.limit + 1))
        }
        #expect(error.message == "line 1: longer than \(Self.limit) bytes")
        #expect(!store.exists)
    }

    /// `prefix` bytes (a line of `x`s and its `\n`), a line of `line` `y`s, then `z\n`.
    static func input(prefix: Int, line: Int) -> [UInt8] {
        let first = prefix == 0 ? [] : [UInt8](repeating: 0x78, count: prefix - 1) + [10]
        return first + [UInt8](repeating: 0x79, count: line) + [10, 0x7A, 10]
    }

    /// The lengths of the lines a `LineReader` reads from a file holding `bytes`, checking
    /// that they come numbered 1, 2, ….
    static func lineLengths(_ bytes: [UInt8]) throws -> [Int] {
        try LineReader.withFile(holding: bytes) { reader in
            var lengths: [Int] = []
            try reader.forEachLine { line, number in
                #expect(number == lengths.count + 1)
                lengths.append(line.count)
            }
            return lengths
        }
    }
}

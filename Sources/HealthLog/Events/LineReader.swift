#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits a stream of bytes (a file descriptor or an in-memory buffer) into lines, reading
/// in large chunks. Lines longer than ``maxLineLength`` are refused rather than buffered
/// without bound.
public struct LineReader {
    /// The longest line accepted, in bytes.
    public static let maxLineLength = 16 << 20

    private enum Source {
        case descriptor(FileDescriptor)
        case memory([UInt8])
    }

    private let source: Source
    private var buffer: [UInt8] = []
    private var start = 0
    private var isAtEnd = false
    /// The number of the last line returned (1-based).
    public private(set) var lineNumber = 0
    /// The input's name for error messages (a file name), or `nil` for standard input.
    public let name: String?

    /// Reads from an open file descriptor (not closed by the reader); `name` prefixes
    /// error messages.
    public init(fileDescriptor: Int32, name: String?) {
        source = .descriptor(FileDescriptor(rawValue: fileDescriptor, path: name ?? "standard input"))
        self.name = name
    }

    /// Reads from bytes in memory.
    public init(bytes: [UInt8], name: String? = nil) {
        self.name = name
        source = .memory(bytes)
        buffer = bytes
        isAtEnd = true
    }

    /// Calls `body` with each line (without `\n` or a trailing `\r`) and its number.
    ///
    /// A line is measured without its terminator (`\n` or `\r\n`); one longer than
    /// ``maxLineLength`` throws a `badInput` error naming its number, wherever
    /// it falls relative to the chunks the reader reads, and nothing after it is read.
    mutating func forEachLine(_ body: (UnsafeRawBufferPointer, Int) throws -> Void) throws {
        var scanned = start
        while true {
            let newline = buffer.withUnsafeBytes { raw -> Int? in
                guard scanned < raw.count, let found = memchr(raw.baseAddress! + scanned, 10, raw.count - scanned) else { return nil }
                return raw.baseAddress!.distance(to: UnsafeRawPointer(found))
            }
            if let newline {
                try deliver(start..<newline, body)
                start = newline + 1
                scanned = start
                continue
            }
            if isAtEnd {
                if start < buffer.count {
                    let line = start..<buffer.count
                    start = buffer.count
                    try deliver(line, body)
                }
                return
            }
            // No newline yet: more than one byte past the limit is too long even if the line
            // ends in `\r\n`, so it is refused before another chunk is buffered.
            guard buffer.count - start <= LineReader.maxLineLength + 1 else { throw tooLong(lineNumber + 1) }
            let unread = buffer.count - start
            try refill()
            scanned = start + unread
        }
    }

    /// Numbers the line at `range` of the buffer (its `\n` excluded), drops a trailing `\r`,
    /// checks its length and calls `body` with it.
    private mutating func deliver(_ range: Range<Int>, _ body: (UnsafeRawBufferPointer, Int) throws -> Void) throws {
        lineNumber += 1
        let end = range.upperBound > range.lowerBound && buffer[range.upperBound - 1] == 13 ? range.upperBound - 1 : range.upperBound
        guard end - range.lowerBound <= LineReader.maxLineLength else { throw tooLong(lineNumber) }
        let number = lineNumber
        try buffer.withUnsafeBytes { raw in try body(UnsafeRawBufferPointer(rebasing: raw[range.lowerBound..<end]), number) }
    }

    /// The error for line `number`, longer than ``maxLineLength``.
    private func tooLong(_ number: Int) -> HealthLogError {
        HealthLogError(.badInput, "\(name.map { "\($0): " } ?? "")line \(number): longer than \(LineReader.maxLineLength) bytes")
    }

    /// Moves the unread part of the buffer to its front and appends the next chunk read from
    /// the descriptor (up to 4 MiB; a pipe gives less); marks the end when a read returns none.
    private mutating func refill() throws {
        guard case .descriptor(let fd) = source else {
            isAtEnd = true
            return
        }
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        // Read into uninitialized memory: zero-filling the chunk first with the generic
        // `append(contentsOf: repeatElement(0, count:))` costs ~0.7 s per call in a debug build.
        let chunk = try [UInt8](unsafeUninitializedCapacity: 4 << 20) { raw, count in
            count = try fd.readSome(into: UnsafeMutableRawBufferPointer(raw))
        }
        buffer.append(contentsOf: chunk)
        if chunk.isEmpty { isAtEnd = true }
    }
}

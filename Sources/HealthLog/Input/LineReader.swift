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
    mutating func forEachLine(_ body: (UnsafeRawBufferPointer, Int) throws -> Void) throws {
        while true {
            let newline = buffer.withUnsafeBytes { raw -> Int? in
                guard start < raw.count, let found = memchr(raw.baseAddress! + start, 10, raw.count - start) else { return nil }
                return raw.baseAddress!.distance(to: UnsafeRawPointer(found))
            }
            if let newline {
                lineNumber += 1
                let end = newline > start && buffer[newline - 1] == 13 ? newline - 1 : newline
                try buffer.withUnsafeBytes { raw in try body(UnsafeRawBufferPointer(rebasing: raw[start..<end]), lineNumber) }
                start = newline + 1
                continue
            }
            if isAtEnd {
                if start < buffer.count {
                    lineNumber += 1
                    let end = buffer.last == 13 ? buffer.count - 1 : buffer.count
                    let from = start
                    start = buffer.count
                    try buffer.withUnsafeBytes { raw in try body(UnsafeRawBufferPointer(rebasing: raw[from..<end]), lineNumber) }
                }
                return
            }
            try refill()
        }
    }

    private mutating func refill() throws {
        guard case .descriptor(let fd) = source else {
            isAtEnd = true
            return
        }
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        guard buffer.count <= LineReader.maxLineLength else {
            throw HealthLogError(.badInput, "\(name.map { "\($0): " } ?? "")line \(lineNumber + 1): longer than \(LineReader.maxLineLength) bytes")
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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits a stream of bytes (a file descriptor or an in-memory buffer) into chunks of whole
/// lines (`nextChunk()`) or lines (`forEachLine(_:)`). A regular file is mapped
/// (`MappedFile`) rather than copied into buffers; a pipe is read in large chunks. Lines
/// longer than ``maxLineLength`` are refused rather than buffered without bound.
package struct LineReader {
    /// The longest line accepted, in bytes.
    package static let maxLineLength = 16 << 20
    /// The bytes a chunk holds at least, when the input has them and its lines are not
    /// short (``chunkTarget(_:)``): it ends at the first line end at or past this many bytes.
    static let chunkBytes = 1 << 20
    /// About the most lines a chunk holds: a line's prepared event takes about 230 bytes
    /// however short the line is, so a chunk of a MiB of deletes (62 bytes a line) would
    /// hold four times its bytes in events, in each of the chunks an append prepares ahead.
    static let chunkLines = 4096
    /// The fewest bytes a chunk of short lines holds.
    static let minChunkBytes = 64 << 10
    /// The bytes at a chunk's start whose lines ``chunkTarget(_:)`` counts.
    static let sampleBytes = 16 << 10

    /// The bytes a chunk starting with `sample` (its first ``sampleBytes`` or fewer) is to
    /// hold: ``chunkBytes``, or fewer when the sample's lines are short, for about
    /// ``chunkLines`` of them (at least ``minChunkBytes``).
    static func chunkTarget(_ sample: UnsafeRawBufferPointer) -> Int {
        guard let base = sample.baseAddress else { return chunkBytes }
        var lines = 0
        var at = 0
        while at < sample.count, let found = memchr(base + at, 10, sample.count - at) {
            lines += 1
            at = base.distance(to: UnsafeRawPointer(found)) + 1
        }
        guard lines > 0 else { return chunkBytes }
        return min(chunkBytes, max(minChunkBytes, at / lines * chunkLines))
    }

    private enum Source {
        case descriptor(FileDescriptor)
        case memory([UInt8])
        case mapped(MappedFile)
    }

    private var source: Source
    /// For a descriptor: whether it was tried for mapping yet.
    private var triedMapping = false
    /// Where the next chunk starts (memory and mapped sources).
    private var offset = 0
    /// For a descriptor: the start of a line read past the last chunk's end.
    private var carry: [UInt8] = []
    private var isAtEnd = false
    /// The number of the last line returned by `forEachLine(_:)` (1-based).
    package private(set) var lineNumber = 0
    /// The input's name for error messages (a file name), or `nil` for standard input.
    package let name: String?

    /// Reads from an open file descriptor (not closed by the reader); `name` prefixes
    /// error messages.
    package init(fileDescriptor: Int32, name: String?) {
        source = .descriptor(FileDescriptor(rawValue: fileDescriptor, path: name ?? "standard input"))
        self.name = name
    }

    /// Reads from bytes in memory.
    package init(bytes: [UInt8], name: String? = nil) {
        self.name = name
        source = .memory(bytes)
    }

    /// Calls `body` with each line (without `\n` or a trailing `\r`) and its number.
    ///
    /// A line is measured without its terminator (`\n` or `\r\n`); one longer than
    /// ``maxLineLength`` throws a `badInput` error naming its number, wherever
    /// it falls relative to the chunks the reader reads, and nothing after it is read.
    mutating func forEachLine(_ body: (UnsafeRawBufferPointer, Int) throws -> Void) throws {
        while let chunk = try nextChunk() {
            var failure: HealthLogError?
            try chunk.withBytes { bytes in
                try LineChunk.forEachLine(bytes) { line, isTooLong in
                    lineNumber += 1
                    if isTooLong {
                        failure = tooLong(lineNumber)
                        return false
                    }
                    try body(line, lineNumber)
                    return true
                }
            }
            chunk.release()
            if let failure { throw failure }
            if chunk.isFollowedByTooLongLine { throw tooLong(lineNumber + 1) }
        }
    }

    /// The next chunk of whole lines, `nil` at the end of the input. A chunk holds at least
    /// ``chunkBytes`` unless the input ends first. After a chunk marked
    /// ``LineChunk/isFollowedByTooLongLine`` nothing more is read.
    mutating func nextChunk() throws -> LineChunk? {
        if case .descriptor(let fd) = source, !triedMapping {
            triedMapping = true
            if let file = MappedFile(fd) {
                source = .mapped(file)
                offset = file.startOffset
            }
        }
        switch source {
        case .memory(let bytes):
            guard let range = nextRange(in: bytes.count, { body in bytes.withUnsafeBytes(body) }) else { return nil }
            return LineChunk(storage: .bytes(bytes), range: range)
        case .mapped(let file):
            guard let range = nextRange(in: file.count, { body in file.withBytes(0..<file.count, body) }) else { return nil }
            return LineChunk(storage: .mapped(file), range: range)
        case .descriptor(let fd):
            return try readChunk(fd)
        }
    }

    /// The error for line `number`, longer than ``maxLineLength``.
    func tooLong(_ number: Int) -> HealthLogError {
        Self.tooLong(number, name: name)
    }

    /// The error for line `number` of the input named `name`, longer than ``maxLineLength``.
    static func tooLong(_ number: Int, name: String?) -> HealthLogError {
        HealthLogError(.badInput, "\(name.map { "\($0): " } ?? "")line \(number): longer than \(LineReader.maxLineLength) bytes")
    }

    /// The next chunk's range of bytes held in memory (`count` of them, shown by `access`):
    /// from ``offset`` to the first line end at or past ``chunkTarget(_:)`` bytes.
    private mutating func nextRange(in count: Int, _ access: ((UnsafeRawBufferPointer) -> Int) -> Int) -> Range<Int>? {
        guard offset < count else { return nil }
        let end = access { raw in
            let target = Self.chunkTarget(UnsafeRawBufferPointer(rebasing: raw[offset..<min(count, offset + Self.sampleBytes)]))
            let probe = offset + target - 1
            guard probe < count, let found = memchr(raw.baseAddress! + probe, 10, count - probe) else { return count }
            return raw.baseAddress!.distance(to: UnsafeRawPointer(found)) + 1
        }
        defer { offset = end }
        return offset..<end
    }

    /// The bytes a chunk read from a pipe into `buffer` is to hold, once the buffer holds a
    /// sample (``sampleBytes``): ``chunkTarget(_:)`` of its first bytes.
    private static func target(of buffer: [UInt8]) -> Int {
        buffer.withUnsafeBytes { chunkTarget(UnsafeRawBufferPointer(rebasing: $0.prefix(sampleBytes))) }
    }

    /// Reads the next chunk from a descriptor that cannot be mapped (a pipe): at least
    /// ``chunkTarget(_:)`` bytes (a pipe gives 64 KiB a read), up to the last line end
    /// read; the partial line after it starts the next chunk.
    private mutating func readChunk(_ fd: FileDescriptor) throws -> LineChunk? {
        var buffer = carry
        carry = []
        /// How much of `buffer` is known to hold no `\n`.
        var scanned = 0
        /// The chunk's target, worked out once, when the buffer holds a sample; ``chunkBytes``
        /// until then.
        var target = buffer.count >= Self.sampleBytes ? Self.target(of: buffer) : nil
        while true {
            while !isAtEnd, buffer.count - scanned < target ?? Self.chunkBytes {
                let before = buffer.count
                // Read into uninitialized memory: zero-filling with the generic
                // `append(contentsOf: repeatElement(0, count:))` is slow in a debug build.
                let chunk = try [UInt8](unsafeUninitializedCapacity: Self.chunkBytes) { raw, count in
                    count = try fd.readSome(into: UnsafeMutableRawBufferPointer(raw))
                }
                buffer.append(contentsOf: chunk)
                if buffer.count == before { isAtEnd = true }
                if target == nil, buffer.count >= Self.sampleBytes { target = Self.target(of: buffer) }
            }
            if isAtEnd {
                guard !buffer.isEmpty else { return nil }
                return LineChunk(storage: .bytes(buffer), range: 0..<buffer.count)
            }
            if let last = buffer[scanned...].lastIndex(of: 10) {
                carry = Array(buffer[(last + 1)...])
                buffer.removeSubrange((last + 1)...)
                return LineChunk(storage: .bytes(buffer), range: 0..<buffer.count)
            }
            // No line end yet: more than one byte past the limit is too long even if the
            // line ends in `\r\n`, so it is refused before another chunk is buffered.
            guard buffer.count <= Self.maxLineLength + 1 else {
                isAtEnd = true
                return LineChunk(storage: .bytes([]), range: 0..<0, isFollowedByTooLongLine: true)
            }
            scanned = buffer.count
        }
    }
}

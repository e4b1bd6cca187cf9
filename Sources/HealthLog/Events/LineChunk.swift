#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A run of whole input lines, as ``LineReader`` hands them out: bytes that end at a line's
/// end (or the input's), held by the reader's buffer or a mapped file, which any thread
/// may read. The lines of a chunk are numbered by whoever consumes the chunks in order.
struct LineChunk: Sendable {
    /// What holds the bytes.
    enum Storage: Sendable {
        /// A buffer read from a descriptor, or bytes given in memory.
        case bytes([UInt8])
        /// A mapped regular file.
        case mapped(MappedFile)
    }

    /// What holds the bytes.
    let storage: Storage
    /// Where the chunk's bytes lie in ``storage``.
    let range: Range<Int>
    /// Whether the line after this chunk's lines is longer than ``LineReader/maxLineLength``
    /// (the reader stopped before buffering all of it and reads no more).
    var isFollowedByTooLongLine = false

    /// Calls `body` with the chunk's bytes.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        switch storage {
        case .bytes(let array):
            return try array.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[range])) }
        case .mapped(let file):
            return try file.withBytes(range, body)
        }
    }

    /// Lets a mapped file's pages up to the chunk's end go from memory, once the chunk and
    /// every chunk before it are consumed (read again, they come back from the file).
    func release() {
        if case .mapped(let file) = storage { file.release(below: range.upperBound) }
    }

    /// Calls `body` with each line of `bytes` (without its `\n` or a trailing `\r`) and
    /// whether it is longer than ``LineReader/maxLineLength``; a last line without `\n`
    /// counts, an empty rest after the last `\n` does not. `body` returns `false` to stop.
    static func forEachLine(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer, _ isTooLong: Bool) throws -> Bool) rethrows {
        guard let base = bytes.baseAddress else { return }
        var start = 0
        while start < bytes.count {
            let end: Int
            if let found = memchr(base + start, 10, bytes.count - start) {
                end = base.distance(to: UnsafeRawPointer(found))
            } else {
                end = bytes.count
            }
            let stop = end > start && bytes[end - 1] == 13 ? end - 1 : end
            let line = UnsafeRawBufferPointer(rebasing: bytes[start..<stop])
            guard try body(line, stop - start > LineReader.maxLineLength) else { return }
            start = end + 1
        }
    }
}

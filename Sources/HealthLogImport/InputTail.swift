#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What an XML reader has handed libxml2 so far, as far as its messages about the end need
/// it: the newlines (the input's last line), the last bytes (whether the document was cut
/// short before its end tag), and whether the source returned its end.
struct InputTail {
    /// Whether the source returned its end.
    var reachedEnd = false
    /// Newlines handed to the parser so far.
    private(set) var newlines = 0
    /// The last bytes handed to the parser, at most ``length``.
    private(set) var bytes: [UInt8] = []
    /// How many of the input's last bytes ``bytes`` keeps.
    static let length = 64

    /// Counts the newlines of `count` bytes at `start`, handed to the parser, and keeps the
    /// last of them.
    mutating func took(_ start: UnsafeRawPointer, _ count: Int) {
        let kept = min(count, Self.length)
        bytes.append(contentsOf: UnsafeRawBufferPointer(start: start + (count - kept), count: kept))
        if bytes.count > Self.length { bytes.removeFirst(bytes.count - Self.length) }
        var at = start
        var left = count
        while left > 0, let found = memchr(at, 0x0A, left) {
            newlines += 1
            let step = UnsafeRawPointer(found) - at + 1
            at = UnsafeRawPointer(found) + 1
            left -= step
        }
    }

    /// Whether the whole input was read and it does not end with `endTag` (blanks after it
    /// allowed): a document cut short.
    func endsBefore(_ endTag: String) -> Bool {
        guard reachedEnd else { return false }
        var tail = bytes[...]
        while let last = tail.last, last == 0x20 || last == 0x09 || last == 0x0A || last == 0x0D { tail = tail.dropLast() }
        let end = Array(endTag.utf8)
        return !(tail.count >= end.count && tail.suffix(end.count).elementsEqual(end))
    }

    /// The number of the input's last line (one that is not empty), once it was all read.
    var lastLine: Int { newlines + (bytes.last == 0x0A || bytes.isEmpty ? 0 : 1) }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLog

/// Counts the attributes of each start tag in the bytes before libxml2 parses them, so a
/// tag with more than ``ImportLimits/attributes`` is refused before libxml2 2.9's check for
/// repeated attributes, which compares each attribute with every one before it, runs on it.
///
/// An attribute value cannot hold a literal `<`, so a start tag's attributes all lie
/// between its `<` and the next `<` of the input, each with one `=`: the `=` signs there
/// bound the count from above. Spans that start a comment, a declaration, a processing
/// instruction or an end tag (`<!`, `<?`, `</`) are not counted.
struct StartTagScan {
    /// The `=` signs of the span being counted.
    private var equals = 0
    /// Whether the span since the last `<` is a start tag's.
    private var counting = false
    /// Whether the last byte scanned was a `<` (the next byte says what it starts).
    private var afterLessThan = false
    /// The line the scan has reached (1-based).
    private var line = 1
    /// The line of the last `<`.
    private var tagLine = 1

    /// Scans the next `bytes` of the input; returns the line of a start tag with more than
    /// ``ImportLimits/attributes`` attributes, or `nil`.
    mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        let count = bytes.count
        var at = 0
        while at < count {
            if afterLessThan {
                let byte = base[at]
                counting = byte != 0x21 && byte != 0x3F && byte != 0x2F
                afterLessThan = false
            }
            let next = memchr(base + at, 0x3C, count - at).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? count
            var signs = 0
            var newlines = 0
            for k in at..<next {
                let byte = base[k]
                signs &+= byte == 0x3D ? 1 : 0
                newlines &+= byte == 0x0A ? 1 : 0
            }
            if counting {
                equals += signs
                if equals > ImportLimits.attributes { return tagLine }
            }
            line += newlines
            if next < count {
                equals = 0
                counting = false
                afterLessThan = true
                tagLine = line
            }
            at = next + 1
        }
        return nil
    }

    /// The error for a start tag at `line` with too many attributes, in `document`.
    static func refusal(_ document: String, line: Int) -> HealthLogError {
        HealthLogError(.badInput, "\(document): line \(line): a start tag holds more than \(ImportLimits.attributes) attributes, the most the import reads on one element")
    }
}

/// A strict, allocation-free JSON tokenizer over one line of UTF-8, used by the event
/// parser. It validates as it goes (RFC 8259 grammar, UTF-8, escapes, no control
/// characters in strings) and hands back byte ranges, so values can be copied into the
/// stored line verbatim without decoding and re-encoding them.
struct JSONScanner {
    /// A syntax error at a byte position of the line.
    struct SyntaxError: Error {
        /// What is wrong.
        var reason: String
        /// The byte offset in the line where it was found.
        var position: Int
    }

    /// The line being scanned.
    let bytes: UnsafeRawBufferPointer
    /// The next byte to look at.
    var position = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The next non-blank byte without consuming it, or `nil` at the end. Inlined: the
    /// parser calls it before every token, and the next byte is seldom a blank.
    @inline(__always)
    mutating func peek() -> UInt8? {
        guard position < bytes.count else { return nil }
        let c = bytes[position]
        guard c == 0x20 || c == 0x09 || c == 0x0D || c == 0x0A else { return c }
        skipBlanks()
        return position < bytes.count ? bytes[position] : nil
    }

    /// Skips JSON white space.
    mutating func skipBlanks() {
        while position < bytes.count {
            let c = bytes[position]
            guard c == 0x20 || c == 0x09 || c == 0x0D || c == 0x0A else { return }
            position += 1
        }
    }

    /// Consumes `byte` (after blanks) or throws.
    mutating func expect(_ byte: UInt8, _ what: String) throws {
        guard peek() == byte else { throw error("expected \(what)") }
        position += 1
    }

    /// An error at the current position.
    func error(_ reason: String) -> SyntaxError {
        SyntaxError(reason: reason, position: position)
    }

    /// Scans a string; returns the range of the whole token, quotes included, and whether
    /// it holds escapes.
    mutating func string() throws -> (range: Range<Int>, hasEscapes: Bool) {
        guard peek() == 0x22 else { throw error("expected a string") }
        let start = position
        position += 1
        var escapes = false
        let n = bytes.count
        while position < n {
            if position + 8 <= n {
                // Straight to the first byte that needs attention, if the word holds one.
                let attention = JSONScanner.attention(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self)))
                guard attention != 0 else {
                    position += 8
                    continue
                }
                position += attention.trailingZeroBitCount >> 3
            }
            let c = bytes[position]
            if c == 0x22 {
                position += 1
                return (start..<position, escapes)
            }
            if c == 0x5C {
                escapes = true
                position += 1
                guard position < n else { break }
                switch bytes[position] {
                case 0x22, 0x5C, 0x2F, 0x62, 0x66, 0x6E, 0x72, 0x74: position += 1
                case 0x75:
                    guard position + 4 < n else { throw error("truncated \\u escape") }
                    for k in 1...4 where !isHex(bytes[position + k]) { throw error("bad \\u escape") }
                    position += 5
                default: throw error("bad escape in string")
                }
            } else if c < 0x20 {
                throw error("control character in string")
            } else if c < 0x80 {
                position += 1
            } else {
                position += try utf8Sequence(at: position)
            }
        }
        throw SyntaxError(reason: "unterminated string", position: start)
    }

    /// The high bit of each of the 8 bytes of `word` (the first in its least significant
    /// byte) that is a quote, a backslash, a control character or non-ASCII — exact up to
    /// the first such byte, which is all a string scan uses: it skips the bytes before it.
    /// Zero when a scan can skip all 8 at once.
    @inline(__always)
    private static func attention(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        // A byte's borrow reaches only the bytes above it, so each test is exact up to its
        // first zero byte.
        func zeroBytes(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
        let quote = zeroBytes(word ^ (ones &* 0x22))
        let backslash = zeroBytes(word ^ (ones &* 0x5C))
        let control = (word &- ones &* 0x20) & ~word & highs
        return quote | backslash | control | word & highs
    }

    private func isHex(_ c: UInt8) -> Bool {
        (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102)
    }

    /// The length of the valid multi-byte UTF-8 sequence at `i`, or throws.
    private func utf8Sequence(at i: Int) throws -> Int {
        let c = bytes[i]
        let n = bytes.count
        func cont(_ k: Int, _ lo: UInt8 = 0x80, _ hi: UInt8 = 0xBF) -> Bool {
            i + k < n && bytes[i + k] >= lo && bytes[i + k] <= hi
        }
        switch c {
        case 0xC2...0xDF where cont(1): return 2
        case 0xE0 where cont(1, 0xA0) && cont(2): return 3
        case 0xE1...0xEC where cont(1) && cont(2), 0xEE...0xEF where cont(1) && cont(2): return 3
        case 0xED where cont(1, 0x80, 0x9F) && cont(2): return 3
        case 0xF0 where cont(1, 0x90) && cont(2) && cont(3): return 4
        case 0xF1...0xF3 where cont(1) && cont(2) && cont(3): return 4
        case 0xF4 where cont(1, 0x80, 0x8F) && cont(2) && cont(3): return 4
        default: throw SyntaxError(reason: "invalid UTF-8", position: i)
        }
    }

    /// Scans a number; returns its range and whether it is an integer (no fraction or exponent).
    /// Throws if the grammar is wrong or the value is not finite as a Double.
    mutating func number() throws -> (range: Range<Int>, isInteger: Bool) {
        skipBlanks()
        let start = position
        let n = bytes.count
        func digit(_ k: Int) -> Bool { k < n && bytes[k] >= 48 && bytes[k] <= 57 }
        if position < n, bytes[position] == 45 { position += 1 }
        guard digit(position) else { throw error("expected a number") }
        if bytes[position] == 48 {
            position += 1
        } else {
            while digit(position) { position += 1 }
        }
        var integer = true
        if position < n, bytes[position] == 46 {
            integer = false
            position += 1
            guard digit(position) else { throw error("expected digits after the decimal point") }
            while digit(position) { position += 1 }
        }
        if position < n, bytes[position] == 101 || bytes[position] == 69 {
            integer = false
            position += 1
            if position < n, bytes[position] == 43 || bytes[position] == 45 { position += 1 }
            guard digit(position) else { throw error("expected digits in the exponent") }
            while digit(position) { position += 1 }
            guard doubleValue(start..<position)?.isFinite == true else {
                throw SyntaxError(reason: "number is not finite", position: start)
            }
        } else if position - start > 300 {
            throw SyntaxError(reason: "number is not finite", position: start)
        }
        return (start..<position, integer)
    }

    /// Scans `true` or `false`; returns the value.
    mutating func boolean() throws -> Bool {
        if matchLiteral("true") { return true }
        if matchLiteral("false") { return false }
        throw error("expected true or false")
    }

    /// Consumes the literal `word` if it is next.
    mutating func matchLiteral(_ word: StaticString) -> Bool {
        skipBlanks()
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        for k in 0..<count where bytes[position + k] != word.utf8Start[k] { return false }
        position += count
        return true
    }

    /// The text of a range as a `Double` (Swift's parser, correctly rounded).
    func doubleValue(_ range: Range<Int>) -> Double? {
        Double(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self))
    }

    /// Whether the bytes in `range` equal `text`.
    func equals(_ range: Range<Int>, _ text: StaticString) -> Bool {
        guard range.count == text.utf8CodeUnitCount else { return false }
        for k in 0..<range.count where bytes[range.lowerBound + k] != text.utf8Start[k] { return false }
        return true
    }
}

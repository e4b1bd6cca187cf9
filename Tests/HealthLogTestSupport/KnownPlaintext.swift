/// What a known-plaintext scan of bytes written for an encrypted store looks for: a
/// sample's UUID as text and as its 16 raw bytes (in either byte order), other strings of
/// it, and the magic number that opens an LZ4 frame.
public enum KnownPlaintext {
    /// The magic number of an LZ4 frame, as stored (`04 22 4D 18`).
    public static let lz4Magic: [UInt8] = [0x04, 0x22, 0x4D, 0x18]

    /// The needles for a UUID given as its two halves: its text (upper and lower case) and
    /// its 16 bytes big- and little-endian half by half.
    public static func uuidNeedles(high: UInt64, low: UInt64) -> [[UInt8]] {
        func hex(_ v: UInt64) -> String {
            let s = String(v, radix: 16, uppercase: true)
            return String(repeating: "0", count: 16 - s.count) + s
        }
        let h = hex(high) + hex(low)
        let chars = Array(h)
        let text = String(chars[0..<8]) + "-" + String(chars[8..<12]) + "-" + String(chars[12..<16]) + "-" + String(chars[16..<20]) + "-" + String(chars[20..<32])
        var big: [UInt8] = []
        var little: [UInt8] = []
        withUnsafeBytes(of: high.bigEndian) { big.append(contentsOf: $0) }
        withUnsafeBytes(of: low.bigEndian) { big.append(contentsOf: $0) }
        withUnsafeBytes(of: high.littleEndian) { little.append(contentsOf: $0) }
        withUnsafeBytes(of: low.littleEndian) { little.append(contentsOf: $0) }
        return [Array(text.utf8), Array(text.lowercased().utf8), big, little]
    }

    /// Whether `needle` occurs in `haystack`.
    public static func contains(_ needle: [UInt8], in haystack: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        let first = needle[0]
        var at = 0
        while at <= haystack.count - needle.count {
            if haystack[at] == first, haystack[at..<at + needle.count].elementsEqual(needle) { return true }
            at += 1
        }
        return false
    }

    /// The needles of `needles` found in `haystack`, each in hexadecimal.
    public static func found(_ needles: [[UInt8]], in haystack: [UInt8]) -> [String] {
        needles.filter { contains($0, in: haystack) }.map { $0.map { String($0, radix: 16) }.joined(separator: " ") }
    }
}

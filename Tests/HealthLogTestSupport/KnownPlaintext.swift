import Foundation

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

    /// The needles of `needles` found in `haystack`, each in hexadecimal, in the order
    /// given. One pass over `haystack` for all needles of four bytes or more (thousands of
    /// UUIDs are looked for in megabytes), keyed by their first four bytes.
    public static func found(_ needles: [[UInt8]], in haystack: [UInt8]) -> [String] {
        var byPrefix: [UInt32: [Int]] = [:]
        var firstTwo = [Bool](repeating: false, count: 1 << 16)
        var hit = [Bool](repeating: false, count: needles.count)
        for (n, needle) in needles.enumerated() {
            guard needle.count >= 4 else {
                hit[n] = contains(needle, in: haystack)
                continue
            }
            byPrefix[prefix(needle, 0), default: []].append(n)
            firstTwo[Int(needle[0]) << 8 | Int(needle[1])] = true
        }
        haystack.withUnsafeBufferPointer { bytes in
            guard bytes.count >= 4 else { return }
            for at in 0...(bytes.count - 4) where firstTwo[Int(bytes[at]) << 8 | Int(bytes[at + 1])] {
                guard let candidates = byPrefix[prefix(bytes, at)] else { continue }
                for n in candidates where !hit[n] && at + needles[n].count <= bytes.count {
                    hit[n] = needles[n].indices.allSatisfy { needles[n][$0] == bytes[at + $0] }
                }
            }
        }
        return needles.indices.filter { hit[$0] }.map { needles[$0].map { String($0, radix: 16) }.joined(separator: " ") }
    }

    /// The four bytes of `bytes` at `at` as one number.
    private static func prefix<C: RandomAccessCollection<UInt8>>(_ bytes: C, _ at: Int) -> UInt32 where C.Index == Int {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }

    /// The UUID of sample `n`: random-looking (version 4), so its raw bytes are distinctive.
    public static func sampleUUID(_ n: Int) -> (high: UInt64, low: UInt64) {
        var random = SeededRandom(state: UInt64(n) &* 0x9E37_79B9 &+ 17)
        return (random.next() & 0xFFFF_FFFF_FFFF_0FFF | 0x4000, random.next() & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000)
    }

    /// The start of sample `n`, in microseconds since 1970: `n` seconds after 2024-03-01T08:00:00Z.
    public static func sampleStart(_ n: Int) -> Int64 { (1_709_280_000 + Int64(n)) * 1_000_000 }

    /// Sample `n`: a heart rate from the source "Known Source Alpha", as an NDJSON line.
    public static func sampleLine(_ n: Int) -> String {
        let id = sampleUUID(n)
        let chars = Array(hex(id.high) + hex(id.low))
        let text = "\(String(chars[0..<8]))-\(String(chars[8..<12]))-\(String(chars[12..<16]))-\(String(chars[16..<20]))-\(String(chars[20...]))"
        let seconds = 8 * 3_600 + n
        let start = "2024-03-\(pad(1 + seconds / 86_400))T\(pad(seconds % 86_400 / 3_600)):\(pad(seconds % 3_600 / 60)):\(pad(seconds % 60))Z"
        return #"{"uuid":"\#(text)","type":"HKQuantityTypeIdentifierHeartRate","start":"\#(start)","value":\#(60 + n % 50),"unit":"count/min","source":"Known Source Alpha"}"# + "\n"
    }

    /// What a scan for samples `samples` looks for: their UUIDs (text and raw) and start
    /// times (raw microseconds), their type and source. (Not LZ4's four-byte magic: it
    /// turns up by chance about once in 4 GB of ciphertext, so a scan of megabytes may
    /// find it; look for it only where a frame could be.)
    public static func sampleNeedles(_ samples: [Int]) -> [[UInt8]] {
        samples.flatMap { n in
            var start: [UInt8] = []
            withUnsafeBytes(of: sampleStart(n).littleEndian) { start.append(contentsOf: $0) }
            return uuidNeedles(high: sampleUUID(n).high, low: sampleUUID(n).low) + [start]
        } + [Array("HKQuantityTypeIdentifierHeartRate".utf8), Array("Known Source Alpha".utf8)]
    }

    /// The regular files under `directory` that this process, or process `pid`, holds open
    /// (unlinked ones included), with their bytes, read through `/proc` (Linux).
    public static func openFiles(of pid: Int32? = nil, under directory: String) -> [(path: String, bytes: [UInt8])] {
        let fds = "/proc/\(pid.map(String.init) ?? "self")/fd"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: fds) else { return [] }
        return entries.compactMap { entry in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: fds + "/" + entry), target.hasPrefix(directory + "/"),
                let bytes = FileManager.default.contents(atPath: fds + "/" + entry)
            else { return nil }
            return (target, [UInt8](bytes))
        }
    }

    /// `value` in 16 upper-case hexadecimal digits.
    private static func hex(_ value: UInt64) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 16 - text.count) + text
    }

    /// `value` (below 100) in two decimal digits.
    private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

/// Zips made in tests, as libarchive reads them: entries stored (method 0), or deflated
/// (method 8) as a prefix, one pattern repeated, and a suffix, where the repeats are
/// back-references of 258 bytes in a fixed-Huffman block, so a file of hundreds of MiB
/// takes a few MiB (a zip bomb) and is made in a moment.
public enum CraftedZip {
    /// One file of a zip.
    public struct Entry: Sendable {
        /// Its path in the zip.
        public var path: String
        /// Its bytes as the zip holds them.
        public var stored: [UInt8]
        /// 0 (stored) or 8 (deflated).
        public var method: Int
        /// Its size unpacked.
        public var size: Int
        /// Its CRC-32 (0 for a repeated entry, which the import never reads to its end).
        public var crc: UInt32
    }

    /// An entry holding `bytes` as they are.
    public static func stored(_ path: String, _ bytes: [UInt8]) -> Entry {
        Entry(path: path, stored: bytes, method: 0, size: bytes.count, crc: crc32(bytes))
    }

    /// An entry that unpacks to `prefix`, `pattern` over and over to at least `size`
    /// bytes in all, then `suffix`. Its CRC-32 is left 0: nothing reads it to its end.
    public static func repeated(_ path: String, prefix: [UInt8], pattern: [UInt8], size: Int, suffix: [UInt8]) -> Entry {
        var bits = BitWriter()
        bits.put(1, count: 1)  // BFINAL
        bits.put(1, count: 2)  // BTYPE 01: fixed Huffman codes
        for byte in prefix + pattern { bits.literal(byte) }
        var written = prefix.count + pattern.count
        // Each copy of 258 bytes back is the same bits, so eight copies are a whole number
        // of bytes, written a byte at a time (a gigabyte is four million copies).
        var eight = BitWriter()
        for _ in 0..<8 { eight.copy(distance: pattern.count) }
        let block = eight.finished
        while written + 8 * 258 <= size - suffix.count {
            bits.put(block)
            written += 8 * 258
        }
        while written + 258 <= size - suffix.count {
            bits.copy(distance: pattern.count)
            written += 258
        }
        for byte in suffix { bits.literal(byte) }
        written += suffix.count
        bits.code(0, count: 7)  // end of block
        return Entry(path: path, stored: bits.finished, method: 8, size: written, crc: 0)
    }

    /// The zip holding `entries` in order.
    public static func make(_ entries: [Entry]) -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        func u16(_ v: Int, _ to: inout [UInt8]) { to += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: UInt32, _ to: inout [UInt8]) { to += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
        for entry in entries {
            let name = Array(entry.path.utf8)
            let offset = UInt32(out.count)
            u32(0x0403_4B50, &out)
            u16(20, &out); u16(0x0800, &out); u16(entry.method, &out); u16(0, &out); u16(0x21, &out)
            u32(entry.crc, &out); u32(UInt32(entry.stored.count), &out); u32(UInt32(entry.size), &out)
            u16(name.count, &out); u16(0, &out)
            out += name + entry.stored
            u32(0x0201_4B50, &central)
            u16(20, &central); u16(20, &central); u16(0x0800, &central); u16(entry.method, &central); u16(0, &central); u16(0x21, &central)
            u32(entry.crc, &central); u32(UInt32(entry.stored.count), &central); u32(UInt32(entry.size), &central)
            u16(name.count, &central); u16(0, &central); u16(0, &central); u16(0, &central); u16(0, &central)
            u32(0o100644 << 16, &central); u32(offset, &central)
            central += name
        }
        let centralOffset = UInt32(out.count)
        out += central
        u32(0x0605_4B50, &out)
        u16(0, &out); u16(0, &out); u16(entries.count, &out); u16(entries.count, &out)
        u32(UInt32(central.count), &out); u32(centralOffset, &out); u16(0, &out)
        return out
    }

    /// CRC-32 (IEEE 802.3, reflected, as zip uses it).
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// Deflate's bits: fields least significant bit first, Huffman codes most significant
    /// bit first.
    private struct BitWriter {
        var bytes: [UInt8] = []
        private var pending: UInt32 = 0
        private var pendingCount = 0

        /// Writes the low `count` bits of `value`, least significant first.
        mutating func put(_ value: Int, count: Int) {
            for k in 0..<count { bit((value >> k) & 1) }
        }

        /// Writes a Huffman code of `count` bits, most significant first.
        mutating func code(_ value: Int, count: Int) {
            for k in stride(from: count - 1, through: 0, by: -1) { bit((value >> k) & 1) }
        }

        /// A literal byte in the fixed code.
        mutating func literal(_ byte: UInt8) {
            if byte < 144 { code(0x30 + Int(byte), count: 8) } else { code(0x190 + Int(byte) - 144, count: 9) }
        }

        /// Writes the bits of `bytes`, each byte least significant bit first.
        mutating func put(_ bytes: [UInt8]) {
            for byte in bytes {
                let bits = UInt32(pending) | UInt32(byte) << UInt32(pendingCount)
                self.bytes.append(UInt8(truncatingIfNeeded: bits))
                pending = bits >> 8
            }
        }

        /// A copy of 258 bytes from `distance` back (length code 285).
        mutating func copy(distance: Int) {
            code(0b1100_0101, count: 8)
            self.distance(distance)
        }

        /// A distance (1…32768) in the fixed code: its 5-bit code, then its extra bits.
        mutating func distance(_ d: Int) {
            var base = 1
            var extra = 0
            var symbol = 0
            while true {
                let span = 1 << extra
                if d < base + 2 * span || symbol >= 28 {
                    let second = d >= base + span ? 1 : 0
                    code(symbol + second, count: 5)
                    put(d - base - second * span, count: extra)
                    return
                }
                base += 2 * span
                symbol += 2
                if symbol >= 4 { extra += 1 }
            }
        }

        /// The bytes written, the last one padded with zero bits.
        var finished: [UInt8] {
            var copy = self
            while copy.pendingCount != 0 { copy.bit(0) }
            return copy.bytes
        }

        private mutating func bit(_ b: Int) {
            pending |= UInt32(b) << UInt32(pendingCount)
            pendingCount += 1
            if pendingCount == 8 {
                bytes.append(UInt8(pending))
                pending = 0
                pendingCount = 0
            }
        }
    }
}


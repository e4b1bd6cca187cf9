/// A minimal zip writer for the import tests: entries stored uncompressed (method 0), with
/// their CRC-32, local headers and a central directory, as libarchive reads them.
enum StoredZip {
    /// The zip holding `entries` (path, content) in order.
    static func make(_ entries: [(path: String, bytes: [UInt8])]) -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        func u16(_ v: Int, _ to: inout [UInt8]) { to += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: UInt32, _ to: inout [UInt8]) { to += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
        for entry in entries {
            let name = Array(entry.path.utf8)
            let crc = crc32(entry.bytes)
            let offset = UInt32(out.count)
            u32(0x0403_4B50, &out)
            u16(20, &out); u16(0x0800, &out); u16(0, &out); u16(0, &out); u16(0x21, &out)
            u32(crc, &out); u32(UInt32(entry.bytes.count), &out); u32(UInt32(entry.bytes.count), &out)
            u16(name.count, &out); u16(0, &out)
            out += name + entry.bytes
            u32(0x0201_4B50, &central)
            u16(20, &central); u16(20, &central); u16(0x0800, &central); u16(0, &central); u16(0, &central); u16(0x21, &central)
            u32(crc, &central); u32(UInt32(entry.bytes.count), &central); u32(UInt32(entry.bytes.count), &central)
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
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

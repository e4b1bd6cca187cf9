/// CRC-32C (Castagnoli, polynomial 0x82F63B78, reflected), the checksum of every header,
/// frame and sidecar in the store. Computed slicing-by-8 over eight 256-entry tables.
enum CRC32C {
    /// The eight lookup tables, built once, laid end to end (table k at k × 256).
    private static let table: [UInt32] = {
        var tables = [[UInt32]](repeating: [UInt32](repeating: 0, count: 256), count: 8)
        for n in 0..<256 {
            var crc = UInt32(n)
            for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
            tables[0][n] = crc
        }
        for n in 0..<256 {
            for k in 1..<8 {
                let previous = tables[k - 1][n]
                tables[k][n] = (previous >> 8) ^ tables[0][Int(previous & 0xFF)]
            }
        }
        return tables.flatMap { $0 }
    }()

    /// The CRC-32C of `bytes`, continuing from `seed` (the CRC of what came before, or 0).
    static func checksum(_ bytes: UnsafeRawBufferPointer, seed: UInt32 = 0) -> UInt32 {
        var crc = ~seed
        return table.withUnsafeBufferPointer { t in
            var i = 0
            let count = bytes.count
            while i + 8 <= count {
                let lo = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt32.self)) ^ crc
                let hi = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: i + 4, as: UInt32.self))
                crc = t[7 * 256 + Int(lo & 0xFF)] ^ t[6 * 256 + Int((lo >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((lo >> 16) & 0xFF)] ^ t[4 * 256 + Int(lo >> 24)]
                    ^ t[3 * 256 + Int(hi & 0xFF)] ^ t[2 * 256 + Int((hi >> 8) & 0xFF)]
                    ^ t[1 * 256 + Int((hi >> 16) & 0xFF)] ^ t[Int(hi >> 24)]
                i += 8
            }
            while i < count {
                crc = t[Int((crc ^ UInt32(bytes[i])) & 0xFF)] ^ (crc >> 8)
                i += 1
            }
            return ~crc
        }
    }

    /// The CRC-32C of a byte array slice.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0) }
    }
}

internal import CCRC32C

/// CRC-32C (Castagnoli, polynomial 0x82F63B78, reflected), the checksum of every header,
/// frame and sidecar in the store. Computed by the CPU's CRC-32C instruction (SSE4.2 on
/// x86-64, the CRC extension on ARMv8) through the small C target `CCRC32C`, or by a
/// slicing-by-8 table on a CPU without one.
enum CRC32C {
    /// The CRC-32C of `bytes`, continuing from `seed` (the CRC of what came before, or 0).
    static func checksum(_ bytes: UnsafeRawBufferPointer, seed: UInt32 = 0) -> UInt32 {
        healthlog_crc32c(seed, bytes.baseAddress, bytes.count)
    }

    /// The CRC-32C of a byte array slice.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0) }
    }
}

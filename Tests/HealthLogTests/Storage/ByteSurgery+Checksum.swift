@testable import HealthLog
import HealthLogTestSupport

extension ByteSurgery {
    /// Recomputes the CRC-32C of `range` and stores it little-endian at `offset`: the
    /// "fix the checksum" step that turns a bit flip into a well-formed but different value.
    static func rechecksum(_ path: String, range: Range<Int>, storedAt offset: Int) throws {
        let bytes = try read(path)
        let crc = CRC32C.checksum(bytes[range])
        try patch(path, at: offset, with: withUnsafeBytes(of: crc.littleEndian) { Array($0) })
    }
}

import HealthLogTestSupport
@testable import HealthLog

extension UUIDRun {
    /// Writes the run of `entries` covering `from...to` into `directory` as older builds wrote
    /// their sealed UUID index in `uuids/`: this 32-byte layout tagged `HLUR` (version 1), its
    /// header CRC-32C at byte 40 and the reserved word after it. Returns its path.
    static func writeAsOlderBuild(_ entries: [Entry], from: UInt64, to: UInt64, directory: String) throws -> String {
        let path = try write(entries, from: from, to: to, directory: directory)
        var bytes = try ByteSurgery.read(path)
        bytes.replaceSubrange(0..<4, with: Array("HLUR".utf8))
        let seal = CRC32C.checksum(bytes[0..<40])
        bytes.replaceSubrange(40..<48, with: withUnsafeBytes(of: seal.littleEndian) { Array($0) } + [0, 0, 0, 0])
        try ByteSurgery.write(bytes, to: path)
        return path
    }
}

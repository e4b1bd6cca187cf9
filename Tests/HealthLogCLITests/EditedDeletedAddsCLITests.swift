import Foundation
import HealthLogTestSupport
import Testing

/// `uuids/deleted-adds` edited within its own store (extra sequence numbers of live samples,
/// its block table and header checksums recomputed, its binding to the log untouched),
/// through the real binary: `replay` and `export` print what they print for the same store
/// with no derived files at all, and the next writer rebuilds the file from the log.
@Suite("Deleted-add index edited within its store")
struct EditedDeletedAddsCLITests {
    /// CRC-32C (Castagnoli, reflected), the checksum of the store's small files.
    static func crc32c(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        }
        return ~crc
    }

    static func u64(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
        (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
    }

    static func bytes<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    /// The entries of the file `bytes` (`Format.md`, "Deleted-add index").
    static func entries(_ bytes: [UInt8]) -> [UInt64] {
        let count = Int(u64(bytes, 16))
        let start = bytes.count - count * 8
        return (0..<count).map { u64(bytes, start + $0 * 8) }
    }

    /// The file `bytes` listing `entries` instead, its header fields (covered number,
    /// binding) kept and every checksum recomputed.
    static func edited(_ bytes: [UInt8], entries: [UInt64]) -> [UInt8] {
        var table: [UInt8] = []
        var body: [UInt8] = []
        for start in stride(from: 0, to: entries.count, by: 1024) {
            let block = entries[start..<min(entries.count, start + 1024)].flatMap { Self.bytes($0) }
            table += Self.bytes(entries[start]) + Self.bytes(crc32c(block[...])) + Self.bytes(UInt32(0))
            body += block
        }
        var header = Array(bytes[0..<16]) + Self.bytes(UInt64(entries.count)) + Self.bytes(UInt32(table.count / 16)) + Self.bytes(crc32c(table[...]))
        header += bytes[32..<56]
        header += Self.bytes(crc32c(header[...]))
        return header + table + body
    }

    /// What `replay` (all types, and heart rate alone) and `export` print for `store`.
    static func answers(_ store: String) throws -> [String] {
        try [["replay", "--from", "0"], ["replay", "--from", "0", "--type", "HeartRate"], ["replay", "--from", "0", "--type", "HeartRate", "--limit", "7"], ["export"]].map { arguments in
            let result = try HealthLogBinary.run(["--store", store] + arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result.stdout
        }
    }

    /// Removes every derived file of `store`: the segment indexes and everything in `uuids/`.
    static func removeDerivedFiles(_ store: String) throws {
        for directory in ["uuids", "segments"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: store + "/" + directory) where directory == "uuids" || name.hasSuffix(".idx") {
                try FileManager.default.removeItem(atPath: store + "/" + directory + "/" + name)
            }
        }
    }

    @Test("replay and export print what they print with no derived files when deleted-adds lists live samples too, with or without deletes in the log; the next writer rebuilds it", arguments: [[2, 4, 9, 12, 21], []])
    func editedIndexHidesNothing(_ deleting: [Int]) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (edited, bare) = (dir.file("edited"), dir.file("bare"))
        let input = dir.file("events.ndjson")
        try Events.lines(1...40).write(toFile: input, atomically: true, encoding: .utf8)
        let deletes = dir.file("deletes.ndjson")
        try Events.lines(41...45, deleting: deleting).write(toFile: deletes, atomically: true, encoding: .utf8)
        for file in [input, deletes] {
            let appended = try HealthLogBinary.run(["--store", edited, "append", file])
            #expect(appended.status == 0, "\(appended.stderr)")
        }
        try FileManager.default.copyItem(atPath: edited, toPath: bare)
        try Self.removeDerivedFiles(bare)

        let path = edited + "/uuids/deleted-adds"
        let original = try ByteSurgery.read(path)
        let listed = Self.entries(original)
        #expect(listed.count == deleting.count)
        // Every heart rate the log holds, live or deleted: a reader taking the file would hide all.
        let heartRates = (1...45).filter { $0 % 3 == 0 }.map(UInt64.init)
        try ByteSurgery.write(Self.edited(original, entries: Set(listed).union(heartRates).sorted()), to: path)
        #expect(Self.entries(try ByteSurgery.read(path)).count > listed.count)

        let expected = try Self.answers(bare)
        #expect(expected[1].contains("HeartRate"))
        #expect(try Self.answers(edited) == expected)
        let verified = try HealthLogBinary.run(["--store", edited, "verify"])
        #expect(verified.status == 1 && (verified.stdout + verified.stderr).contains("uuids/deleted-adds at byte"), "\(verified.stdout)\(verified.stderr)")

        let added = try HealthLogBinary.run(["--store", edited, "add", "--uuid", Events.uuid(46), "--type", "HeartRate", "--value", "70", "--unit", "count/min"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(Self.entries(try ByteSurgery.read(path)) == listed, "rebuilt from the log")
        #expect(try HealthLogBinary.run(["--store", edited, "verify"]).status == 0)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import HealthLogTestSupport
import Testing

/// The scratch files of an append to an encrypted store, from the outside: `healthlog
/// append` is fed more events than it holds in memory (so a UUID run and the stub spill go
/// to `$TMPDIR`), its open scratch files are read through `/proc` while it waits for more
/// input, then it is killed with SIGKILL, and every byte it wrote under `$TMPDIR` is
/// searched for the samples' UUIDs (text and raw bytes), start times (raw microseconds),
/// type and source.
@Suite("Sealed scratch files")
struct ScratchSealingCLITests {
    /// Events fed before the append is sampled: more than a UUID-run chunk (2¹⁸ events), with
    /// room for the lines the append reads ahead of those it records.
    static let events = 330_000

    /// The UUID of event `n`: random-looking, so its raw bytes are distinctive.
    static func uuid(_ n: Int) -> (high: UInt64, low: UInt64) {
        var random = SeededRandom(state: UInt64(n) &* 0x9E37_79B9 &+ 17)
        return (random.next() & 0xFFFF_FFFF_FFFF_0FFF | 0x4000, random.next() & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000)
    }

    /// The start of event `n`, in microseconds since 1970: `n` seconds after 2024-03-01T08:00:00Z.
    static func startMicroseconds(_ n: Int) -> Int64 { (1_709_280_000 + Int64(n)) * 1_000_000 }

    /// Event `n` as a line.
    static func line(_ n: Int) -> String {
        let id = uuid(n)
        let chars = Array(hex(id.high, 16) + hex(id.low, 16))
        let text = "\(String(chars[0..<8]))-\(String(chars[8..<12]))-\(String(chars[12..<16]))-\(String(chars[16..<20]))-\(String(chars[20...]))"
        let seconds = 8 * 3_600 + n
        let start = "2024-03-\(pad(1 + seconds / 86_400))T\(pad(seconds % 86_400 / 3_600)):\(pad(seconds % 3_600 / 60)):\(pad(seconds % 60))Z"
        return #"{"uuid":"\#(text)","type":"HKQuantityTypeIdentifierHeartRate","start":"\#(start)","value":\#(60 + n % 50),"unit":"count/min","source":"Known Source Alpha"}"# + "\n"
    }

    /// `value` in `digits` upper-case hexadecimal digits.
    private static func hex(_ value: UInt64, _ digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: digits - text.count) + text
    }

    /// `value` (below 100) in two decimal digits.
    private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// What the scan looks for: some events' UUIDs and start times, the type and the source.
    static var needles: [[UInt8]] {
        let sampled = [1, 2, 777, 16_000, 100_000, 262_000]
        return sampled.flatMap { n in
            var start: [UInt8] = []
            withUnsafeBytes(of: startMicroseconds(n).littleEndian) { start.append(contentsOf: $0) }
            return KnownPlaintext.uuidNeedles(high: uuid(n).high, low: uuid(n).low) + [start]
        } + [Array("HKQuantityTypeIdentifierHeartRate".utf8), Array("Known Source Alpha".utf8), KnownPlaintext.lz4Magic]
    }

    #if os(Linux)
    @Test(
        "An append to an encrypted store leaves no sample content in its UUID runs and stub spill under $TMPDIR, killed or running; a plaintext store's are as before",
        .timeLimit(.minutes(10)), arguments: [true, false])
    func killedAppend(encrypted: Bool) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let tmp = dir.file("tmp")
        #expect(mkdir(tmp, 0o700) == 0)
        let store = dir.file("store")
        let made = try HealthLogBinary.run(["--store", store, "append"], stdin: Self.line(0))
        try #require(made.status == 0, "\(made.stderr)")
        if encrypted {
            let meta = String(decoding: try ByteSurgery.read(store + "/meta"), as: UTF8.self)
            try ByteSurgery.write(Array((meta.replacingOccurrences(of: "format 1\n", with: "format 2\n") + "encryption xchacha20poly1305\n").utf8), to: store + "/meta")
        }
        var input = ""
        input.reserveCapacity(Self.events * 190)
        for n in 1...Self.events { input += Self.line(n) }

        let process = HealthLogBinary.program.process(["--store", store, "append"], environment: ["TMPDIR": tmp])
        let feed = Pipe()
        process.standardInput = feed
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        // Every event goes in, but the input stays open: the append waits for more, with its
        // scratch files in place.
        let writer = Task.detached { try feed.fileHandleForWriting.write(contentsOf: Data(input.utf8)) }
        try await writer.value
        let runWritten = try await eventually(within: 300, every: .milliseconds(50)) { !(try Self.runFiles(in: tmp)).isEmpty }
        #expect(runWritten, "a UUID run went to $TMPDIR")
        #expect(await eventually(within: 60) { !Self.openScratchFiles(pid, under: tmp).isEmpty }, "the stub spill is open")

        var scanned: [(String, [UInt8])] = Self.openScratchFiles(pid, under: tmp)
        kill(pid, SIGKILL)
        process.waitUntilExit()
        try? feed.fileHandleForWriting.close()
        for path in try Self.runFiles(in: tmp) { scanned.append((path, try ByteSurgery.read(path))) }

        #expect(scanned.contains { $0.0.contains("healthlog-stubs-") && $0.1.count > 16_384 * 36 }, "the stub spill holds written-out stubs")
        #expect(scanned.contains { $0.0.hasSuffix(".run") && $0.1.count > 262_144 * 32 }, "a UUID run outlived the kill")
        let found = scanned.map { (path, bytes) in (path, KnownPlaintext.found(Self.needles, in: bytes)) }
        if encrypted {
            for (path, needles) in found { #expect(needles.isEmpty, "\(path) holds \(needles)") }
        } else {
            #expect(found.filter { !$0.1.isEmpty }.count == scanned.count, "the scan finds a plaintext store's samples in each scratch file")
        }
    }
    #endif

    /// The UUID runs under `tmp` (in the scratch directories appends make there).
    static func runFiles(in tmp: String) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: tmp).filter { $0.hasSuffix(".run") }.map { tmp + "/" + $0 }
    }

    /// The files under `tmp` (unlinked ones included) that process `pid` holds open, with
    /// their bytes, read through `/proc`.
    static func openScratchFiles(_ pid: Int32, under tmp: String) -> [(String, [UInt8])] {
        let fds = "/proc/\(pid)/fd"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: fds) else { return [] }
        return entries.compactMap { entry in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: fds + "/" + entry), target.hasPrefix(tmp + "/"),
                let bytes = FileManager.default.contents(atPath: fds + "/" + entry)
            else { return nil }
            return (target, [UInt8](bytes))
        }
    }
}

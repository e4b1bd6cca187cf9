#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import HealthLogTestSupport
import Testing

/// The scratch files of `healthlog append` to an encrypted store, from the outside: the
/// append is fed more events than it holds in memory (so a UUID run and the stub spill go
/// to `$TMPDIR`), its open scratch files are read through `/proc` while it waits for more
/// input, then it is killed with SIGKILL, and every byte under `$TMPDIR` and in the store's
/// segments is searched for the samples' UUIDs (text and raw bytes), start times (raw
/// microseconds), type and source. It runs where `healthlog init --encrypt` makes a store
/// that a passphrase in `HEALTHLOG_PASSPHRASE` opens.
@Suite("Sealed scratch files")
struct ScratchSealingCLITests {
    /// Events fed before the append is sampled: more than two UUID-run chunks (2¹⁵ events each), with
    /// room for the lines the append reads ahead of those it records.
    static let events = 100_000
    /// The store's passphrase.
    static let environment = ["HEALTHLOG_PASSPHRASE": "correct horse battery staple"]

    /// Whether `healthlog init --encrypt` makes an encrypted store here.
    static let encryptedInitWorks: Bool = {
        guard let dir = try? TemporaryDirectory() else { return false }
        defer { dir.remove() }
        let made = try? HealthLogBinary.run(["--store", dir.file("store"), "init", "--encrypt"], environment: environment)
        return made?.status == 0
    }()

    #if os(Linux)
    @Test(
        "An append to an encrypted store, killed with a UUID run and a stub spill written, leaves no sample content under $TMPDIR or in the segments",
        .enabled(if: encryptedInitWorks), .timeLimit(.minutes(10)))
    func killedAppend() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let tmp = dir.file("tmp")
        #expect(mkdir(tmp, 0o700) == 0)
        let store = dir.file("store")
        let made = try HealthLogBinary.run(["--store", store, "init", "--encrypt"], environment: Self.environment)
        try #require(made.status == 0, "\(made.stderr)")
        var input: [UInt8] = []
        input.reserveCapacity(Self.events * 190)
        for n in 1...Self.events { input += Array(KnownPlaintext.sampleLine(n).utf8) }

        let process = HealthLogBinary.program.process(["--store", store, "append"], environment: Self.environment.merging(["TMPDIR": tmp]) { $1 })
        let feed = Pipe()
        process.standardInput = feed
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        // Every event goes in, but the input stays open: the append waits for more, with its
        // scratch files in place.
        let writer = Task.detached { try feed.fileHandleForWriting.write(contentsOf: Data(input)) }
        try await writer.value
        let runWritten = await eventually(within: 300, every: .milliseconds(50)) { !DirectoryFiles.names(tmp).filter { $0.hasSuffix(".run") }.isEmpty }
        #expect(runWritten, "a UUID run went to $TMPDIR")
        var scanned = KnownPlaintext.openFiles(of: pid, under: tmp)
        kill(pid, SIGKILL)
        process.waitUntilExit()
        try? feed.fileHandleForWriting.close()
        for path in DirectoryFiles.names(tmp).map({ tmp + "/" + $0 }) + DirectoryFiles.names(store + "/segments").map({ store + "/segments/" + $0 }) { scanned.append((path, try ByteSurgery.read(path))) }

        #expect(scanned.contains { $0.path.contains("healthlog-stubs-") && $0.bytes.count > 16_384 * 36 }, "the stub spill holds written-out stubs")
        #expect(scanned.contains { $0.path.hasSuffix(".run") && $0.bytes.count > 32_768 * 32 }, "a UUID run outlived the kill")
        let needles = KnownPlaintext.sampleNeedles([1, 2, 777, 16_000, 32_000, 70_000])
        for (path, bytes) in scanned {
            let hits = KnownPlaintext.found(needles, in: bytes)
            #expect(hits.isEmpty, "\(path) holds \(hits)")
        }
    }
    #endif

}

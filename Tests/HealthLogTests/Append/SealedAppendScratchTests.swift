#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import HealthLogTestSupport
import Testing
@testable import HealthLog

/// The scratch files of an append to an encrypted store, seen from outside the append: it
/// reads more events than it holds in memory from a pipe (so a UUID run and the stub spill
/// go to the scratch directory), and while it waits for more input, every scratch file it
/// holds open is read through `/proc` and searched for the samples' UUIDs (text and raw
/// bytes), start times (raw microseconds), type and source. A killed append
/// leaves exactly these bytes behind. The cases run one at a time: both feed the same samples.
@Suite("Sealed append scratch", .serialized)
struct SealedAppendScratchTests {
    /// Events per UUID-run chunk: a run is written after this many (an encrypted store's
    /// is sealed on another thread and opened at the next chunk's spill).
    static let chunkEvents = 12_000
    /// Events fed before the append is sampled: more than two UUID-run chunks and the stub
    /// spill's buffer, with room for the lines the append reads ahead of those it records.
    static let events = 70_000

    #if os(Linux)
    @Test(
        "An append to an encrypted store holds no sample content in its UUID run and stub spill; a plaintext store's hold it as before",
        .timeLimit(.minutes(10)), arguments: [true, false])
    func scratchWhileAppending(encrypted: Bool) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var options = StoreOptions()
        options.appendChunkEvents = Self.chunkEvents
        let store = encrypted ? try EncryptedSegmentTests.makeStore(dir.file("store"), options: options) : HealthStore(directory: dir.file("store"), options: options)
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        let appended = WatchedValue<String?>(nil)
        let appending = OSThread.start {
            let outcome = Result { try store.append([LineReader(fileDescriptor: readEnd, name: nil)]) }
            appended.update { $0 = (try? outcome.get()).map { "added \($0.added)" } ?? "failed: \(outcome)" }
        }
        let fed = WatchedValue(false)
        let feeding = OSThread.start {
            var input: [UInt8] = []
            input.reserveCapacity(Self.events * 190)
            for n in 1...Self.events { input += Array(KnownPlaintext.sampleLine(n).utf8) }
            var done = 0
            input.withUnsafeBytes { raw in
                while done < raw.count {
                    let n = write(writeEnd, raw.baseAddress! + done, raw.count - done)
                    if n <= 0 { break }
                    done += n
                }
            }
            fed.update { $0 = true }
        }
        #expect(appending != nil && feeding != nil)
        #expect(await fed.wait(within: 300) { $0 }, "every event went into the pipe")
        let runName = UUIDRun.fileName(from: 1, to: UInt64(Self.chunkEvents))
        let runOpen = await eventually(within: 300, every: .milliseconds(50)) {
            KnownPlaintext.openFiles(under: "").contains { $0.path.hasSuffix("/" + runName) }
        }
        #expect(runOpen, "the append wrote a UUID run")
        let scratch = KnownPlaintext.openFiles(under: "").filter {
            $0.path.hasSuffix("/" + runName) || ($0.path.contains("/healthlog-stubs-") && $0.path.hasSuffix(" (deleted)"))
        }
        close(writeEnd)
        #expect(await appended.wait(within: 300) { $0 != nil })
        feeding?.join()
        appending?.join()
        close(readEnd)
        #expect(appended.value == "added \(Self.events)")

        #expect(scratch.contains { $0.path.hasSuffix(runName) && $0.bytes.count > Self.chunkEvents * 32 }, "the run is in the scan")
        #expect(scratch.contains { $0.path.contains("healthlog-stubs-") && $0.bytes.count > 16_384 * 36 }, "a stub spill is in the scan")
        let needles = KnownPlaintext.sampleNeedles([1, 2, 777, 11_999, 16_000, 30_000])
        let found = scratch.map { ($0.path, KnownPlaintext.found(needles, in: $0.bytes)) }
        if encrypted {
            for (path, hits) in found { #expect(hits.isEmpty, "\(path) holds \(hits)") }
        } else {
            #expect(found.contains { $0.0.hasSuffix(runName) && !$0.1.isEmpty }, "the scan finds a plaintext store's UUIDs in its run")
            #expect(found.contains { $0.0.contains("healthlog-stubs-") && !$0.1.isEmpty }, "the scan finds a plaintext store's times in its stub spill")
        }
    }
    #endif
}

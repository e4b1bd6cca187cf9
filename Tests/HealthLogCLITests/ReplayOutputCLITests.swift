import Foundation
@testable import HealthLog
import HealthLogTestSupport
import Testing

/// `replay`'s NDJSON goes to stdout batch by batch straight from where the lines were
/// decoded (`writev`); through a pipe, which takes far less than the whole replay at a time,
/// every byte still arrives once and in order.
@Suite("Replay output")
struct ReplayOutputCLITests {
    @Test("A replay of megabytes through a pipe prints exactly the library's lines, whole and limited, with deletes hiding their samples")
    func megabytesThroughAPipe() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("store")
        var options = StoreOptions()
        options.batchBytes = 64 * 1024
        let store = HealthStore(directory: path, options: options)
        let metadata = String(repeating: "x", count: 300)
        var lines: [String] = []
        for i in 0..<6000 {
            lines.append(
                #"{"uuid":"\#(uuid(i))","type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T08:00:00Z","value":\#(i % 150 + 40),"unit":"count/min","metadata":{"note":"\#(metadata)"}}"#)
            if i % 11 == 10 { lines.append(#"{"op":"delete","uuid":"\#(uuid(i - 7))"}"#) }
        }
        _ = try store.append(ndjson: Array((lines.joined(separator: "\n") + "\n").utf8))
        for (arguments, request) in [([String](), ReplayRequest()), (["--limit", "2500"], ReplayRequest(limit: 2500)), (["--raw"], ReplayRequest(raw: true))] {
            var expected: [UInt8] = []
            _ = try store.replay(request) { expected += $0 }
            #expect(expected.count > 1_000_000)
            let result = try ChildProcess.runThroughPipe(HealthLogBinary.program.process(["--store", path, "replay", "--from", "0"] + arguments))
            #expect(result.status == 0)
            #expect(Array(result.stdout.utf8) == expected, "replay \(arguments)")
        }
    }

    @Test("A batch whose lines alternate between its add and delete frames (one range a line, past the 1,024 one writev takes) prints exactly the library's lines")
    func moreRangesThanOneWritevTakes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("store")
        let store = HealthStore(directory: path)
        var lines: [String] = []
        for i in 0..<1500 {
            lines.append(#"{"uuid":"\#(uuid(i))","type":"HKQuantityTypeIdentifierHeartRate","start":"2024-03-01T08:00:00Z","value":\#(i % 150 + 40),"unit":"count/min"}"#)
            lines.append(#"{"op":"delete","uuid":"\#(uuid(i))"}"#)
        }
        _ = try store.append(ndjson: Array((lines.joined(separator: "\n") + "\n").utf8))
        #expect(try LogSnapshot(StoreLayout(directory: path)).batchCount == 1, "one batch, so every line is a range of its own")
        for (arguments, request) in [(["--raw"], ReplayRequest(raw: true)), ([String](), ReplayRequest()), (["--raw", "--limit", "2900"], ReplayRequest(limit: 2900, raw: true))] {
            var expected: [UInt8] = []
            let outcome = try store.replay(request) { expected += $0 }
            #expect(outcome.delivered > 1024)
            let result = try ChildProcess.runThroughPipe(HealthLogBinary.program.process(["--store", path, "replay", "--from", "0"] + arguments))
            #expect(result.status == 0)
            #expect(Array(result.stdout.utf8) == expected, "replay \(arguments)")
        }
    }

    #if os(Linux)
    @Test("A pipe on stdout is widened to 1 MiB, so megabytes of output wait on the reader 16 times less often")
    func widensItsPipe() throws {
        let process = HealthLogBinary.program.process(["--version"])
        let output = Pipe()
        process.standardOutput = output
        let before = fcntl(output.fileHandleForReading.fileDescriptor, Self.getPipeSize)
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(before == 1 << 16)
        #expect(fcntl(output.fileHandleForReading.fileDescriptor, Self.getPipeSize) == 1 << 20)
        #expect(String(decoding: output.fileHandleForReading.availableData, as: UTF8.self).hasPrefix("healthlog "))
    }

    /// `F_GETPIPE_SZ` (`F_LINUX_SPECIFIC_BASE` + 8), which Glibc's module does not export.
    private static let getPipeSize: Int32 = 1024 + 8
    #endif

    /// The UUID of sample `n`.
    private func uuid(_ n: Int) -> String {
        let digits = String(n)
        return "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - digits.count) + digits
    }
}

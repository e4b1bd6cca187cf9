#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HealthLogTestSupport
import Testing

/// Many writers killed from the outside, at moments no test hook chooses. After
/// every round, every event of every append that exited 0 is in the log with its original
/// content, no sequence number ever names two different events, and `verify` passes.
@Suite("Killed writers")
struct KilledWritersTests {
    @Test("Writers SIGKILLed at random moments never lose an acknowledged event nor give a sequence number two events", arguments: [UInt64(9), 23])
    func randomKills(seed: UInt64) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        var random = SeededRandom(state: seed)
        var acknowledged: Set<String> = []
        var seen: [UInt64: String] = [:]
        var next = 1
        for round in 0..<24 {
            let count = random.int(1...120)
            let input = Events.lines(next...(next + count - 1))
            next += count
            let inputPath = dir.file("input-\(round)")
            try input.write(toFile: inputPath, atomically: true, encoding: .utf8)
            let writer = HealthLogBinary.program.process(["--store", store, "append", inputPath], environment: CrashTests.sizes)
            writer.standardOutput = FileHandle.nullDevice
            writer.standardError = FileHandle.nullDevice
            try writer.run()
            let delay = random.int(0...40)
            // Every fourth round is killed at once, before it can have appended anything, so
            // the run holds killed appends however late a loaded machine wakes this thread;
            // the sleep blocks the thread rather than waiting for a pool other tests keep busy.
            if round % 4 == 0 || delay < 30 {
                if round % 4 != 0 { usleep(useconds_t(delay * 1000)) }
                kill(writer.processIdentifier, SIGKILL)
            }
            writer.waitUntilExit()
            if writer.terminationReason == .exit {
                try #require(writer.terminationStatus == 0, "round \(round): exit \(writer.terminationStatus)")
                acknowledged.formUnion(Self.uuids(input))
            }

            let replay = try HealthLogBinary.run(["--store", store, "replay", "--raw"])
            try #require(replay.status == 0 || !FileManager.default.fileExists(atPath: store + "/meta"), "round \(round): \(replay.stderr)")
            var present: Set<String> = []
            for line in replay.stdout.split(separator: "\n").map(String.init) {
                let seq = try #require(Events.seqs(line).first)
                if let earlier = seen[seq] { try #require(earlier == line, "round \(round): seq \(seq) names two events") }
                seen[seq] = line
                present.formUnion(Self.uuids(line))
            }
            let missing = acknowledged.subtracting(present)
            try #require(missing.isEmpty, "round \(round): acknowledged events lost: \(missing.sorted().prefix(3))")
            if FileManager.default.fileExists(atPath: store + "/meta") {
                let verify = try HealthLogBinary.run(["--store", store, "verify"])
                try #require(verify.status == 0, "round \(round): \(verify.stdout)")
            }
        }
        #expect(!acknowledged.isEmpty && acknowledged.count < next - 1, "some appends were acknowledged and some killed")
    }

    /// The sample UUIDs named in NDJSON text.
    static func uuids(_ text: String) -> Set<String> {
        var found: Set<String> = []
        var rest = Substring(text)
        while let range = rest.range(of: #""uuid":""#) {
            found.insert(String(rest[range.upperBound...].prefix(36)))
            rest = rest[range.upperBound...]
        }
        return found
    }
}

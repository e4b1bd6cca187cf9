#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HealthLogTestSupport
import Testing

/// `compact --rekey` killed part-way, at its fault points and by SIGKILL at random moments,
/// on an encrypted store of many small segments sealed under three key epochs: every
/// acknowledged event comes back with its content, `verify` passes, both secrets open the
/// store, no sequence number names two events, and a second `compact --rekey` finishes.
@Suite("Killed rekey")
struct KilledRekeyCLITests {
    /// Many small segments (these events compress well: 600 fill one 64 KiB segment), cheap
    /// passphrase slots.
    static let environment = ["HEALTHLOG_SEGMENT_BYTES": "5000", "HEALTHLOG_BATCH_BYTES": "1500", "HEALTHLOG_TEST_WEAK_KDF": "1"]
    /// The passphrase slot's option.
    static func passphrase(_ f: KeySlotsCLITests.Fixture) -> [String] { ["--passphrase-file", f.file("p1")] }

    /// An encrypted store with slots for `p1` and `k1` and events 1...`count` appended in
    /// three parts, a key rotation after each (so a rekey rewrites every segment).
    static func seed(_ count: Int = 600) throws -> KeySlotsCLITests.Fixture {
        let f = try KeySlotsCLITests.Fixture()
        try #require(try f.run(passphrase(f) + ["key", "add", "--new-key-file", f.file("k1")], environment: environment).status == 0)
        let third = count / 3
        for part in [1...third, third + 1...2 * third, 2 * third + 1...count] {
            let appended = try f.run(passphrase(f) + ["append"], stdin: Events.lines(part), environment: environment)
            try #require(appended.status == 0, "\(appended.stderr)")
            try #require(try f.run(passphrase(f) + ["key", "rotate"], environment: environment).status == 0)
        }
        return f
    }

    /// `replay --raw` with `secret`; fails the test unless it exits 0.
    static func replay(_ f: KeySlotsCLITests.Fixture, _ secret: [String]) throws -> String {
        let replayed = try f.run(secret + ["replay", "--raw"], environment: environment)
        try #require(replayed.status == 0, "\(replayed.stderr)")
        return replayed.stdout
    }

    /// The store left by a killed rekey holds `before` exactly, under either secret, with
    /// distinct sequence numbers, and verifies; a second rekey finishes, leaves every batch
    /// and every slot under the current epoch only, and keeps all of it.
    static func checkAfterKill(_ f: KeySlotsCLITests.Fixture, _ before: String, _ label: String) throws {
        for secret in [passphrase(f), ["--key-file", f.file("k1")]] {
            #expect(try replay(f, secret) == before, "\(label): \(secret)")
        }
        let seqs = Events.seqs(before)
        #expect(Set(seqs).count == seqs.count, "\(label)")
        let verified = try f.run(passphrase(f) + ["verify"], environment: environment)
        #expect(verified.status == 0, "\(label): \(verified.stderr)")
        let again = try f.run(passphrase(f) + ["compact", "--rekey"], environment: environment)
        #expect(again.status == 0, "\(label): \(again.stderr)")
        #expect(try replay(f, ["--key-file", f.file("k1")]) == before, "\(label)")
        let listed = try f.list(passphrase(f)).split(separator: "\n").map(String.init)
        let current = try #require(listed.first { $0.hasPrefix("current epoch: ") }).dropFirst(15)
        let sealed = listed.first { $0.hasPrefix("segments sealed under: ") }
        #expect(sealed?.hasPrefix("segments sealed under: epoch \(current) (") == true && sealed?.contains(", ") == false, "\(label): \(listed)")
        #expect(listed.last?.hasPrefix("ciphers: epoch \(current) ") == true && listed.last?.contains(", ") == false, "\(label): \(listed)")
        #expect(listed[1].hasSuffix("  \(current)") && listed[2].hasSuffix("  \(current)"), "\(label): older epochs stay in the slots: \(listed)")
        #expect(try f.run(passphrase(f) + ["verify"], environment: environment).status == 0, "\(label)")
    }

    @Test(
        "compact --rekey killed at each of its fault points loses nothing, verifies, and a second rekey finishes",
        arguments: [
            "compact-segment-written", "compact-segment-written:4", "compact-synced", "compact-committed",
            "compact-checkpoint-written", "unused-segment-removed",
        ])
    func killedAtFaultPoints(_ point: String) throws {
        let f = try Self.seed()
        defer { f.dir.remove() }
        let segments = try CrashTests.segmentCount(f.store)
        try #require(segments >= 6, "too few segments to kill between: \(segments)")
        let before = try Self.replay(f, Self.passphrase(f))
        try #require(Events.seqs(before).count == 600)
        var environment = Self.environment
        environment["HEALTHLOG_TEST_FAULT"] = "kill:\(point)"
        let killed = try f.run(Self.passphrase(f) + ["compact", "--rekey"], environment: environment, tool: HealthLogBinary.faultTool)
        try #require(killed.wasSignalled, "\(point): status \(killed.status): \(killed.stderr)")
        try Self.checkAfterKill(f, before, point)
    }

    @Test("compact --rekey SIGKILLed at random moments, again and again with new epochs in between, loses nothing and a second rekey finishes")
    func randomKills() throws {
        let f = try Self.seed(300)
        defer { f.dir.remove() }
        var random = SeededRandom(state: 59)
        var next = 301
        var killed = 0
        for round in 0..<10 {
            let before = try Self.replay(f, Self.passphrase(f))
            let process = HealthLogBinary.faultTool.process(
                ["--store", f.store] + Self.passphrase(f) + ["compact", "--rekey"], environment: Self.environment)
            let finished = try ChildProcess.runKilled(process, after: random.int(0...400))
            try #require(process.terminationReason == .uncaughtSignal || finished, "round \(round): exit \(process.terminationStatus)")
            if !finished { killed += 1 }
            try Self.checkAfterKill(f, before, "round \(round)")
            // More events under a new epoch for the next round to rewrite.
            #expect(try f.run(["--key-file", f.file("k1"), "key", "rotate"], environment: Self.environment).status == 0)
            #expect(try f.run(Self.passphrase(f) + ["append"], stdin: Events.lines(next...next + 59), environment: Self.environment).status == 0)
            next += 60
        }
        #expect(killed > 0, "no round was killed part-way")
    }
}

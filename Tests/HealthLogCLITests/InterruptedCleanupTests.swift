#if canImport(Glibc)
import Glibc
#endif
import HealthLog
import HealthLogTestSupport
import Testing

/// A writer killed while it removes the segments of an append that did not finish: the
/// next writer cutting a torn tail, or a rollback of an append refused on a late bad line.
/// It must leave a prefix of the log that ends in a torn tail, never a log that starts past
/// sequence 1 or jumps a gap (which readers, `verify` and every later writer refuse as
/// damage). `KilledWritersTests` met this at random; here the kill lands on the first
/// segment removed. And the writer after such a torn tail must not try to sync the
/// segments it cut.
@Suite("Writers killed while removing an unfinished append")
struct InterruptedCleanupTests {
    /// Where the dying writer was removing segments.
    enum Cleanup: String, CustomTestStringConvertible, Sendable, CaseIterable {
        /// The next writer cutting the torn tail a killed append left.
        case cut
        /// The append itself, rolling back on a bad last line.
        case rollback

        var testDescription: String { rawValue }
    }

    /// What the store held before the unfinished append.
    enum Before: String, CustomTestStringConvertible, Sendable, CaseIterable {
        /// No store yet: the unfinished append created it.
        case nothing
        /// Five events appended without a sync, so no checkpoint vouches for them.
        case uncheckpointedAppend

        var testDescription: String { rawValue }

        /// The events committed before the unfinished append.
        var head: UInt64 { self == .nothing ? 0 : 5 }
    }

    @Test(
        "A writer killed removing an unfinished append's first segment leaves a store that reads, verifies and takes the next append",
        arguments: Cleanup.allCases, Before.allCases)
    func killedMidRemoval(_ cleanup: Cleanup, before: Before) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        if before == .uncheckpointedAppend { try Self.appendWithoutSync(store, Events.lines(1...5)) }
        let removal = "kill:unfinished-segment-removed:1"
        switch cleanup {
        case .cut:
            try Self.tear(store)
            let cutter = try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(100...102), environment: CrashTests.sizes, injecting: removal)
            #expect(cutter.wasSignalled && cutter.status == SIGKILL, "status \(cutter.status): \(cutter.stderr)")
        case .rollback:
            let refused = Self.unfinished + #"{"op":"delete","uuid":"\#(Events.uuid(999))"}"# + "\n"
            let rolling = try HealthLogBinary.run(["--store", store, "append"], stdin: refused, environment: CrashTests.sizes, injecting: removal)
            #expect(rolling.wasSignalled && rolling.status == SIGKILL, "status \(rolling.status): \(rolling.stderr)")
        }
        #expect(try CrashTests.segmentCount(store) >= 2, "the kill came before most segments were removed")

        let replay = try HealthLogBinary.run(["--store", store, "replay", "--raw"])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(Events.seqs(replay.stdout) == Array(stride(from: 1, through: before.head, by: 1)))
        let verify = try HealthLogBinary.run(["--store", store, "verify"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")

        let next = try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(100...102), environment: CrashTests.sizes)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(Events.seqs(try CrashTests.rawReplay(store)) == Array(1...(before.head + 3)))
        let healed = try HealthLogBinary.run(["--store", store, "verify"])
        #expect(healed.status == 0 && !healed.stdout.contains("note:"), "\(healed.stdout)")
    }

    @Test("After an append without sync, the next synced append cuts a torn tail across segments and syncs only what is left")
    func tornTailPastUncheckpointedAppend() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        try Self.appendWithoutSync(store, Events.lines(1...5))
        try Self.tear(store)

        let next = try HealthLogBinary.run(["--store", store, "append"], stdin: Events.lines(100...102), environment: CrashTests.sizes)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stderr.hasPrefix("healthlog: note: cut a torn tail of "), "\(next.stderr)")
        #expect(Events.seqs(try CrashTests.rawReplay(store)) == Array(1...8))
        let verify = try HealthLogBinary.run(["--store", store, "verify"])
        #expect(verify.status == 0 && !verify.stdout.contains("note:"), "\(verify.stdout)")
    }

    /// The append that does not finish: 80 events, about 28 batches across six segments or more.
    static let unfinished = Events.lines(6...85)

    /// Appends `lines` to `store` through the library without a sync, so no checkpoint
    /// vouches for them.
    static func appendWithoutSync(_ store: String, _ lines: String) throws {
        var options = StoreOptions()
        options.sync = false
        _ = try HealthStore(directory: store, options: options).append(ndjson: Array(lines.utf8))
    }

    /// Kills an append of ``unfinished`` after its 12th batch, leaving a torn tail across
    /// three segments or more.
    static func tear(_ store: String) throws {
        let torn = try HealthLogBinary.run(["--store", store, "append"], stdin: unfinished, environment: CrashTests.sizes, injecting: "kill:batch-written:12")
        try #require(torn.wasSignalled && torn.status == SIGKILL, "status \(torn.status): \(torn.stderr)")
        try #require(try CrashTests.segmentCount(store) >= 3, "the torn tail spans segments")
    }
}

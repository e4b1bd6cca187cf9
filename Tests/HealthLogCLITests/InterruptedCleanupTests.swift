#if canImport(Glibc)
import Glibc
#endif
import HealthLog
import HealthLogTestSupport
import Testing

/// Writers that meet the torn tail a killed append left across several segments.
@Suite("Torn tails across segments")
struct InterruptedCleanupTests {
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

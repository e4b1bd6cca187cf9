#if canImport(Glibc)
import Glibc
#endif
import HealthLogTestSupport
import Testing

/// Fault injection is not product API. The shipping `healthlog` reads no
/// `HEALTHLOG_TEST_FAULT`; only the test-only fault tool does.
@Suite("Fault hook")
struct FaultHookTests {
    @Test("The shipping healthlog ignores HEALTHLOG_TEST_FAULT: a kill planned at the first batch does not happen and the append completes")
    func shippingToolIgnoresTheHook() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = dir.file("store")
        let appended = try HealthLogBinary.run(
            ["--store", store, "append"], stdin: Events.lines(1...3), environment: ["HEALTHLOG_TEST_FAULT": "kill:batch-written"])
        #expect(!appended.wasSignalled && appended.status == 0, "\(appended.stderr)")
        #expect(Events.seqs(try HealthLogBinary.run(["--store", store, "replay", "--raw"]).stdout) == [1, 2, 3])
    }

    @Test("The fault tool honours the same HEALTHLOG_TEST_FAULT: it is killed at the first batch")
    func faultToolHonoursTheHook() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let killed = try HealthLogBinary.run(["--store", dir.file("store"), "append"], stdin: Events.lines(1...3), injecting: "kill:batch-written")
        #expect(killed.wasSignalled && killed.status == SIGKILL, "\(killed.stderr)")
    }
}

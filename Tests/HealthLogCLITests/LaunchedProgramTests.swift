#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import HealthLogTestSupport
import Testing

@Suite("Launched programs in tests")
struct LaunchedProgramTests {
    /// Launches a follower the way a test does and lets its value go without stopping it.
    static func abandonedFollower(_ dir: TemporaryDirectory) throws -> pid_t {
        let follower = try HealthLogBinary.launch(["--store", dir.file("store"), "backup", "--follow", dir.file("backup")], outputIn: dir)
        return follower.process.processIdentifier
    }

    @Test("A launched program that no test stops (it threw or returned first) is killed and reaped when its value goes away")
    func abandonedProgramIsKilled() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        #expect(try HealthLogBinary.run(["--store", dir.file("store"), "append"], stdin: BackupCLITests.steps(1)).status == 0)
        let pid = try Self.abandonedFollower(dir)
        #expect(kill(pid, 0) == -1 && errno == ESRCH, "the follower \(pid) is still there")
    }
}

import Foundation
import HealthLogTestSupport

/// Runs the built `healthlog-mirror` executable as a child process, the way a user would.
struct MirrorBinary {
    /// The program.
    static let program = BuiltProgram("healthlog-mirror")

    /// The executable's path.
    static var path: String { program.path }

    /// Runs `healthlog-mirror ARGUMENTS` to the end, with extra environment; output goes to
    /// files in `dir`, so no pipe can fill up.
    static func run(_ arguments: [String], environment: [String: String] = [:], outputIn dir: TemporaryDirectory) throws -> BuiltProgram.Result {
        try LaunchedProgram(makeProcess(arguments, environment: environment), outputIn: dir).finish()
    }

    /// A process for `healthlog-mirror ARGUMENTS` with empty standard input, not yet started.
    static func makeProcess(_ arguments: [String], environment: [String: String]) -> Process {
        let process = program.process(arguments, environment: environment)
        if environment["HEALTHLOG_MIRROR_TEST_CRASH"] == nil { process.environment?["HEALTHLOG_MIRROR_TEST_CRASH"] = nil }
        process.standardInput = FileHandle.nullDevice
        return process
    }
}

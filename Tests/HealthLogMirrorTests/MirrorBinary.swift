import Foundation
import HealthLogTestSupport

/// Runs the built `healthlog-mirror` executable as a child process, the way a user would.
struct MirrorBinary {
    /// What a run printed and how it ended.
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Whether the process was killed by a signal (``status`` is then the signal number).
        var wasSignalled: Bool
    }

    /// The program.
    static let program = BuiltProgram("healthlog-mirror")

    /// The executable's path.
    static var path: String { program.path }

    /// Runs `healthlog-mirror ARGUMENTS` to the end, with extra environment; output goes to
    /// files in `dir`, so no pipe can fill up.
    static func run(_ arguments: [String], environment: [String: String] = [:], outputIn dir: TemporaryDirectory) throws -> Result {
        let id = UUID().uuidString
        let outPath = dir.file("stdout-\(id)")
        let errPath = dir.file("stderr-\(id)")
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let process = makeProcess(arguments, environment: environment)
        guard let out = FileHandle(forWritingAtPath: outPath), let err = FileHandle(forWritingAtPath: errPath) else {
            throw CocoaError(.fileWriteUnknown)
        }
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: FileManager.default.contents(atPath: outPath) ?? Data(), as: UTF8.self),
            stderr: String(decoding: FileManager.default.contents(atPath: errPath) ?? Data(), as: UTF8.self),
            wasSignalled: process.terminationReason == .uncaughtSignal)
    }

    /// A process for `healthlog-mirror ARGUMENTS` with empty standard input, not yet started.
    static func makeProcess(_ arguments: [String], environment: [String: String]) -> Process {
        let process = program.process(arguments, environment: environment)
        if environment["HEALTHLOG_MIRROR_TEST_CRASH"] == nil { process.environment?["HEALTHLOG_MIRROR_TEST_CRASH"] = nil }
        process.standardInput = FileHandle.nullDevice
        return process
    }
}

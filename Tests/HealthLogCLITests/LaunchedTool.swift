import Foundation
import HealthLogTestSupport

/// The built `healthlog` started as a child process without waiting for it, so tests can
/// run several at once. Output goes to files (never a pipe that could fill up), standard
/// input is empty, and ``finish()`` waits and collects the result.
struct LaunchedTool {
    let process: Process
    let stdoutPath: String
    let stderrPath: String

    /// Starts `healthlog ARGUMENTS` with extra environment; `umask` (e.g. `"000"`) runs it
    /// under that file-creation mask, through `/bin/sh`.
    init(_ arguments: [String], environment: [String: String] = [:], umask: String? = nil, outputIn dir: TemporaryDirectory) throws {
        let id = UUID().uuidString
        stdoutPath = dir.file("stdout-\(id)")
        stderrPath = dir.file("stderr-\(id)")
        _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process = Process()
        if let umask {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "umask \(umask) && exec \"$0\" \"$@\"", HealthLogBinary.path] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: HealthLogBinary.path)
            process.arguments = arguments
        }
        var env = ProcessInfo.processInfo.environment
        env["HEALTHLOG_STORE"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardInput = FileHandle.nullDevice
        guard let out = FileHandle(forWritingAtPath: stdoutPath), let err = FileHandle(forWritingAtPath: stderrPath) else {
            throw CocoaError(.fileWriteUnknown)
        }
        process.standardOutput = out
        process.standardError = err
        try process.run()
    }

    /// Waits for the process and returns what it printed and how it ended.
    func finish() -> BuiltProgram.Result {
        process.waitUntilExit()
        let out = FileManager.default.contents(atPath: stdoutPath) ?? Data()
        let err = FileManager.default.contents(atPath: stderrPath) ?? Data()
        return BuiltProgram.Result(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self), wasSignalled: process.terminationReason == .uncaughtSignal)
    }
}

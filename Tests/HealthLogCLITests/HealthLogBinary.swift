import Foundation
import Testing

/// Runs the built `healthlog` executable as a child process, the way a user would.
struct HealthLogBinary {
    /// What a run printed and how it ended.
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Whether the process was killed by a signal (``status`` is then the signal number).
        var wasSignalled: Bool
    }

    /// The executable in the package's build directory (built by `swift build`/`swift test`).
    static var path: String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for configuration in ["debug", "release"] {
            let candidate = root.appendingPathComponent(".build/\(configuration)/healthlog").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return root.appendingPathComponent(".build/debug/healthlog").path
    }

    /// Runs `healthlog ARGUMENTS` with `stdin` as standard input and extra environment.
    static func run(_ arguments: [String], stdin: String = "", environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["HEALTHLOG_STORE"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        // Standard input comes from a file, not a pipe: a command that exits before reading
        // it (a usage error, say) must not kill this test process with SIGPIPE.
        let inputPath = NSTemporaryDirectory() + "healthlog-stdin-" + UUID().uuidString
        try Data(stdin.utf8).write(to: URL(fileURLWithPath: inputPath))
        defer { try? FileManager.default.removeItem(atPath: inputPath) }
        let input = try #require(FileHandle(forReadingAtPath: inputPath))
        defer { try? input.close() }
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self), wasSignalled: process.terminationReason == .uncaughtSignal)
    }
}

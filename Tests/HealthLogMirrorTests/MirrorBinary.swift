import Foundation

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

    /// The executable in the package's build directory (built by `swift build`/`swift test`).
    static var path: String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for configuration in ["debug", "release"] {
            let candidate = root.appendingPathComponent(".build/\(configuration)/healthlog-mirror").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return root.appendingPathComponent(".build/debug/healthlog-mirror").path
    }

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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["HEALTHLOG_STORE"] = nil
        env["HEALTHLOG_MIRROR_TEST_CRASH"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardInput = FileHandle.nullDevice
        return process
    }
}

public import Foundation

/// An executable of this package in its build directory (built by `swift build` or
/// `swift test`), run as a child process the way a user would run it.
public struct BuiltProgram: Sendable {
    /// What a run printed and how it ended.
    public struct Result: Sendable {
        /// The exit status, or the signal number when ``wasSignalled``.
        public var status: Int32
        /// Standard output.
        public var stdout: String
        /// Standard error.
        public var stderr: String
        /// Whether the process was killed by a signal.
        public var wasSignalled: Bool

        /// A result.
        public init(status: Int32, stdout: String, stderr: String, wasSignalled: Bool) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
            self.wasSignalled = wasSignalled
        }
    }

    /// The executable's name, e.g. `healthlog`.
    public let name: String

    /// The program called `name`.
    public init(_ name: String) { self.name = name }

    /// The executable's path: the debug build's, else the release build's.
    public var path: String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for configuration in ["debug", "release"] {
            let candidate = root.appendingPathComponent(".build/\(configuration)/\(name)").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return root.appendingPathComponent(".build/debug/\(name)").path
    }

    /// A process for `arguments`, with `HEALTHLOG_STORE` unset and `environment` added;
    /// with `openFileLimit`, started under that `RLIMIT_NOFILE` (see ``limitingOpenFiles(to:_:)``).
    public func process(_ arguments: [String], environment: [String: String] = [:], openFileLimit: Int? = nil) -> Process {
        let process = Process()
        if let openFileLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = Self.limitingOpenFiles(to: openFileLimit, [path] + arguments)
        } else {
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
        }
        var env = ProcessInfo.processInfo.environment
        env["HEALTHLOG_STORE"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        return process
    }

    /// The arguments of `/bin/sh` that set the soft and hard limit on open files
    /// (`ulimit -n`, `RLIMIT_NOFILE`) to `limit` and then `exec` `command` (a program path
    /// and its arguments), so the program runs under the limit as its own process.
    public static func limitingOpenFiles(to limit: Int, _ command: [String]) -> [String] {
        ["-c", "ulimit -n \(limit) && exec \"$0\" \"$@\""] + command
    }

    /// Runs the program with `arguments` to the end, `stdin` as standard input; with
    /// `openFileLimit`, under that limit on open files.
    public func run(_ arguments: [String], stdin: String = "", environment: [String: String] = [:], openFileLimit: Int? = nil) throws -> Result {
        let process = process(arguments, environment: environment, openFileLimit: openFileLimit)
        // Standard input comes from a file, not a pipe: a command that exits before reading
        // it (a usage error, say) must not kill the test process with SIGPIPE.
        let inputPath = NSTemporaryDirectory() + "healthlog-stdin-" + UUID().uuidString
        try Data(stdin.utf8).write(to: URL(fileURLWithPath: inputPath))
        defer { try? FileManager.default.removeItem(atPath: inputPath) }
        guard let input = FileHandle(forReadingAtPath: inputPath) else { throw CocoaError(.fileReadUnknown) }
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

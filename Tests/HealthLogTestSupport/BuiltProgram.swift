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
        for configuration in ["debug", "release"] {
            let candidate = PackageFiles.path(".build/\(configuration)/\(name)")
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return PackageFiles.path(".build/debug/\(name)")
    }

    /// A process for `arguments`, with `HEALTHLOG_STORE` unset and `environment` added;
    /// with `openFileLimit`, started under that `RLIMIT_NOFILE` (see ``limitingOpenFiles(to:_:)``);
    /// with `umask` (e.g. `"000"`), under that file-creation mask. Either goes through `/bin/sh`.
    public func process(_ arguments: [String], environment: [String: String] = [:], openFileLimit: Int? = nil, umask: String? = nil) -> Process {
        let setup = (openFileLimit.map { ["ulimit -n \($0)"] } ?? []) + (umask.map { ["umask \($0)"] } ?? [])
        let process = setup.isEmpty
            ? ChildProcess.make(path, arguments) : ChildProcess.make("/bin/sh", Self.settingUp(setup, [path] + arguments))
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
        settingUp(["ulimit -n \(limit)"], command)
    }

    /// The arguments of `/bin/sh` that run the shell commands `steps`, then `exec` `command`.
    private static func settingUp(_ steps: [String], _ command: [String]) -> [String] {
        ["-c", (steps + ["exec \"$0\" \"$@\""]).joined(separator: " && ")] + command
    }

    /// Runs the program with `arguments` to the end, `stdin` as standard input; with
    /// `openFileLimit`, under that limit on open files.
    public func run(_ arguments: [String], stdin: String = "", environment: [String: String] = [:], openFileLimit: Int? = nil) throws -> Result {
        try ChildProcess.run(process(arguments, environment: environment, openFileLimit: openFileLimit), stdin: stdin)
    }

    /// Starts the program with `arguments` without waiting for it, its output in files in
    /// `dir`; with `umask`, under that file-creation mask.
    public func launch(
        _ arguments: [String], environment: [String: String] = [:], umask: String? = nil, outputIn dir: TemporaryDirectory
    ) throws -> LaunchedProgram {
        try LaunchedProgram(process(arguments, environment: environment, umask: umask), outputIn: dir)
    }
}

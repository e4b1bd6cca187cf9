import HealthLogTestSupport

/// The built `healthlog` executable, run as a child process the way a user would, and its
/// test-only twin `HealthLogFaultTool`, which injects the faults `HEALTHLOG_TEST_FAULT` names.
enum HealthLogBinary {
    /// The program.
    static let program = BuiltProgram("healthlog")
    /// The fault-injecting twin: the same commands, with `HEALTHLOG_TEST_FAULT` read.
    static let faultTool = BuiltProgram("HealthLogFaultTool")

    /// The executable's path.
    static var path: String { program.path }

    /// Runs `healthlog ARGUMENTS` with `stdin` as standard input and extra environment;
    /// with `openFileLimit`, under that limit on open files (`ulimit -n`).
    static func run(
        _ arguments: [String], stdin: String = "", environment: [String: String] = [:], openFileLimit: Int? = nil
    ) throws -> BuiltProgram.Result {
        try program.run(arguments, stdin: stdin, environment: environment, openFileLimit: openFileLimit)
    }

    /// Runs the fault tool with `HEALTHLOG_TEST_FAULT=fault` (`kill:POINT[:N]`,
    /// `enospc-after:BYTES`, `fail-fsync`), otherwise as ``run(_:stdin:environment:openFileLimit:)``.
    static func run(_ arguments: [String], stdin: String = "", environment: [String: String] = [:], injecting fault: String) throws -> BuiltProgram.Result {
        var environment = environment
        environment["HEALTHLOG_TEST_FAULT"] = fault
        return try faultTool.run(arguments, stdin: stdin, environment: environment)
    }

    /// Starts `healthlog ARGUMENTS` without waiting for it, its output in files in `dir`;
    /// with `umask` (e.g. `"000"`), under that file-creation mask.
    static func launch(
        _ arguments: [String], environment: [String: String] = [:], umask: String? = nil, outputIn dir: TemporaryDirectory
    ) throws -> LaunchedProgram {
        try program.launch(arguments, environment: environment, umask: umask, outputIn: dir)
    }
}

import HealthLogTestSupport

/// The built `healthlog` executable, run as a child process the way a user would.
enum HealthLogBinary {
    /// The program.
    static let program = BuiltProgram("healthlog")

    /// The executable's path.
    static var path: String { program.path }

    /// Runs `healthlog ARGUMENTS` with `stdin` as standard input and extra environment;
    /// with `openFileLimit`, under that limit on open files (`ulimit -n`).
    static func run(
        _ arguments: [String], stdin: String = "", environment: [String: String] = [:], openFileLimit: Int? = nil
    ) throws -> BuiltProgram.Result {
        try program.run(arguments, stdin: stdin, environment: environment, openFileLimit: openFileLimit)
    }
}

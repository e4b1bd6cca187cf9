#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import Foundation

/// Child processes for tests: any program run to the end with its output collected
/// (``run(_:stdin:)``), or started and left running (``LaunchedProgram``).
public enum ChildProcess {
    /// A process for `executable` with `arguments` and this process's environment, not yet started.
    public static func make(_ executable: String, _ arguments: [String]) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        return process
    }

    /// Runs `process` (configured, not yet started) to the end with `stdin` as standard
    /// input, and returns what it printed and how it ended.
    public static func run(_ process: Process, stdin: String = "") throws -> BuiltProgram.Result {
        // Standard input comes from a file, not a pipe: a command that exits before reading
        // it (a usage error, say) must not kill the test process with SIGPIPE.
        let inputPath = scratchPath("stdin")
        try Data(stdin.utf8).write(to: URL(fileURLWithPath: inputPath))
        defer { try? FileManager.default.removeItem(atPath: inputPath) }
        guard let input = FileHandle(forReadingAtPath: inputPath) else { throw CocoaError(.fileReadUnknown) }
        defer { try? input.close() }
        process.standardInput = input
        // Output goes to files, not pipes: Foundation's `Process` closes a child's other
        // descriptors as they were a moment before it spawns, so a pipe another thread opens
        // in that moment can be inherited by that child, and reading the pipe to its end
        // would wait for a process that has nothing to do with this one. The exit, from
        // `waitpid(2)`, is the end.
        let output = try CollectedOutput(), errors = try CollectedOutput()
        process.standardOutput = output.handle
        process.standardError = errors.handle
        try process.run()
        process.waitUntilExit()
        return BuiltProgram.Result(
            status: process.terminationStatus, stdout: output.text(), stderr: errors.text(),
            wasSignalled: process.terminationReason == .uncaughtSignal)
    }

    /// Runs `process` (configured, not yet started) to the end with empty standard input and
    /// its standard output a pipe, read as it is written; returns what it printed and how
    /// it ended. The pipe is read until its end or, should another child have inherited its
    /// writing end (see ``run(_:stdin:)``), until this one has exited and nothing is left.
    public static func runThroughPipe(_ process: Process) throws -> BuiltProgram.Result {
        let output = Pipe(), errors = try CollectedOutput()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errors.handle
        try process.run()
        let collected = readToEnd(output.fileHandleForReading.fileDescriptor, of: process)
        process.waitUntilExit()
        return BuiltProgram.Result(
            status: process.terminationStatus, stdout: String(decoding: collected, as: UTF8.self), stderr: errors.text(),
            wasSignalled: process.terminationReason == .uncaughtSignal)
    }

    /// Reads `descriptor` until its end (or an error such as a terminal's `EIO` when its last
    /// writer is gone) or, should a copy of its writing end outlive `process`, until
    /// `process` has exited and nothing is left to read.
    static func readToEnd(_ descriptor: Int32, of process: Process) -> [UInt8] {
        var collected: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let polled = poll(&ready, 1, 100)
            if polled < 0, errno == EINTR { continue }
            if polled > 0 {
                let count = read(descriptor, &buffer, buffer.count)
                if count > 0 {
                    collected += buffer[0..<count]
                    continue
                }
                if count < 0, errno == EINTR { continue }
                break
            }
            if !process.isRunning { break }
        }
        return collected
    }

    /// A new path under the temporary directory for a child's `stream`.
    static func scratchPath(_ stream: String) -> String {
        NSTemporaryDirectory() + "healthlog-\(stream)-" + UUID().uuidString
    }

    /// Starts `process` (configured, not yet started) with its output discarded, sends it
    /// SIGKILL after `milliseconds`, and waits for it to end; returns whether it had finished
    /// with exit 0 first (else the kill ended it; any other exit fails the test's `#require`).
    public static func runKilled(_ process: Process, after milliseconds: Int) throws -> Bool {
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        usleep(useconds_t(milliseconds * 1000))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return process.terminationReason == .exit && process.terminationStatus == 0
    }
}

/// A file a child process writes one of its standard streams to, in place of a pipe (see
/// ``ChildProcess/run(_:stdin:)`` for why), removed with this value.
final class CollectedOutput {
    let path = ChildProcess.scratchPath("output")
    let handle: FileHandle

    init() throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw CocoaError(.fileWriteUnknown)
        }
        self.handle = handle
    }

    /// What the child wrote, as text.
    func text() -> String {
        String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }

    deinit {
        try? handle.close()
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// A child process started without waiting for it, so tests can run several at once or
/// signal one. Its output goes to files (never a pipe that could fill up), its standard
/// input is empty, and ``finish()`` waits and collects the result. One still running when
/// the last copy of its value goes away (a test that threw or returned before stopping it)
/// is killed, so no test leaves a process behind.
public struct LaunchedProgram {
    /// The running process.
    public var process: Process { reaper.process }
    /// Kills the process if it outlives every copy of this value.
    private let reaper: Reaper
    /// The file its standard output goes to.
    public let stdoutPath: String
    /// The file its standard error goes to.
    public let stderrPath: String
    /// Becomes `true` when the process has exited (set by its termination handler).
    private let exited = WatchedValue(false)

    /// Starts `process` (configured, not yet started), its output in new files in `dir`.
    public init(_ process: Process, outputIn dir: TemporaryDirectory) throws {
        let id = UUID().uuidString
        stdoutPath = dir.file("stdout-\(id)")
        stderrPath = dir.file("stderr-\(id)")
        _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        guard let out = FileHandle(forWritingAtPath: stdoutPath), let err = FileHandle(forWritingAtPath: stderrPath) else {
            throw CocoaError(.fileWriteUnknown)
        }
        reaper = Reaper(process)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        let exited = exited
        process.terminationHandler = { _ in exited.update { $0 = true } }
        try process.run()
    }

    /// The complete lines written so far to standard output (a line still being written
    /// is left out).
    public var completeOutputLines: [String] {
        let text = String(decoding: FileManager.default.contents(atPath: stdoutPath) ?? Data(), as: UTF8.self)
        guard let lastNewline = text.lastIndex(of: "\n") else { return [] }
        return text[..<lastNewline].split(separator: "\n").map(String.init)
    }

    /// Waits for the process and returns what it printed and how it ended.
    public func finish() -> BuiltProgram.Result {
        process.waitUntilExit()
        let out = FileManager.default.contents(atPath: stdoutPath) ?? Data()
        let err = FileManager.default.contents(atPath: stderrPath) ?? Data()
        return BuiltProgram.Result(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self), wasSignalled: process.terminationReason == .uncaughtSignal)
    }

    /// Waits up to `seconds` for the process to exit and returns what it printed and how it
    /// ended; `nil` when it did not exit in time (it is then killed with SIGKILL, so a hang
    /// cannot stall the run).
    public func finish(within seconds: Double) async -> BuiltProgram.Result? {
        if await exited.wait(within: seconds, until: { $0 }) { return finish() }
        kill(process.processIdentifier, SIGKILL)
        _ = finish()
        return nil
    }

    /// Sends `signal` and waits for the process to exit, for up to `seconds`; returns
    /// whether it exited in time. One that did not is killed (SIGKILL), so it cannot hang
    /// the run.
    public func stop(with signal: Int32, within seconds: Double = 60) async -> Bool {
        kill(process.processIdentifier, signal)
        if await exited.wait(within: seconds, until: { $0 }) { return true }
        kill(process.processIdentifier, SIGKILL)
        return false
    }
}

/// Ends a launched process that nothing will wait for any more.
private final class Reaper {
    let process: Process

    init(_ process: Process) {
        self.process = process
    }

    deinit {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

import Foundation
import HealthLogTestSupport

/// `healthlog-mirror --follow` running as a child process, its standard error read line
/// by line as it reports each transaction, so a test can wait for a commit without
/// sleeping.
final class FollowingMirror {
    private let process: Process
    private let errors: FileHandle
    private var pending: [UInt8] = []
    /// Every line read from standard error so far.
    private(set) var lines: [String] = []

    /// Starts `healthlog-mirror --follow ARGUMENTS`.
    init(_ arguments: [String]) throws {
        process = MirrorBinary.makeProcess(["--follow"] + arguments, environment: [:])
        let pipe = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = pipe
        try process.run()
        errors = pipe.fileHandleForReading
    }

    /// Reads standard error until a line contains `text`; returns that line, or `nil` if
    /// the process closed standard error (it ended) first. (No line contains a newline, so
    /// `"\n"` reads to the end.)
    func waitForLine(containing text: String) -> String? {
        while true {
            while let newline = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                lines.append(line)
                if line.contains(text) { return line }
            }
            let chunk = errors.availableData
            if chunk.isEmpty { return nil }
            pending += chunk
        }
    }

    /// Sends `signal` and waits for the process to end; returns its exit status and
    /// whether a signal ended it.
    func stop(with signal: Int32) -> (status: Int32, wasSignalled: Bool) {
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        // What is left in the pipe is read without waiting for its end: a child another test
        // spawned in the same moment may hold a copy of its writing end.
        _ = fcntl(errors.fileDescriptor, F_SETFL, O_NONBLOCK)
        while let chunk = try? errors.read(upToCount: 1 << 16), !chunk.isEmpty { pending += chunk }
        while let newline = pending.firstIndex(of: 10) {
            lines.append(String(decoding: pending[..<newline], as: UTF8.self))
            pending.removeSubrange(...newline)
        }
        return (process.terminationStatus, process.terminationReason == .uncaughtSignal)
    }
}

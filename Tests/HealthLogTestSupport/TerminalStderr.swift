#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import Foundation

/// Runs a child process whose standard error is a pseudo-terminal (`posix_openpt(3)`), so a
/// command behaves as it does for a person at a terminal (progress lines), while its
/// standard output goes to a file.
public enum TerminalStderr {
    /// A failure to set the pseudo-terminal up.
    public struct SetupError: Error, CustomStringConvertible {
        /// What failed.
        public let description: String
    }

    /// Opens a new pseudo-terminal's master side, unlocked; returns it and the path of its
    /// terminal side. On Linux through `/dev/ptmx` and its `ioctl(2)`s (`TIOCSPTLCK`,
    /// `TIOCGPTN`), since the Glibc module does not declare `posix_openpt(3)`.
    public static func openMaster() throws -> (Int32, String) {
        #if os(Linux)
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard master >= 0 else { throw SetupError(description: "cannot open /dev/ptmx: \(String(cString: strerror(errno)))") }
        var unlocked: Int32 = 0
        var number: UInt32 = 0
        let setLock: UInt = 0x4004_5431  // TIOCSPTLCK
        let getNumber: UInt = 0x8004_5430  // TIOCGPTN
        guard ioctl(master, setLock, &unlocked) == 0, ioctl(master, getNumber, &number) == 0 else {
            close(master)
            throw SetupError(description: "cannot set up the pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        return (master, "/dev/pts/\(number)")
        #else
        let master = posix_openpt(O_RDWR | O_NOCTTY)
        guard master >= 0, grantpt(master) == 0, unlockpt(master) == 0, let name = ptsname(master) else {
            throw SetupError(description: "cannot set up the pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        return (master, String(cString: name))
        #endif
    }

    /// Runs `process` (configured, not yet started) to the end with empty standard input;
    /// returns what it printed (``BuiltProgram/Result/stderr`` is what reached the
    /// terminal, with the terminal's `\r\n` line ends) and how it ended.
    public static func run(_ process: Process) throws -> BuiltProgram.Result {
        let (master, name) = try openMaster()
        defer { close(master) }
        let terminal = open(name, O_RDWR | O_NOCTTY)
        guard terminal >= 0 else { throw SetupError(description: "cannot open \(name): \(String(cString: strerror(errno)))") }
        let output = try CollectedOutput()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output.handle
        process.standardError = FileHandle(fileDescriptor: terminal, closeOnDealloc: false)
        do {
            try process.run()
        } catch {
            close(terminal)
            throw error
        }
        close(terminal)
        // Read until the terminal reports its last writer gone (EIO), or, should a copy of
        // its descriptor outlive the child, until the child has exited and nothing is left.
        let collected = ChildProcess.readToEnd(master, of: process)
        process.waitUntilExit()
        return BuiltProgram.Result(
            status: process.terminationStatus, stdout: output.text(), stderr: String(decoding: collected, as: UTF8.self),
            wasSignalled: process.terminationReason == .uncaughtSignal)
    }
}

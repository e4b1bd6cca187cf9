#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLog

/// A passphrase typed at the terminal: the prompt on standard error, the line read from
/// standard input with echo turned off (termios), and the terminal restored after.
enum PassphrasePrompt {
    /// The longest passphrase line read.
    static let maximumLength = 4096

    /// The line typed after `prompt`, without its newline; `nil` when standard input is
    /// not a terminal.
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` when the input ends before a line.
    static func ask(_ prompt: String) throws -> [UInt8]? {
        guard isatty(0) == 1 else { return nil }
        var saved = termios()
        guard tcgetattr(0, &saved) == 0 else { return nil }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        quiet.c_lflag |= tcflag_t(ECHONL)
        writeError(prompt)
        tcsetattr(0, TCSAFLUSH, &quiet)
        defer { tcsetattr(0, TCSAFLUSH, &saved) }
        var line: [UInt8] = []
        line.reserveCapacity(maximumLength)
        var byte: UInt8 = 0
        while true {
            let got = read(0, &byte, 1)
            if got < 0, errno == EINTR { continue }
            guard got == 1 else {
                Sodium.wipe(&line)
                throw HealthLogError(.badUsage, "no passphrase was typed")
            }
            if byte == UInt8(ascii: "\n") { break }
            if line.count < maximumLength { line.append(byte) }
        }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return line
    }

    private static func writeError(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    }
}

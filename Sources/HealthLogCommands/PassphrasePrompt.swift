#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLog

/// The terminal settings a prompt turned echo off from, for the signal handler below to put
/// back; a C signal handler cannot capture context, so it lives here. Written before the
/// handler is installed.
nonisolated(unsafe) private var settingsBeforePrompt = termios()

/// A passphrase typed at the terminal: the prompt on standard error, the line read from
/// standard input with echo turned off (termios), and the terminal restored after, also
/// when SIGINT (^C), SIGTERM, SIGHUP or SIGQUIT ends the process meanwhile.
enum PassphrasePrompt {
    /// The signals that end a process at a prompt.
    private static let endingSignals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
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
        settingsBeforePrompt = saved
        let (previous, previousMask) = restoringTerminalOnSignals()
        defer {
            tcsetattr(0, TCSAFLUSH, &saved)
            for (signalNumber, var action) in zip(endingSignals, previous) { sigaction(signalNumber, &action, nil) }
            var mask = previousMask
            pthread_sigmask(SIG_SETMASK, &mask, nil)
        }
        tcsetattr(0, TCSAFLUSH, &quiet)
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

    /// Installs, for each of ``endingSignals`` the process does not ignore, a handler that
    /// puts the terminal settings back and then ends the process by the signal as it would
    /// have; returns the actions it replaced and the thread's signal mask before it unblocked
    /// them (a process started from a thread that blocks them inherits that). An ignored
    /// signal stays ignored, as a background job's SIGINT is.
    private static func restoringTerminalOnSignals() -> ([sigaction], sigset_t) {
        let previous = endingSignals.map { signalNumber in
            var current = sigaction()
            sigaction(signalNumber, nil, &current)
            if isIgnored(current) { return current }
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = { signalNumber in
                tcsetattr(0, TCSANOW, &settingsBeforePrompt)
                signal(signalNumber, SIG_DFL)
                raise(signalNumber)
            }
            #else
            action.__sigaction_u.__sa_handler = { signalNumber in
                tcsetattr(0, TCSANOW, &settingsBeforePrompt)
                signal(signalNumber, SIG_DFL)
                raise(signalNumber)
            }
            #endif
            sigemptyset(&action.sa_mask)
            var previous = sigaction()
            sigaction(signalNumber, &action, &previous)
            return previous
        }
        var ending = sigset_t()
        sigemptyset(&ending)
        for signalNumber in endingSignals { sigaddset(&ending, signalNumber) }
        var previousMask = sigset_t()
        pthread_sigmask(SIG_UNBLOCK, &ending, &previousMask)
        return (previous, previousMask)
    }

    /// Whether `action` ignores its signal.
    private static func isIgnored(_ action: sigaction) -> Bool {
        #if canImport(Glibc)
        let handler = action.__sigaction_handler.sa_handler
        #else
        let handler = action.__sigaction_u.__sa_handler
        #endif
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    private static func writeError(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    }
}

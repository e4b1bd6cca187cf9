#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HealthLogTestSupport
import Testing

/// Ambiguous secret sources are usage errors, and a passphrase prompt ended by a signal
/// gives the terminal its echo back.
@Suite("Secret options")
struct SecretOptionsCLITests {
    @Test("A secret option given twice, or both secret-file variables set without an option, exits 2 naming them and touches nothing")
    func ambiguousSources() throws {
        let f = try KeySlotsCLITests.Fixture()
        defer { f.dir.remove() }
        #expect(try f.run(["--passphrase-file", f.file("p1"), "key", "add", "--new-key-file", f.file("k1")]).status == 0)
        let before = try ByteSurgery.image(of: f.store)
        let attempts: [(arguments: [String], environment: [String: String], message: String)] = [
            (["--passphrase-file", f.file("bad"), "--passphrase-file", f.file("p1")], [:], "'--passphrase-file' is given twice"),
            (["--key-file", f.file("k1"), "--key-file=" + f.file("k2")], [:], "'--key-file' is given twice"),
            ([], ["HEALTHLOG_PASSPHRASE_FILE": f.file("p1"), "HEALTHLOG_KEY_FILE": f.file("k1")], "HEALTHLOG_PASSPHRASE_FILE and HEALTHLOG_KEY_FILE"),
        ]
        for attempt in attempts {
            let result = try f.run(attempt.arguments + ["append"], stdin: Events.lines(1...2), environment: attempt.environment)
            #expect(result.status == 2 && result.stderr.contains(attempt.message), "\(attempt.arguments): \(result.status) \(result.stderr)")
        }
        #expect(try ByteSurgery.image(of: f.store) == before)
        // An option names the secret: the variables are not consulted.
        let chosen = try f.run(["--key-file", f.file("k1"), "replay"], environment: ["HEALTHLOG_PASSPHRASE_FILE": f.file("bad"), "HEALTHLOG_KEY_FILE": f.file("bad")])
        #expect(chosen.status == 0, "\(chosen.stderr)")
    }

    @Test("SIGINT (as ^C sends) at the passphrase prompt ends the command by that signal with the terminal's echo back on")
    func interruptedPromptRestoresEcho() async throws {
        let f = try KeySlotsCLITests.Fixture()
        defer { f.dir.remove() }
        let (master, name) = try TerminalStderr.openMaster()
        defer { close(master) }
        let terminal = open(name, O_RDWR | O_NOCTTY)
        try #require(terminal >= 0)
        defer { close(terminal) }
        var settings = termios()
        try #require(tcgetattr(terminal, &settings) == 0 && settings.c_lflag & tcflag_t(ECHO) != 0)
        let process = HealthLogBinary.program.process(["--store", f.store, "replay"])
        process.standardInput = FileHandle(fileDescriptor: terminal, closeOnDealloc: false)
        process.standardOutput = FileHandle.nullDevice
        try "".write(toFile: f.file("stderr"), atomically: true, encoding: .utf8)
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: f.file("stderr")))
        try process.run()
        let prompted = await eventually {
            (try? String(contentsOfFile: f.file("stderr"), encoding: .utf8))?.contains("Passphrase for") == true
        }
        try #require(prompted, "no prompt")
        let echoOff = await eventually { tcgetattr(terminal, &settings) == 0 && settings.c_lflag & tcflag_t(ECHO) == 0 }
        #expect(echoOff, "the prompt turns echo off")
        kill(process.processIdentifier, SIGINT)
        // Bounds a hang: a process that blocks SIGINT at the prompt would wait forever.
        let ended = await eventually(within: 60) { !process.isRunning }
        if !ended { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(ended, "SIGINT did not end the prompt")
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGINT)
        #expect(tcgetattr(terminal, &settings) == 0 && settings.c_lflag & tcflag_t(ECHO) != 0, "echo stays off")
    }
}

import Foundation
import HealthLogTestSupport
import Testing

/// Long jobs show progress on stderr when it is a terminal, and only then: run
/// under a pseudo-terminal, `backup` and `restore` draw a line redrawn in place that ends
/// at 100%; with stderr a pipe they print no progress at all.
@Suite("Progress on a terminal")
struct ProgressCLITests {
    /// A store of 300 events in several segments and batches.
    private static func seed(_ dir: TemporaryDirectory) throws -> [String: String] {
        let environment = ["HEALTHLOG_SEGMENT_BYTES": "4000", "HEALTHLOG_BATCH_BYTES": "1000"]
        for first in stride(from: 1, through: 201, by: 100) {
            let result = try HealthLogBinary.run(["--store", dir.file("store"), "append"], stdin: Events.lines(first...(first + 99)), environment: environment)
            try #require(result.status == 0, "\(result.stderr)")
        }
        return environment
    }

    @Test("backup on a terminal redraws 'backup: N% (i/n segments)' up to 100%; through a pipe it prints none")
    func backup() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let environment = try Self.seed(dir)
        let shown = try TerminalStderr.run(HealthLogBinary.program.process(["--store", dir.file("store"), "backup", dir.file("backup")], environment: environment))
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stderr.contains("\rbackup: 0% (0/") && shown.stderr.contains("\rbackup: 100% ("), "\(shown.stderr)")
        #expect(shown.stderr.contains(" segments)\u{1B}[K"), "\(shown.stderr)")
        #expect(shown.stderr.contains("healthlog: backed up 300 events"), "\(shown.stderr)")
        let piped = try HealthLogBinary.run(["--store", dir.file("store"), "backup", dir.file("again")], environment: environment)
        #expect(piped.status == 0 && !piped.stderr.contains("%"), "\(piped.stderr)")
    }

    @Test("restore on a terminal redraws a copy line in files, then a verify line in batches, each up to 100% and ended; through a pipe it prints none")
    func restore() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let environment = try Self.seed(dir)
        #expect(try HealthLogBinary.run(["--store", dir.file("store"), "backup", dir.file("backup")], environment: environment).status == 0)
        let shown = try TerminalStderr.run(HealthLogBinary.program.process(["--store", dir.file("copy"), "restore", "--to", "200", dir.file("backup")], environment: environment))
        #expect(shown.status == 0, "\(shown.stderr)")
        let copy = try #require(shown.stderr.range(of: "\rrestore (copy): 100% ("), "\(shown.stderr)")
        let verify = try #require(shown.stderr.range(of: "\rrestore (verify): 100% ("), "\(shown.stderr)")
        #expect(copy.upperBound < verify.lowerBound)
        #expect(shown.stderr.contains(" files)\u{1B}[K\r\n") && shown.stderr.contains(" batches)\u{1B}[K\r\n"), "\(shown.stderr)")
        #expect(shown.stderr.contains("healthlog: restored 200 events (cut at sequence 200 of the backup's 300)"), "\(shown.stderr)")
        let piped = try HealthLogBinary.run(["--store", dir.file("piped"), "restore", dir.file("backup")], environment: environment)
        #expect(piped.status == 0 && !piped.stderr.contains("%"), "\(piped.stderr)")
    }
}

import Foundation
import HealthLogTestSupport
import Testing

/// The committed command reference (docs/reference), man page (docs/healthlog.1) and
/// shell completions (completions/) are exactly what the binary makes from the
/// declarations its parser uses, so they cannot drift from `--help`.
@Suite("Generated reference, man page and completions")
struct ReferenceTests {
    static let regenerate = "tools/docs --reference"

    @Test("Every committed generated file reads as 'healthlog generate-docs' writes it, and none is left over")
    func committedFilesMatch() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let result = try HealthLogBinary.run(["generate-docs", dir.path])
        try #require(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let written = result.stdout.split(separator: "\n").map { String($0.dropFirst(dir.path.count + 1)) }
        #expect(written.contains("docs/healthlog.1") && written.contains("docs/reference/replay.md") && written.contains("completions/healthlog.bash"))
        for relative in written {
            let generated = try String(contentsOfFile: dir.file(relative), encoding: .utf8)
            let committed = try? String(contentsOfFile: PackageFiles.path(relative), encoding: .utf8)
            #expect(committed == generated, "\(relative) is not what the binary generates; regenerate it: \(Self.regenerate)")
        }
        let pages = try FileManager.default.contentsOfDirectory(atPath: PackageFiles.path("docs/reference")).map { "docs/reference/" + $0 }
        #expect(Set(pages) == Set(written.filter { $0.hasPrefix("docs/reference/") }), "a page no command makes; regenerate: \(Self.regenerate)")
    }

    @Test("--generate-completion-script prints the committed script of each shell", arguments: [("bash", "healthlog.bash"), ("zsh", "_healthlog"), ("fish", "healthlog.fish")])
    func completionScript(_ shell: String, _ file: String) throws {
        let result = try HealthLogBinary.run(["--generate-completion-script", shell])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.stdout == (try String(contentsOfFile: PackageFiles.path("completions/" + file), encoding: .utf8)))
    }

    @Test("--generate-completion-script without a shell it knows is bad usage: exit 2")
    func unknownShell() throws {
        let result = try HealthLogBinary.run(["--generate-completion-script", "tcsh"])
        #expect(result.status == 2 && result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("healthlog: error: --generate-completion-script takes one of bash, zsh, fish\n"))
    }

    @Test("generate-docs writes only into a directory that exists: --help and a missing path are bad usage and create nothing")
    func generateDocsNeedsADirectory() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        for argument in ["--help", "-h", dir.file("missing/deeper")] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: HealthLogBinary.path)
            process.arguments = ["generate-docs", argument]
            process.currentDirectoryURL = URL(fileURLWithPath: dir.path)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 2, "\(argument)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    @Test("Each command's reference page holds its usage line and every option of its --help")
    func pagesFollowHelp() throws {
        for command in ["replay", "plot", "restore", "add"] {
            let help = try HealthLogBinary.run([command, "--help"]).stdout
            let page = try String(contentsOfFile: PackageFiles.path("docs/reference/\(command).md"), encoding: .utf8)
            let usage = try #require(help.split(separator: "\n").first { $0.hasPrefix("USAGE: ") }).dropFirst(7)
            #expect(page.contains("```\n\(usage)\n```"), "\(command)")
            for option in help.split(separator: "\n").compactMap({ $0.hasPrefix("  -") ? $0.dropFirst(2).split(separator: "  ").first : nil }) {
                #expect(page.contains("- `\(option)`: "), "\(command): \(option)")
            }
        }
    }
}

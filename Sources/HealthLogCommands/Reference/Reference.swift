#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLog

/// The files made from the command declarations, that the repository commits and
/// `healthlog generate-docs DIR` writes: the Markdown reference, the man page and the shell
/// completions. A test compares them with what the binary generates.
enum Reference {
    /// The shells `--generate-completion-script` knows.
    static let shells = ["bash", "zsh", "fish"]

    /// Every generated file: its path below the package's root, and its text.
    static var files: [(path: String, text: String)] {
        let commands = HealthLogCommand.commands
        var files = [(path: "docs/reference/healthlog.md", text: MarkdownReference.overview(commands))]
        for command in commands { files.append((path: "docs/reference/\(command.name).md", text: MarkdownReference.page(command))) }
        files.append((path: "docs/healthlog.1", text: ManPage.text(commands)))
        files += [
            (path: "completions/healthlog.bash", text: BashCompletion.script(commands)),
            (path: "completions/_healthlog", text: ZshCompletion.script(commands)),
            (path: "completions/healthlog.fish", text: FishCompletion.script(commands)),
        ]
        return files
    }

    /// The completion script for `shell`, or `nil` for a shell it does not know.
    static func completionScript(_ shell: String) -> String? {
        let commands = HealthLogCommand.commands
        switch shell {
        case "bash": return BashCompletion.script(commands)
        case "zsh": return ZshCompletion.script(commands)
        case "fish": return FishCompletion.script(commands)
        default: return nil
        }
    }

    /// Writes every file below `root`, making directories as needed; returns their paths.
    static func write(below root: String) throws -> [String] {
        try files.map { file in
            let path = root + "/" + file.path
            try makeDirectories(String(path[..<path.lastIndex(of: "/")!]))
            guard let stream = fopen(path, "w") else { throw failure("cannot write", path) }
            let written = fputs(file.text, stream)
            guard fclose(stream) == 0, written >= 0 else { throw failure("cannot write", path) }
            return path
        }
    }

    private static func makeDirectories(_ path: String) throws {
        var prefix = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") where part != "." {
            prefix += "/" + part
            if mkdir(prefix, 0o755) != 0, errno != EEXIST { throw failure("cannot make directory", prefix) }
        }
    }

    private static func failure(_ what: String, _ path: String) -> HealthLogError {
        HealthLogError(.io, "\(what) \(path): \(String(cString: strerror(errno)))")
    }

    /// The first sentence of `help`, without its full stop: a short description for a
    /// completion menu.
    static func summary(_ help: String) -> String {
        var text = help
        if let end = text.firstRange(of: ". ") { text = String(text[..<end.lowerBound]) }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}

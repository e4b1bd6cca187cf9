#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLog

/// `healthlog append [FILE…]`: append NDJSON events, all-or-nothing.
enum AppendCommand: Command {
    static let configuration = CommandConfiguration(
        name: "append",
        abstract: "Append NDJSON events from files or standard input, all-or-nothing.",
        discussion: "Prints the new anchor on stdout and a summary (added, deleted, replaced, skipped) on stderr. Any invalid line writes nothing and exits 2.")

    struct Options: OptionGroup {
        let noSync = Flag("--no-sync", help: "Do not wait for fdatasync before reporting success: faster, but a power loss or OS crash may lose the append.")
        let files = Positional(
            "<file>", help: "NDJSON event files, read in order as one append; '-' or none reads standard input.", repeatable: true, required: false
        ) { $0 }

        var members: [any OptionMember] { [noSync, files] }
    }

    static func run(_ arguments: ParsedArguments<Options>, _ context: Context) throws -> Int32 {
        let paths = try arguments.files
        let files = paths.filter { $0 != "-" }.map { String($0.split(separator: "/").last ?? Substring($0)) }
        let origin = AppendOrigin(command: "append", file: files.isEmpty ? nil : files.joined(separator: ", "))
        let store = try context.store(sync: !arguments.noSync, origin: origin)
        var opened: [Int32] = []
        defer { for fd in opened { close(fd) } }
        var readers: [LineReader] = []
        for path in paths.isEmpty ? ["-"] : paths {
            if path == "-" {
                readers.append(LineReader(fileDescriptor: 0, name: nil))
                continue
            }
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else {
                let reason = String(cString: strerror(errno))
                throw HealthLogError(.badUsage, "cannot open '\(path)': \(reason)")
            }
            opened.append(fd)
            var info = stat()
            if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                throw HealthLogError(.badUsage, "'\(path)' is a directory, not a file: append reads NDJSON event files")
            }
            if let kind = exportKind(fd) {
                throw HealthLogError(.badInput, "\(path): the file is \(kind), not NDJSON events: for an Apple Health export use `healthlog import \(path)`")
            }
            readers.append(LineReader(fileDescriptor: fd, name: path))
        }
        let summary: AppendSummary
        do {
            summary = try store.append(readers)
        } catch let error as HealthLogError where error.message.hasPrefix("line 1: malformed JSON at byte 1:") {
            // Standard input cannot be looked at before it is read: its first byte not
            // starting JSON may be an export piped in.
            throw HealthLogError(error.code, error.message + "; an Apple Health export (a zip or XML) goes in with `healthlog import FILE`")
        }
        report(summary, context)
        return ExitCode.success
    }

    /// What the file open at `fd` is when its first bytes are a zip's or XML's (an export
    /// given to the wrong command), else `nil`.
    private static func exportKind(_ fd: Int32) -> String? {
        var head = [UInt8](repeating: 0, count: 64)
        let count = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        head.removeSubrange(count...)
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return "a zip archive" }
        var at = head.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while at < head.count, [0x20, 0x09, 0x0A, 0x0D].contains(head[at]) { at += 1 }
        return at < head.count && head[at] == 0x3C ? "XML" : nil
    }

    /// Prints what an append did: the anchor on stdout, the summary and any recovery on
    /// stderr; for an input without events, a note that nothing was written instead of the
    /// summary.
    static func report(_ summary: AppendSummary, _ context: Context) {
        if let torn = summary.recoveredTail { context.terminal.note("cut a \(torn.summary)") }
        for note in summary.notes { context.terminal.note(note) }
        context.terminal.print(summary.anchor.token)
        context.terminal.flush()
        if summary.added + summary.deleted + summary.replaced + summary.skipped == 0 {
            context.terminal.note("the input holds no events; nothing was written")
        } else {
            context.terminal.summary(summary.text)
        }
    }
}

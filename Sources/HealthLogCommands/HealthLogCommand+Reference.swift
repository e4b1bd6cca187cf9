#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLog

/// The hidden entry points that print or write what ``Reference`` makes from the command
/// declarations; neither is listed in `--help`.
extension HealthLogCommand {
    /// `healthlog --generate-completion-script bash|zsh|fish`: the script on stdout.
    static func generateCompletionScript(_ arguments: ArraySlice<String>, _ terminal: Terminal) -> Int32 {
        guard arguments.count == 1, let script = Reference.completionScript(arguments[arguments.startIndex]) else {
            return usageError("--generate-completion-script takes one of \(Reference.shells.joined(separator: ", "))", terminal, nil)
        }
        terminal.print(String(script.dropLast()))
        terminal.flush()
        return ExitCode.success
    }

    /// `healthlog generate-docs DIR`: the reference, man page and completions written below
    /// DIR (the package's root), each path printed on stdout.
    static func generateDocs(_ arguments: ArraySlice<String>, _ terminal: Terminal) -> Int32 {
        guard arguments.count == 1, let directory = arguments.first, !directory.hasPrefix("-") else {
            return usageError("generate-docs takes the directory to write below", terminal, nil)
        }
        var status = stat()
        guard stat(directory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            return usageError("generate-docs: '\(directory)' is not a directory", terminal, nil)
        }
        do {
            for path in try Reference.write(below: directory) { terminal.print(path) }
            terminal.flush()
            return ExitCode.success
        } catch let error as HealthLogError {
            terminal.flush()
            terminal.failure(error.message)
            return ExitCode.of(error)
        } catch {
            terminal.failure("\(error)")
            return ExitCode.storeFailure
        }
    }
}

import HealthLog

/// `healthlog verify`: check every checksum and the sequence continuity.
enum VerifyCommand: Command {
    static let configuration = CommandConfiguration(
        name: "verify", abstract: "Check every checksum, the sequence continuity and the indexes.",
        discussion: "Reads every frame and checks every checksum and that sequence numbers run without gaps, then that every index agrees with the segments. Prints each problem with its file and byte offset and exits 1 if there is any; a torn tail (an unfinished last append, which the next writer cuts) and an index that is only behind are notes. Progress goes to stderr when it is a terminal.")

    static func run(_ arguments: ParsedArguments<NoOptions>, _ context: Context) throws -> Int32 {
        let progress = ProgressLine("verify", context.terminal)
        let report = try context.store().verify(progress: progress.update)
        progress.finish()
        for problem in report.problems { context.terminal.print("problem: \(problem)") }
        for note in report.notes { context.terminal.print("note: \(note)") }
        if report.isSound {
            context.terminal.print("ok: \(String(counting: report.events, "event")) in \(String(counting: report.batches, "batch")), \(String(counting: report.segments, "segment"))")
        } else {
            context.terminal.print("damaged: \(String(counting: report.problems.count, "problem")); see above")
        }
        return report.isSound ? ExitCode.success : ExitCode.storeFailure
    }
}

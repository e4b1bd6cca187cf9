import HealthLog

/// `healthlog recover`: salvage every readable event of a damaged store into a new store.
enum RecoverCommand: Command {
    static let configuration = CommandConfiguration(
        name: "recover", abstract: "Copy every readable event of a damaged store into a new store and list what could not be read.",
        discussion: "Like sqlite3's .recover. Reads the store (it is never modified) batch by batch across every segment file, skipping whatever fails its checksum or does not decode and picking up at the next sound batch, and writes every readable event into a new store at <dest> under its original sequence number, with the same store identity (from meta, or from the segment headers when meta is damaged). Each lost range is recorded as a timeline gap, so anchors keep working and an anchor inside a lost range is refused with exit 3. The new store is indexed and verified before it is put in place. Prints 'lost FIRST-LAST' for each range of acknowledged sequence numbers that could not be read and 'unreadable FILE bytes START-END: REASON' for each damaged byte range on stdout. Exits 0 when every acknowledged event was recovered, 1 when some were lost (the new store then holds all the rest), 2 when <dest> is not empty.")

    struct Options: OptionGroup {
        let destination = Positional(
            "<dest>", help: "Where the new store goes: a path that does not exist, or an empty directory.",
            exactlyOne: "recover takes one destination directory")

        var members: [any OptionMember] { [destination] }
    }

    static func run(_ arguments: ParsedArguments<Options>, _ context: Context) throws -> Int32 {
        let destination = try arguments.destination
        let report = try context.store().recover(to: destination)
        for note in report.notes { context.terminal.note(note) }
        for range in report.lost { context.terminal.print("lost \(range.lowerBound)-\(range.upperBound)") }
        for region in report.unreadable {
            let seqs = region.seqs.map { " (sequence \($0.lowerBound)-\($0.upperBound))" } ?? ""
            context.terminal.print("unreadable \(region.file) bytes \(region.offset)-\(region.offset + region.length - 1): \(region.reason)\(seqs)")
        }
        context.terminal.flush()
        if let torn = report.tornTail {
            context.terminal.note("sequence \(torn.lowerBound)-\(torn.upperBound) belongs to an append that was never acknowledged (a torn tail); left out")
        }
        context.terminal.summary(
            "recovered \(String(counting: report.events, "event")) into \(destination), head \(report.headSeq); \(String(counting: report.lostEvents, "event")) lost in \(String(counting: report.lost.count, "range")); verified")
        guard report.isComplete else {
            context.terminal.failure("\(String(counting: report.lostEvents, "acknowledged event")) could not be read (listed on stdout); the new store holds everything else")
            return ExitCode.storeFailure
        }
        return ExitCode.success
    }
}

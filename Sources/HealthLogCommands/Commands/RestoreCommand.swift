import HealthLog

/// `healthlog restore`: put a backup in place of the store, as a new timeline, whole or
/// cut at a point in time (`--to`).
enum RestoreCommand: Command {
    static let configuration = CommandConfiguration(
        name: "restore", abstract: "Restore a backup into the store directory, verified and atomically, as a new timeline.",
        discussion: "Every file of the backup is checked against its manifest (size and SHA-256) and the copy verified before the store directory is touched: a damaged, incomplete or tampered backup is refused with exit 1 and the directory is left as it was. The new store is built beside the directory and swapped in with one rename, so a crash leaves the old store or the new one. The restore starts a new timeline: anchors up to the last event kept keep working, anchors into the history it discards are refused with exit 3, and new events get sequence numbers above every number issued before. Prints the restored store's head anchor on stdout; progress goes to stderr when it is a terminal.")

    struct Options: OptionGroup {
        let force = Flag("--force", help: "Replace the store at the store directory; without it the directory must be missing or empty.")
        let to = Option(
            "--to", "anchor|date",
            help:
                "Point-in-time recovery: bring back only the appends that ended at or before the anchor's position (a token, 0 or a sequence number), or were committed at or before the date (2026-11-30, its first instant on the clock the options below name, or an ISO 8601 instant), never part of an append. 'healthlog log' lists the appends with their anchors. What the backup holds after it is discarded history. An anchor of another store, past the backup's head or inside history the backup had discarded, a date after the backup was taken, and a point that keeps no event (unless it is 0) are refused with exit 3."
        )
        let dryRun = Flag("--dry-run", help: "Say what the restore would keep and discard, and change nothing.")
        let decrypt = Flag(
            "--decrypt",
            help: "Restore a backup of an encrypted store as a plaintext store (its secret needed): the same store, sequence numbers and anchors, every batch written in the clear, no key slots.")
        let encrypt = Flag(
            "--encrypt",
            help:
                "Restore a backup of a plaintext store as an encrypted store: the same store, sequence numbers and anchors, every batch sealed, one key slot for the secret given as to 'init --encrypt' (--passphrase-file or --key-file before the command, the HEALTHLOG_* variables, or a prompt asked twice).")
        let cipher = CipherOption.declared(help: "With --encrypt: the cipher of the store's data key (\(CipherOption.defaultNote)).")
        let clock = ClockOptions.restore
        let source = Positional("<src>", help: "A directory 'healthlog backup' wrote.", exactlyOne: "restore takes one backup directory")

        var members: [any OptionMember] { [force, to, dryRun, decrypt, encrypt, cipher, clock, source] }
    }

    static func run(_ arguments: ParsedArguments<Options>, _ context: Context) throws -> Int32 {
        let source = try arguments.source
        try PathKind.expectDirectory(source, "restore", hint: "give the directory 'healthlog backup' wrote")
        let clock = try arguments.clock.timeZone()
        let point = try arguments.to.map { text in try ClockDate.parse(text, on: clock).map(RestorePoint.date) ?? DateHint.anchorOrDate(text, "--to") { try RestorePoint(parsing: text) } }
        try HealthStore.checkRestoreUsage(from: source, decrypting: arguments.decrypt, encrypting: arguments.encrypt)
        let cipher = try arguments.cipher
        guard cipher == nil || arguments.encrypt else { throw HealthLogError(.badUsage, "--cipher is for 'restore --encrypt'") }
        let store = try context.store(cipher: cipher)
        var secret: StoreSecret?
        if arguments.encrypt {
            guard let given = try context.secret ?? SecretSources.newPassphrase(context.storePath) else {
                throw HealthLogError(
                    .keyRequired,
                    "restore --encrypt needs the passphrase or key file of the store's first key slot: give --passphrase-file FILE or --key-file FILE (before the command), HEALTHLOG_PASSPHRASE_FILE, HEALTHLOG_KEY_FILE or HEALTHLOG_PASSPHRASE, or type it at the prompt on a terminal")
            }
            secret = given
        }
        let preview = try store.previewRestore(from: source, to: point)
        for line in describe(preview, point) { context.terminal.summary(line) }
        if arguments.dryRun {
            context.terminal.summary("dry run: nothing was changed")
            return ExitCode.success
        }
        let copying = ProgressLine("restore (copy)", context.terminal, unit: "files")
        let verifying = ProgressLine("restore (verify)", context.terminal)
        let report = try store.restore(from: source, force: arguments.force, to: point, decrypting: arguments.decrypt, encryptingWith: secret) { step in
            switch step.stage {
            case .copying: copying.update(step.done, step.total)
            case .verifying:
                copying.finish()
                verifying.update(step.done, step.total)
            }
        }
        copying.finish()
        verifying.finish()
        for leftover in report.leftoversRemoved { context.terminal.note("removed \(leftover), left by an interrupted restore") }
        context.terminal.print(try store.headAnchor().token)
        context.terminal.flush()
        var discarded = ""
        if let range = report.discarded {
            let unused = report.keptUnused.map { $0.clamped(to: range) }
            if let unused, unused.lowerBound > range.lowerBound { discarded += "; sequence \(range.lowerBound)…\(unused.lowerBound - 1) discarded" }
            if let unused {
                discarded += "; sequence \(unused.lowerBound)…\(unused.upperBound) left unused: the store the backup came from may have issued them after the backup"
            } else {
                discarded += "; sequence \(range.lowerBound)…\(range.upperBound) discarded"
            }
        }
        let cut = report.keptSeq < report.backupHeadSeq ? " (cut at sequence \(report.keptSeq) of the backup's \(report.backupHeadSeq))" : ""
        context.terminal.summary(
            "restored \(String(counting: report.keptSeq, "event"))\(cut) from \(String(counting: report.filesCopied, "file")) (\(String(counting: report.bytesCopied, "byte"))); new timeline from sequence \(report.firstSeq)\(discarded); verified")
        return ExitCode.success
    }

    /// What the restore keeps and discards, in a line or two, before it acts.
    static func describe(_ preview: RestorePreview, _ point: RestorePoint?) -> [String] {
        let to = point.map { " to \($0)" } ?? ""
        var lines: [String] = []
        if preview.keptSeq == 0 {
            lines.append("restore\(to) keeps no event")
        } else {
            let last = preview.kept.first.map { "; the last committed \(LogCommand.when($0)): \(LogCommand.origin($0))" } ?? ""
            lines.append("restore\(to) keeps sequence 1…\(preview.keptSeq) (\(String(counting: preview.kept.count, "append"))\(last))")
        }
        if let first = preview.discarded.last, let newest = preview.discarded.first {
            let which =
                preview.discarded.count == 1
                ? "\(LogCommand.when(first)): \(LogCommand.origin(first))"
                : "from \(LogCommand.when(first)): \(LogCommand.origin(first)), to \(LogCommand.when(newest)): \(LogCommand.origin(newest))"
            lines.append("and discards the backup's sequence \(first.firstSeq)…\(preview.backupHeadSeq) (\(String(counting: preview.discarded.count, "append")), \(which))")
        }
        if let head = preview.storeHeadSeq {
            lines.append("and the store's sequence \(preview.backupHeadSeq + 1)…\(head), which the backup does not hold")
        }
        return lines
    }
}

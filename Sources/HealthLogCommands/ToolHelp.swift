/// What `healthlog` says of itself besides its commands, for the top-level help and the
/// generated reference: the overview, the options before the command, the environment it
/// reads and its exit codes.
enum ToolHelp {
    /// One help row: what is written on the left, and what it means.
    struct Row: Sendable {
        let left: String
        let help: String
    }

    static let overview = "An append-only, LZ4-compressed event log of health samples with HealthKit-style anchored queries."
    static let usage = "healthlog [--store <dir>] <command> [<options>]"

    static let store = Row(left: "--store <dir>", help: "The store directory (default: $HEALTHLOG_STORE, else ./healthlog.store).")
    static let help = Row(left: "-h, --help", help: "Show help information.")
    static let version = Row(left: "--version", help: "Show the tool's version and the store format versions it writes.")
    static let passphraseFile = Row(
        left: "--passphrase-file <file>", help: "An encrypted store's passphrase: the file's content, less one trailing newline.")
    static let keyFile = Row(left: "--key-file <file>", help: "An encrypted store's key file (at least 32 random bytes) instead of a passphrase.")
    /// The options read before the command, in the order help lists them.
    static let options = [store, passphraseFile, keyFile, help, version]
    /// The names of the options that give an encrypted store's secret.
    static let secretOptions = ["--passphrase-file", "--key-file"]

    static let environment = [
        Row(left: "HEALTHLOG_STORE", help: "The store directory when --store is not given."),
        Row(left: "HEALTHLOG_LOCK_TIMEOUT", help: "Seconds a writer waits for another writer's lock (default 10)."),
        Row(left: "HEALTHLOG_SEGMENT_BYTES", help: "Segment size limit in bytes (default 64 MiB)."),
        Row(left: "HEALTHLOG_BATCH_BYTES", help: "NDJSON bytes per batch (default 1 MiB)."),
        Row(left: "HEALTHLOG_PASSPHRASE_FILE", help: "An encrypted store's passphrase file when no --passphrase-file or --key-file is given."),
        Row(left: "HEALTHLOG_KEY_FILE", help: "An encrypted store's key file; set it or HEALTHLOG_PASSPHRASE_FILE, not both."),
        Row(
            left: "HEALTHLOG_PASSPHRASE",
            help: "An encrypted store's passphrase itself, after the files (other processes of this user may read it; prefer a file). Else the keys 'healthlog unlock' left, else a prompt on a terminal."),
        Row(left: "HEALTHLOG_NEW_PASSPHRASE_FILE", help: "The new slot's passphrase file for 'key add' when --new-passphrase-file is not given."),
    ]

    static let exitCodes = [
        Row(left: "0", help: "Success."),
        Row(left: "1", help: "Store or I/O failure (damage, permissions, disk full, lock timeout, no store)."),
        Row(left: "2", help: "Bad usage or bad input; nothing was written."),
        Row(left: "3", help: "Anchor refused: malformed, from another store, or past the head."),
        Row(left: "4", help: "Encrypted store: no secret given, or it opens no key slot; nothing was written."),
    ]
}

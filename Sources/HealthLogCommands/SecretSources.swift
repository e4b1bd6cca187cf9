import HealthLog

/// Where the command line finds an encrypted store's secret, first match first:
/// `--passphrase-file` or `--key-file` (before the command), `HEALTHLOG_PASSPHRASE_FILE`,
/// `HEALTHLOG_KEY_FILE`, `HEALTHLOG_PASSPHRASE`; then, looked up only when the store turns
/// out to be encrypted, the keys `healthlog unlock` left in the keyring, else a prompt
/// without echo when standard input is a terminal.
enum SecretSources {
    /// The secret the options or the environment give; `nil` when they give none.
    static func given(passphraseFile: String?, keyFile: String?) -> StoreSecret? {
        if let passphraseFile { return .passphraseFile(passphraseFile) }
        if let keyFile { return .keyFile(keyFile) }
        if let path = Context.environment("HEALTHLOG_PASSPHRASE_FILE"), !path.isEmpty { return .passphraseFile(path) }
        if let path = Context.environment("HEALTHLOG_KEY_FILE"), !path.isEmpty { return .keyFile(path) }
        if let passphrase = Context.environment("HEALTHLOG_PASSPHRASE"), !passphrase.isEmpty { return .passphrase(Array(passphrase.utf8)) }
        return nil
    }

    /// Whether `HEALTHLOG_PASSPHRASE_FILE` and `HEALTHLOG_KEY_FILE` are both set (and not
    /// empty): a usage error unless an option names the secret.
    static var bothFilesInEnvironment: Bool {
        ["HEALTHLOG_PASSPHRASE_FILE", "HEALTHLOG_KEY_FILE"].allSatisfy { Context.environment($0).map { !$0.isEmpty } ?? false }
    }

    /// Asks for the passphrase of the store at a directory on the terminal; `nil` when
    /// standard input is no terminal.
    static let prompt: @Sendable (String) throws -> StoreSecret? = { directory in
        try PassphrasePrompt.ask("Passphrase for \(directory): ").map(StoreSecret.passphrase)
    }

    /// A new passphrase typed twice on the terminal (`init --encrypt`, `key add`); `nil`
    /// when standard input is no terminal.
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` when the two differ or it is empty.
    static func newPassphrase(_ what: String) throws -> StoreSecret? {
        guard var first = try PassphrasePrompt.ask("New passphrase for \(what): ") else { return nil }
        defer { Sodium.wipe(&first) }
        guard !first.isEmpty else { throw HealthLogError(.badUsage, "the passphrase is empty") }
        guard var second = try PassphrasePrompt.ask("Repeat the new passphrase: ") else { return nil }
        defer { Sodium.wipe(&second) }
        guard first == second else { throw HealthLogError(.badUsage, "the two passphrases typed differ; nothing was changed") }
        return .passphrase(first)
    }
}

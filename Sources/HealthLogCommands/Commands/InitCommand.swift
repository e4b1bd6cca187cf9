import HealthLog

/// `healthlog init`: an empty store, plaintext or encrypted.
enum InitCommand: Command {
    static let configuration = CommandConfiguration(
        name: "init", abstract: "Create an empty store, encrypted with --encrypt.",
        discussion: "Without --encrypt the store is the plaintext one the first append would make. With it, every sample the store holds is sealed with AES-256-GCM (on a CPU with AES instructions; else XChaCha20-Poly1305; --cipher chooses) under a random data key, which the store keeps wrapped in key slots: the first slot opens with the passphrase or key file given (--passphrase-file, --key-file, HEALTHLOG_PASSPHRASE_FILE, HEALTHLOG_KEY_FILE, HEALTHLOG_PASSPHRASE, else typed twice at a prompt on a terminal). The store is built beside the directory and renamed into place, so a crash leaves no store or a complete one. If every passphrase and key file of a store is lost, its data cannot be read by anyone. Fails with exit 2 when a store is already there. Prints the store's identity on stdout.")

    struct Options: OptionGroup {
        let encrypt = Flag("--encrypt", help: "Encrypt the store; the secret given (or typed twice) opens its first key slot.")
        let cipher = CipherOption.declared(help: "With --encrypt: the cipher of the store's first data key (\(CipherOption.defaultNote)).")

        var members: [any OptionMember] { [encrypt, cipher] }
    }

    static func run(_ arguments: ParsedArguments<Options>, _ context: Context) throws -> Int32 {
        var options = try context.storeOptions()
        options.cipher = try arguments.cipher
        let store = HealthStore(directory: context.storePath, options: options)
        guard arguments.encrypt else {
            guard options.cipher == nil else { throw HealthLogError(.badUsage, "--cipher is for 'init --encrypt'") }
            context.terminal.print(try store.create(encryptedWith: nil))
            return ExitCode.success
        }
        guard !store.exists else { throw HealthLogError(.badUsage, "\(context.storePath) already holds a healthlog store") }
        guard let secret = try context.secret ?? SecretSources.newPassphrase(context.storePath) else {
            throw HealthLogError(
                .keyRequired,
                "init --encrypt needs the passphrase or key file of the store's first key slot: give --passphrase-file FILE or --key-file FILE (before the command), HEALTHLOG_PASSPHRASE_FILE, HEALTHLOG_KEY_FILE or HEALTHLOG_PASSPHRASE, or type it at the prompt on a terminal")
        }
        context.terminal.print(try store.create(encryptedWith: secret))
        return ExitCode.success
    }
}

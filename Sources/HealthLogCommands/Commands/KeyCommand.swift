import HealthLog

/// `healthlog key`: an encrypted store's key slots and data-key epochs.
enum KeyCommand: Command {
    static let configuration = CommandConfiguration(
        name: "key", abstract: "Manage an encrypted store's key slots, or rotate its data key.",
        discussion: "'key list' prints each slot (id, kind, when it was made, the data-key epochs it holds), the current epoch and the epochs the segments' batches are sealed under; it needs no secret, and with one (or after 'unlock') it also checks each data-key entry's MAC and names the entries that fail, which no command uses. The others open the store with its secret first (as every command does) and change only slot files, each replaced atomically and durably under the writer lock: a crash leaves the old slots or the new ones. 'key add' makes a slot for a new passphrase (--new-passphrase-file, HEALTHLOG_NEW_PASSPHRASE_FILE, else typed twice at a prompt) or key file (--new-key-file) and prints its id. 'key remove ID' removes a slot, never the last one nor the one the secret given opens. To change a passphrase, add the new one, then remove the old slot giving the new one. 'key rotate' starts a new data-key epoch for everything written after it (older data keeps its epoch's key) and prints the epoch; --cipher chooses its cipher (\(CipherOption.defaultNote)). 'key list' ends with each epoch's cipher.")

    /// What `key` does.
    enum Action: Sendable {
        case list, add, rotate
        case remove(Int)
    }

    struct Options: OptionGroup {
        let action = Positional<Action>(
            "<action>", help: "list, add, remove ID, or rotate.", completion: .choices(["list", "add", "remove", "rotate"])
        ) { arguments in
            switch (arguments.first, arguments.count) {
            case ("list", 1): return .list
            case ("add", 1): return .add
            case ("rotate", 1): return .rotate
            case ("remove", 2):
                guard let id = Int(arguments[1]), id >= 1 else { throw HealthLogError(.badUsage, "key remove takes a slot id (a number from 'key list'), not '\(arguments[1])'") }
                return .remove(id)
            case ("remove", _): throw HealthLogError(.badUsage, "key remove takes one slot id")
            case (nil, _): throw HealthLogError(.badUsage, "key needs an action: list, add, remove ID or rotate")
            case (let action?, _):
                guard ["list", "add", "rotate"].contains(action) else { throw HealthLogError(.badUsage, "unknown key action '\(action)': list, add, remove ID or rotate") }
                throw HealthLogError(.badUsage, "key \(action) takes no argument")
            }
        }
        let newPassphraseFile = Option<String>(
            "--new-passphrase-file", "file",
            help: "For 'key add': the new slot's passphrase, read from this file less one trailing newline (default: $HEALTHLOG_NEW_PASSPHRASE_FILE, else typed twice at a prompt).",
            completion: .file)
        let newKeyFile = Option<String>(
            "--new-key-file", "file", help: "For 'key add': a key file (at least 32 random bytes) that opens the new slot, instead of a passphrase.", completion: .file)
        let cipher = CipherOption.declared(help: "For 'key rotate': the cipher of the new data key.")

        var members: [any OptionMember] { [action, newPassphraseFile, newKeyFile, cipher] }
    }

    static func run(_ arguments: ParsedArguments<Options>, _ context: Context) throws -> Int32 {
        let action = try arguments.action
        let newPassphraseFile = try arguments.newPassphraseFile
        let newKeyFile = try arguments.newKeyFile
        let cipher = try arguments.cipher
        if case .rotate = action {} else if cipher != nil { throw HealthLogError(.badUsage, "--cipher is for 'key rotate'") }
        if case .add = action {} else if newPassphraseFile != nil || newKeyFile != nil {
            throw HealthLogError(.badUsage, "--new-passphrase-file and --new-key-file are for 'key add'")
        }
        let store = try context.store(cipher: cipher)
        switch action {
        case .list:
            list(try store.keySlots(), context.terminal)
        case .add:
            guard newPassphraseFile == nil || newKeyFile == nil else { throw HealthLogError(.badUsage, "give --new-passphrase-file or --new-key-file, not both") }
            let environment = Context.environment("HEALTHLOG_NEW_PASSPHRASE_FILE").flatMap { $0.isEmpty ? nil : StoreSecret.passphraseFile($0) }
            let given = newPassphraseFile.map(StoreSecret.passphraseFile) ?? newKeyFile.map(StoreSecret.keyFile) ?? environment
            guard let secret = try given ?? SecretSources.newPassphrase("the new key slot") else {
                throw HealthLogError(.badUsage, "key add needs the new slot's secret: --new-passphrase-file FILE, --new-key-file FILE, HEALTHLOG_NEW_PASSPHRASE_FILE, or a prompt on a terminal")
            }
            let id = try store.addKeySlot(secret)
            context.terminal.print(String(id))
            context.terminal.flush()
            context.terminal.summary("added key slot \(id)")
        case .remove(let id):
            try store.removeKeySlot(id)
            context.terminal.summary("removed key slot \(id)")
        case .rotate:
            let epoch = try store.rotateKey()
            context.terminal.print(String(epoch))
            context.terminal.flush()
            context.terminal.summary("data written from now on is sealed under key epoch \(epoch)")
        }
        return ExitCode.success
    }

    /// `key list`'s table.
    private static func list(_ listing: KeySlotListing, _ terminal: Terminal) {
        terminal.print("slot  kind        created               epochs")
        for slot in listing.slots {
            let id = pad(String(slot.id), 6)
            guard let kind = slot.kind, let created = slot.created else {
                terminal.print(id + "damaged: " + (slot.problem ?? ""))
                continue
            }
            let epochs = slot.epochs.map(String.init).joined(separator: ",")
            terminal.print(id + pad(kind, 12) + pad(created.description, 22) + epochs)
            if let problem = slot.problem { terminal.print(pad("", 6) + "damaged: " + problem) }
        }
        let unverified = listing.isVerified ? "" : " (as the slot files say; give the store's secret to check them)"
        terminal.print("current epoch: " + (listing.currentEpoch.map { String($0) + unverified } ?? "none (no slot opens)"))
        let used = listing.batchesByEpoch.sorted { $0.key < $1.key }.map { "epoch \($0.key) (\(String(counting: $0.value, "batch")))" }
        terminal.print("segments sealed under: " + (used.isEmpty ? "nothing yet" : used.joined(separator: ", ")))
        if let current = listing.currentEpoch, let newer = listing.batchesByEpoch.keys.filter({ $0 > current }).max() {
            terminal.print(
                "damaged: segments are sealed under epoch \(newer), newer than the current one: a slot's entry for it is damaged or its file is an older copy; "
                    + "appends refuse until that slot is removed ('key remove ID')")
        }
        let ciphers = listing.ciphers.sorted { $0.key < $1.key }.map { "epoch \($0.key) \($0.value.name)" }
        terminal.print("ciphers: " + (ciphers.isEmpty ? "none" : ciphers.joined(separator: ", ")))
    }

    /// `text` followed by spaces up to `width` columns (and one at least).
    private static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(1, width - text.count))
    }
}

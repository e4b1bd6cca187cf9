#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLog

/// What every command gets: the store path, the secret the options or environment give
/// (``SecretSources``), the store options from the environment, the faults to inject (none
/// but in the test-only fault tool), the terminal, and the name of the executable `import`
/// runs.
struct Context {
    let storePath: String
    /// The secret `--passphrase-file`, `--key-file` or the environment give; `nil` for none
    /// (the keyring, then a prompt, are tried when the store is encrypted).
    let secret: StoreSecret?
    let terminal: Terminal
    let faults: () throws -> FaultPlan
    let importWorker: String

    /// A store handle; `sync: false` for `--no-sync`; `origin` is what its appends record
    /// as having made them.
    func store(sync: Bool = true, origin: AppendOrigin? = nil, cipher: UnitCipher? = nil) throws -> HealthStore {
        var options = try storeOptions(sync: sync, origin: origin)
        options.cipher = cipher
        return HealthStore(directory: storePath, secret: secret, ask: SecretSources.prompt, options: options)
    }

    /// The store options from the environment and the faults to inject.
    func storeOptions(sync: Bool = true, origin: AppendOrigin? = nil) throws -> StoreOptions {
        var options = StoreOptions()
        options.sync = sync
        options.origin = origin
        if let bytes = try Context.integer("HEALTHLOG_SEGMENT_BYTES") { options.segmentBytes = bytes }
        if let bytes = try Context.integer("HEALTHLOG_BATCH_BYTES") { options.batchBytes = bytes }
        if let text = Context.environment("HEALTHLOG_LOCK_TIMEOUT") {
            guard let seconds = Double(text), seconds >= 0 else {
                throw HealthLogError(.badUsage, "HEALTHLOG_LOCK_TIMEOUT must be a number of seconds, not '\(text)'")
            }
            options.lockTimeout = seconds
        }
        options.faults = try faults()
        return options
    }

    /// An environment variable's value.
    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    private static func integer(_ name: String) throws -> Int? {
        guard let text = environment(name) else { return nil }
        guard let value = Int(text), value > 0 else { throw HealthLogError(.badUsage, "\(name) must be a positive integer, not '\(text)'") }
        return value
    }
}

/// Exit codes, one table (`docs/commands.md`, "Exit codes").
enum ExitCode {
    static let success: Int32 = 0
    static let storeFailure: Int32 = 1
    static let badInput: Int32 = 2
    static let anchorRefused: Int32 = 3
    static let keyRefused: Int32 = 4

    /// The exit code of an error's category.
    static func of(_ error: HealthLogError) -> Int32 {
        switch error.code.category {
        case .store: storeFailure
        case .input: badInput
        case .anchor: anchorRefused
        case .key: keyRefused
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `healthlog import` asks the import worker (`healthlog-import`) to do. Both ends use
/// this type: `healthlog` passes ``arguments``, the worker reads them with
/// ``init(arguments:acceptsFaults:)``.
///
/// The arguments are `--store DIR [--mirror] [--no-sync] [--segment-bytes N]
/// [--batch-bytes N] [--lock-timeout S] [--parent-pipe FD] [--key-file PATH |
/// --passphrase-file PATH | --passphrase-fd FD | --unlocked] [--fault PLAN]… -- FILE`: the
/// store options `healthlog` took from its environment spelled out, so the worker reads no
/// environment of its own, and, for an encrypted store, where its secret is: a file's
/// path, the keyring, or a passphrase (typed, or from the environment) on a pipe the
/// worker reads to its end, never in an argument.
package struct ImportWorkerRequest {
    /// The store directory.
    package var storePath: String
    /// The export to import.
    package var exportPath: String
    /// The store handle's tunables (and, for the test-only worker, its fault plan).
    package var storeOptions: StoreOptions
    /// `--mirror`.
    package var mirror: Bool
    /// The read end of the pipe whose end tells the worker that `healthlog` ended.
    package var parentPipe: Int32?
    /// An encrypted store's secret; a passphrase travels on ``passphraseDescriptor``.
    package var secret: StoreSecret?
    /// The descriptor the worker reads a passphrase from, for a ``StoreSecret/passphrase(_:)`` secret.
    package static let passphraseDescriptor: Int32 = 3

    /// A request to import `exportPath` into `storePath`.
    package init(storePath: String, exportPath: String, storeOptions: StoreOptions, mirror: Bool, parentPipe: Int32?) {
        self.storePath = storePath
        self.exportPath = exportPath
        self.storeOptions = storeOptions
        self.mirror = mirror
        self.parentPipe = parentPipe
    }

    /// The worker's arguments.
    package var arguments: [String] {
        var out = ["--store", storePath]
        if mirror { out.append("--mirror") }
        if !storeOptions.sync { out.append("--no-sync") }
        out += ["--segment-bytes", String(storeOptions.segmentBytes), "--batch-bytes", String(storeOptions.batchBytes)]
        out += ["--lock-timeout", String(storeOptions.lockTimeout)]
        if let parentPipe { out += ["--parent-pipe", String(parentPipe)] }
        switch secret {
        case .keyFile(let path): out += ["--key-file", path]
        case .passphraseFile(let path): out += ["--passphrase-file", path]
        case .passphrase: out += ["--passphrase-fd", String(Self.passphraseDescriptor)]
        case .unlocked: out.append("--unlocked")
        case nil: break
        }
        let faults = storeOptions.faults
        if let kill = faults.kill { out += ["--fault", "kill:\(kill.point.rawValue):\(kill.occurrence)"] }
        if let bytes = faults.failWritesAfterBytes { out += ["--fault", "enospc-after:\(bytes)"] }
        if faults.failSync { out += ["--fault", "fail-fsync"] }
        return out + ["--", exportPath]
    }

    /// Reads the worker's arguments; `--fault` only when `acceptsFaults` (the test-only twin).
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` for arguments `healthlog` never passes.
    package init(arguments: [String], acceptsFaults: Bool) throws {
        self.init(storePath: "", exportPath: "", storeOptions: StoreOptions(), mirror: false, parentPipe: nil)
        var rest = arguments[...]
        func value(_ option: String) throws -> String {
            guard let value = rest.popFirst() else { throw HealthLogError(.badUsage, "healthlog-import: option '\(option)' needs a value") }
            return value
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--store": storePath = try value(argument)
            case "--mirror": mirror = true
            case "--no-sync": storeOptions.sync = false
            case "--segment-bytes": storeOptions.segmentBytes = try Self.number(value(argument), argument)
            case "--batch-bytes": storeOptions.batchBytes = try Self.number(value(argument), argument)
            case "--lock-timeout": storeOptions.lockTimeout = try Self.number(value(argument), argument)
            case "--parent-pipe": parentPipe = try Self.number(value(argument), argument)
            case "--key-file": secret = .keyFile(try value(argument))
            case "--passphrase-file": secret = .passphraseFile(try value(argument))
            case "--passphrase-fd": secret = .passphrase(try Self.readAll(Self.number(value(argument), argument)))
            case "--unlocked": secret = .unlocked
            case "--fault":
                guard acceptsFaults else { throw HealthLogError(.badUsage, "healthlog-import injects no faults; '--fault' is for the test-only worker") }
                let text = try value(argument)
                guard let plan = FaultPlan(parsing: text) else { throw HealthLogError(.badUsage, "healthlog-import: bad fault plan '\(text)'") }
                storeOptions.faults.kill = plan.kill ?? storeOptions.faults.kill
                storeOptions.faults.failWritesAfterBytes = plan.failWritesAfterBytes ?? storeOptions.faults.failWritesAfterBytes
                storeOptions.faults.failSync = storeOptions.faults.failSync || plan.failSync
            case "--":
                guard rest.count == 1, let path = rest.first else { throw HealthLogError(.badUsage, "healthlog-import: expected one export file") }
                exportPath = path
                storeOptions.origin = AppendOrigin(command: "import", file: String(path.split(separator: "/").last ?? Substring(path)))
                return
            default:
                throw HealthLogError(.badUsage, "healthlog-import: unknown argument '\(argument)'")
            }
        }
        throw HealthLogError(.badUsage, "healthlog-import: missing the export file")
    }

    /// `text` as a number of the option's type.
    private static func number<T: LosslessStringConvertible>(_ text: String, _ option: String) throws -> T {
        guard let number = T(text) else { throw HealthLogError(.badUsage, "healthlog-import: option '\(option)' needs a number, not '\(text)'") }
        return number
    }

    /// Everything the descriptor `fd` gives until its end (a passphrase on a pipe), then
    /// closes it.
    private static func readAll(_ fd: Int32) throws -> [UInt8] {
        defer { _ = close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw HealthLogError(.io, "healthlog-import: cannot read the passphrase: \(describeErrno(errno))", errno: errno) }
            if count == 0 { break }
            out += chunk[0..<count]
            guard out.count <= 1 << 16 else { throw HealthLogError(.badUsage, "healthlog-import: a passphrase longer than 64 KiB") }
        }
        Sodium.wipe(&chunk)
        return out
    }
}

/// What `healthlog import` asks the import worker (`healthlog-import`) to do. Both ends use
/// this type: `healthlog` passes ``arguments``, the worker reads them with
/// ``init(arguments:acceptsFaults:)``.
///
/// The arguments are `--store DIR [--mirror] [--no-sync] [--segment-bytes N]
/// [--batch-bytes N] [--lock-timeout S] [--parent-pipe FD] [--fault PLAN]… -- FILE`: the
/// store options `healthlog` took from its environment spelled out, so the worker reads no
/// environment of its own.
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
}

import HealthLog
import HealthLogImport

/// What `healthlog` asks the worker to import, read from the arguments it passes:
/// `--store DIR [--mirror] [--no-sync] [--segment-bytes N] [--batch-bytes N]
/// [--lock-timeout S] [--parent-pipe FD] [--fault PLAN]… -- FILE`, the store options `healthlog` took from
/// its environment spelled out, so the worker reads no environment of its own.
struct WorkerRequest {
    /// The store directory.
    var storePath = ""
    /// The export to import.
    var exportPath = ""
    /// The store handle's tunables.
    var storeOptions = StoreOptions()
    /// Mirroring.
    var importOptions = ImportOptions()
    /// The read end of the pipe whose end tells that `healthlog` ended (``ParentWatch``).
    var parentPipe: Int32?

    /// Reads the arguments; `--fault` only when `acceptsFaults` (the test-only twin).
    ///
    /// - Throws: ``HealthLogError/Code/badUsage`` for arguments `healthlog` never passes.
    init(_ arguments: [String], acceptsFaults: Bool) throws {
        var rest = arguments[...]
        func value(_ option: String) throws -> String {
            guard let value = rest.popFirst() else { throw HealthLogError(.badUsage, "healthlog-import: option '\(option)' needs a value") }
            return value
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--store": storePath = try value(argument)
            case "--mirror": importOptions.mirror = true
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

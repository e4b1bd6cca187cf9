#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthLog
import HealthLogCommands

// The test-only twin of `healthlog`: the same commands, with the faults that
// `HEALTHLOG_TEST_FAULT` names (`kill:POINT[:N]`, `enospc-after:BYTES`, `fail-fsync`)
// injected into every store it opens; its `import` runs the worker's test twin, which
// takes them too. `HEALTHLOG_TEST_WEAK_KDF=1` makes new passphrase key slots with
// libsodium's least Argon2id cost, so the encryption tests run fast (such a slot guards
// nothing). Built for the crash and fault tests; not a product.
let faults = {
    var plan = FaultPlan()
    if let text = getenv("HEALTHLOG_TEST_FAULT").map({ String(cString: $0) }) {
        guard let parsed = FaultPlan(parsing: text) else {
            throw HealthLogError(.badUsage, "HEALTHLOG_TEST_FAULT must be kill:POINT[:N], enospc-after:BYTES or fail-fsync, not '\(text)'")
        }
        plan = parsed
    }
    plan.weakKeyDerivation = getenv("HEALTHLOG_TEST_WEAK_KDF").map { String(cString: $0) == "1" } ?? false
    return plan
}
exit(HealthLogCommand.main(Array(CommandLine.arguments.dropFirst()), faults: faults, importWorker: "HealthLogImportFaultWorker"))
